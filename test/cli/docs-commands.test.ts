import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, cms, ROOT, type Ran } from './run.ts';
import { testDatabase } from '../helpers/store.ts';

// Every `cms-spec …` command the README and docs/ show is one the CLI has, with the options they
// give it: a renamed command or option fails here, not in a reader's terminal. Each command's
// --help is asked (commander answers it from the same definitions the command runs with), and
// each command is then run for real (the second test), or the test says why it cannot be.

const PAGES = ['README.md', 'spec/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Not commands: the ready line serve prints, a placeholder for plugins' own commands. */
const NOT_COMMANDS = [/^cms-spec listening on /, /^cms-spec </];

/** Each command line a page shows: in `code` spans and in shell code blocks. */
function commandsOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const found: string[] = [];
  for (const [, code] of text.matchAll(/`((?:npx )?cms-spec [^`\n]+)`/g)) found.push(code);
  for (const [, block] of text.matchAll(/```(?:sh|bash)\n([\s\S]*?)```/g))
    for (const line of block.split('\n')) if (/^(npx )?cms-spec /.test(line.trim())) found.push(line.trim());
  // `a | b` in a shell line is two commands; in a table cell `a\|b` is one option's choices
  return found.flatMap((c) => c.replace(/\\\|/g, '/').split(/ \| /)).map((c) => c.replace(/^npx /, '').replace(/\s+#.*$/, '').trim());
}

const helpCache = new Map<string, string>();
function help(path: string[]): string {
  const key = path.join(' ');
  if (!helpCache.has(key)) {
    const r = cms([...path, '--help']);
    assert.equal(r.status, 0, `cms-spec ${key} --help failed:\n${r.stderr}`);
    helpCache.set(key, r.stdout);
  }
  return helpCache.get(key)!;
}

/** The subcommands a help text lists. */
const subcommandsOf = (text: string) => new Set([...(text.split('\nCommands:\n')[1] ?? '').matchAll(/^ {2}(\S+)/gm)].map((m) => m[1].split('|')[0]));

/** The choices of a command's `<action>` argument (a plugin's commands: `seo index`, `connector list|set|test`). */
const actionsOf = (text: string) => new Set([.../^ {2}action\b[\s\S]*?\(choices: ([^)]*)\)/m.exec(text.split('\nArguments:\n')[1] ?? '')?.[1].matchAll(/"([^"]+)"/g) ?? []].map((m) => m[1]));

/**
 * The command a documented line names, word by word: at each level the subcommands it gives
 * (`plugin list|activate|deactivate` names three), as commander lists them under the one before.
 */
function commandOf(command: string): string[][] {
  const levels: string[][] = [];
  for (const w of command.split(/\s+/).slice(1)) {
    if (w.startsWith('-') || w.startsWith('[')) break;
    const choices = w.split(/[|/]/);
    const text = help(levels.map((l) => l[0]));
    if (choices.every((c) => subcommandsOf(text).has(c))) levels.push(choices);
    else {
      // a plugin's command names what it does with an argument: the last word of the command
      if (choices.every((c) => actionsOf(text).has(c))) levels.push(choices);
      break;
    }
  }
  return levels;
}

/** Every documented command line, once each, with the page that shows it. */
function documented(): { command: string; page: string }[] {
  const lines = [...new Set(PAGES.flatMap((page) => commandsOf(page).map((c) => `${c}\u0000${page}`)))];
  return lines.map((l) => l.split('\u0000')).map(([command, page]) => ({ command, page })).filter(({ command }) => !NOT_COMMANDS.some((re) => re.test(command)));
}

test('every cms-spec command the README and docs/ show exists, with every option they give it', () => {
  const commands = documented();
  assert.ok(commands.length > 40, `the pages show the CLI (${commands.length} commands found)`);
  for (const { command, page } of commands) {
    if (command.split(/\s+/)[1] === '--version') {
      assert.match(cms(['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
      continue;
    }
    const path = commandOf(command).map((choices) => choices[0]);
    assert.ok(path.length > 0, `${page}: \`${command}\` names no cms-spec command`);
    const text = help(path);
    for (const [, option] of command.matchAll(/(?:^|[\s[])(--[a-z][\w-]*)/g)) {
      assert.ok(text.includes(option), `${page}: \`${command}\` gives ${option}, which \`cms-spec ${path.join(' ')}\` does not take`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// The commands the pages show, run: each against a folder and a database of the test's own, as a
// reader would type it after the quick start, checked to exit 0 and print what the pages say.

/** Documented commands this test does not run, and why (each is run by the test named). */
const NOT_RUN: Record<string, string> = {
  serve: 'serves in the foreground until stopped: test/cli/serve.test.ts and the walkthrough start it and stop it',
  mcp: 'a stdio server that waits for a client: test/plugins/abilities/mcp.test.ts runs it with the MCP SDK client',
  'new plugin': "scaffolds into the spec and plugins folders it is run in: test/cli/new-plugin.test.ts runs it in a copy",
  'cron run': "runs the due jobs, some of which call the plugins' services on the internet: test/cli/cron.test.ts runs named hooks",
  'connector set': "stores a mail service's key, which the pages show as a placeholder: test/plugins/mail-connectors/cli.test.ts runs it",
};

/** `cms-spec …` without a terminal, in `cwd`: its exit code and output (asynchronous, so two can run at once). */
function run(args: string[], cwd: string, input?: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.stdin.end(input ?? '');
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

interface Step {
  /** The command as the pages name it (`post create`), for the check that every one is run. */
  command: string;
  args: string[];
  /** Standard input. */
  input?: string;
  /** What the pages say it prints (its standard output), where that can be checked. */
  prints?: RegExp;
  /** Where it runs: the test's folder unless told. */
  cwd?: string;
}

test('the commands the README and docs/ show run: each exits 0 and prints what the pages say', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-docs-commands-'));
  // the site, and the two it is imported into: of the store this run tests (SQLite files, or PostgreSQL schemas)
  const [db, copy, piped] = await Promise.all([testDatabase(), testDatabase(), testDatabase()]);
  try {
    const site = ['--db', db.location];
    // the spec's commands, in the project (this checkout) as its developer runs them, need no
    // database: a lane of their own, run beside the site's
    const specLane: Step[] = [
      { command: '--version', args: ['--version'], prints: /^\d+\.\d+\.\d+\n$/ },
      { command: 'lint', args: ['lint'] },
      { command: 'routes', args: ['routes', '--namespace', 'cms/v2', '--format', 'markdown'], prints: /^\| route \| methods \| follows \|\n\|---\|---\|---\|\n(\| .*\n)*\| `\/cms\/v2\/posts` \| GET, POST \| /m },
      { command: 'types', args: ['types', '--check'] },
      { command: 'docs', args: ['docs', '--out', join(dir, 'api-docs'), '--url', 'http://127.0.0.1:8080/cms-json/'] },
    ].map((step) => ({ ...step, cwd: ROOT }));
    const siteLane: Step[] = [
      { command: 'init', args: ['init', 'my-api'], prints: /^ {2}npm install$/m },
      { command: 'seed', args: ['seed', '--posts', '3', '--terms', '4', ...site], prints: /^Seeded 3 posts, /m },
      { command: 'migrate', args: ['migrate', ...site], prints: /^(applied (core|plugin) .*\n)*(Migrated .*: \d+ migrations applied|Nothing to migrate: .* is up to date) \(\d+ core migrations; plugins: .*\)\.\n$/ },
      { command: 'openapi', args: ['openapi', ...site, '--out', join(dir, 'openapi.json')] },
      { command: 'option get', args: ['option', 'get', 'blogname', ...site], prints: /^cms-spec\n$/ },
      { command: 'option update', args: ['option', 'update', 'blogname', 'Docs Site', ...site], prints: /^Success: Updated 'blogname' option\.\n$/ },
      { command: 'user add', args: ['user', 'add', 'riley', '--role', 'editor', '--email', 'riley@example.com', '--porcelain', ...site], prints: /^\d+\n$/ },
      { command: 'user update', args: ['user', 'update', 'riley', '--display_name', 'Riley', ...site], prints: /^Success: Updated user \d+\.\n$/ },
      { command: 'app-password create', args: ['app-password', 'create', 'riley', 'laptop', ...site], prints: /^ {4}(\S{4} ){5}\S{4}$/m },
      { command: 'post create', args: ['post', 'create', '--post_title', 'From the docs', '--post_status', 'publish', '--user', 'riley', '--porcelain', ...site], prints: /^\d+\n$/ },
      { command: 'post list', args: ['post', 'list', '--s', 'From the docs', '--field', 'post_title', ...site], prints: /^From the docs\n$/ },
      { command: 'post get', args: ['post', 'get', '{post}', '--field', 'post_title', ...site], prints: /^From the docs\n$/ },
      { command: 'post update', args: ['post', 'update', '{post}', '--post_title', 'Updated from the docs', ...site], prints: /^Success: Updated post \d+\.\n$/ },
      { command: 'post delete', args: ['post', 'delete', '{post}', '--force', ...site], prints: /^Success: Deleted post \d+\.\n$/ },
      { command: 'plugin list', args: ['plugin', 'list', '--format', 'csv', ...site], prints: /^name,status,version,title\n(.*\n)*seo,active,/ },
      { command: 'plugin deactivate', args: ['plugin', 'deactivate', 'seo', ...site], prints: /^Plugin SEO \(seo\/seo\) deactivated\.\n$/ },
      { command: 'plugin activate', args: ['plugin', 'activate', 'seo', ...site], prints: /^Plugin SEO \(seo\/seo\) activated\.\n$/ },
      { command: 'seo index', args: ['seo', 'index', ...site], prints: /^Indexed \d+ objects \(posts, terms, archives, general pages and their links\) in [\d.]+ s\.\n$/m },
      { command: 'connector list', args: ['connector', 'list', '--format', 'csv', ...site], prints: /^name,namespace,provider,key,base_url\n(.*\n)*mailchimp,kb-mail-a\/v1,Mailchimp,/ },
      { command: 'cron list', args: ['cron', 'list', '--fields', 'hook', '--format', 'csv', ...site], prints: /^hook\n(.*\n)*design_library_purge_expired_cache\n/ },
      { command: 'cache flush', args: ['cache', 'flush', ...site], prints: /^Success: The cache was flushed \(.*\)\.\n$/ },
      { command: 'doctor', args: ['doctor', '--offline', '--format', 'json', ...site] },
      { command: 'export', args: ['export', ...site, '--out', join(dir, 'site.jsonl')], prints: /^Exported [\d,]+ rows of \d+ tables from .* to .*site\.jsonl in [\d.]+ s\.\n$/ },
      { command: 'import', args: ['import', '--db', copy.location, join(dir, 'site.jsonl')], prints: /^Imported [\d,]+ rows of \d+ tables into / },
      { command: 'import', args: ['import', '--db', piped.location, '-'], input: '{site.jsonl}', prints: /^Imported [\d,]+ rows of \d+ tables into / },
    ];
    /** What each command run printed (the last run of it). */
    const printed = new Map<string, string>();
    let post = '';
    const runLane = async (steps: Step[]) => {
      for (const step of steps) {
        const args = step.args.map((a) => (a === '{post}' ? post : a));
        const input = step.input === '{site.jsonl}' ? readFileSync(join(dir, 'site.jsonl'), 'utf8') : step.input;
        const r = await run(args, step.cwd ?? dir, input);
        assert.equal(r.status, 0, `cms-spec ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
        if (step.prints) assert.match(r.stdout, step.prints, `cms-spec ${args.join(' ')}`);
        if (step.command === 'post create') post = r.stdout.trim();
        printed.set(step.command, r.stdout);
      }
    };
    // both lanes end before the folder is removed, the first failure told
    for (const lane of await Promise.allSettled([runLane(specLane), runLane(siteLane)])) if (lane.status === 'rejected') throw lane.reason;

    // what the commands wrote is what the pages say they write
    const openapi = JSON.parse(readFileSync(join(dir, 'openapi.json'), 'utf8')) as { openapi: string; paths: Record<string, unknown> };
    assert.equal(openapi.openapi, '3.1.0');
    assert.ok(Object.keys(openapi.paths).length > 100, 'the routes the site serves');
    assert.ok(existsSync(join(dir, 'api-docs', 'index.html')), 'the HTML reference');
    assert.ok(existsSync(join(dir, 'my-api', 'spec', 'site.yaml')), 'the new project');
    const doctor = (JSON.parse(printed.get('doctor')!) as { tests: { test: string; status: string }[] }).tests;
    assert.ok(doctor.length >= 5, 'the site health tests');
    assert.deepEqual(doctor.filter((t) => t.status === 'critical'), [], 'a new site has nothing critical');
    assert.ok(!doctor.some((t) => t.test === 'dotorg_communication'), '--offline skips the network test');
    assert.equal((await run(['post', 'list', '--format', 'count', '--db', piped.location], dir)).stdout, (await run(['post', 'list', '--format', 'count', ...site], dir)).stdout, 'the piped import holds the site');

    // every command the pages show is run above or said here why not
    const shown = new Set(documented().flatMap(({ command }) => (command.split(/\s+/)[1] === '--version' ? ['--version'] : choicesOf(commandOf(command)))));
    const missing = [...shown].filter((c) => !printed.has(c) && !(c in NOT_RUN));
    assert.deepEqual(missing, [], 'documented commands this test neither runs nor says why not');
    assert.deepEqual(Object.keys(NOT_RUN).filter((c) => !shown.has(c)), [], 'reasons kept for commands the pages no longer show');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([db.drop(), copy.drop(), piped.drop()]);
  }
});

/** `plugin list|activate|deactivate` as the three commands it names. */
function choicesOf(levels: string[][]): string[] {
  return levels.reduce<string[]>((paths, choices) => (paths.length ? paths.flatMap((p) => choices.map((c) => `${p} ${c}`)) : choices), []);
}
