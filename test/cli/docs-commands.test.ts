import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cms, ROOT } from './run.ts';

// Every `cms-spec …` command the README and docs/ show is one the CLI has, with the options they
// give it: a renamed command or option fails here, not in a reader's terminal. Each command is run
// (its --help, which commander answers from the same definitions the command runs with).

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

test('every cms-spec command the README and docs/ show exists, with every option they give it', () => {
  const commands = [...new Set(PAGES.flatMap((page) => commandsOf(page).map((c) => `${c}\u0000${page}`)))];
  assert.ok(commands.length > 40, `the pages show the CLI (${commands.length} commands found)`);
  for (const entry of commands) {
    const [command, page] = entry.split('\u0000');
    if (NOT_COMMANDS.some((re) => re.test(command))) continue;
    const words = command.split(/\s+/).slice(1);
    // the command path: words commander lists as subcommands, each under the one before
    const path: string[] = [];
    for (const w of words) {
      if (w.startsWith('-') || w.startsWith('[')) break;
      const choices = w.split(/[|/]/);
      if (!choices.every((c) => subcommandsOf(help(path)).has(c))) break;
      path.push(choices[0]);
    }
    if (words[0] === '--version') {
      assert.match(cms(['--version']).stdout, /^\d+\.\d+\.\d+\n$/);
      continue;
    }
    assert.ok(path.length > 0, `${page}: \`${command}\` names no cms-spec command`);
    const text = help(path);
    for (const [, option] of command.matchAll(/(?:^|[\s[])(--[a-z][\w-]*)/g)) {
      assert.ok(text.includes(option), `${page}: \`${command}\` gives ${option}, which \`cms-spec ${path.join(' ')}\` does not take`);
    }
  }
});
