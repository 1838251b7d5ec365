import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { registerPluginProvidedCommands } from '../../../src/cli/plugins.ts';
import { SPEC, startTestServer } from '../../helpers/server.ts';
import { CLI, cmsBeside, ROOT } from '../../cli/run.ts';
import { adminAuth } from '../../helpers/auth.ts';
import { baseUrlOf, FAKE_APIS, FakeProvider, keyFor } from './fakes.ts';
import { setOutboundEnv } from './helpers.ts';

/** The stand-ins listen on 127.0.0.1; every command and server here may reach it, in this process and in its children. */
const restoreEnv = setOutboundEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
after(restoreEnv);

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the real `cms-spec …` in a child process, without blocking this one (the stand-in providers answer from it). */
async function spawned(args: string[], input = ''): Promise<Ran> {
  const r = await cmsBeside(args, { input });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Runs `cms-spec …` in this process: the same commander program the binary builds for a plugin's
 * commands and the same action wrappers (an `Error:` line and exit code 1), its output captured.
 * Spawning each command would take a second or two of start-up; the binary itself is run above.
 */
async function inProcess(args: string[]): Promise<Ran> {
  const program = new Command('cms-spec');
  await registerPluginProvidedCommands(program, SPEC);
  let out = '';
  let err = '';
  for (const c of [program, ...program.commands]) c.exitOverride().configureOutput({ writeOut: (t) => (out += t), writeErr: (t) => (err += t) });
  const { log, error } = console;
  console.log = (...a: unknown[]) => void (out += `${a.join(' ')}\n`);
  console.error = (...a: unknown[]) => void (err += `${a.join(' ')}\n`);
  let code = 0;
  try {
    await program.parseAsync(['node', 'cms-spec', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    code = e.exitCode;
  } finally {
    console.log = log;
    console.error = error;
    process.exitCode = undefined;
  }
  return { code, out, err };
}

/** Everything every command printed, to be searched for keys. */
const printed: string[] = [];

describe('cms-spec connector list|set|test, and the access log', () => {
  let dir: string;
  let db: string;
  let admin: string;
  const activecampaign = new FakeProvider(FAKE_APIS.activecampaign);
  const brevo = new FakeProvider(FAKE_APIS.brevo);
  const acKey = keyFor('activecampaign', 'valid');
  const brevoKey = keyFor('brevo', 'valid');
  const site = (...args: string[]) => [...args, '--db', db];
  const run = async (args: string[], o: { spawn?: boolean; input?: string } = {}) => {
    const r = o.spawn ? await spawned(site(...args), o.input) : await inProcess(site(...args));
    printed.push(r.out, r.err);
    return r;
  };
  /** A command that must fail the friendly way: exit 1 and one `Error:` line. */
  const fails = async (args: string[], message: RegExp) => {
    const r = await run(args);
    assert.equal(r.code, 1, `${args.join(' ')} should fail:\n${r.out}${r.err}`);
    const lines = r.err.trim().split('\n');
    assert.equal(lines.length, 1, r.err);
    assert.match(lines[0], message);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-spec-connectors-'));
    db = join(dir, 'site.sqlite');
    await activecampaign.start();
    await brevo.start();
    // a site installs on its first start; the commands work on an installed site
    const server = await startTestServer({ dbPath: db });
    admin = await adminAuth(server);
    await server.close();
  });
  after(async () => {
    await activecampaign.stop();
    await brevo.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('list shows every connector, what is stored and the base URL it uses', async () => {
    const r = await run(['connector', 'list']);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.match(lines[0], /^name\s+namespace\s+provider\s+key\s+base_url$/);
    assert.match(lines[1], /^mailchimp\s+kb-mail-a\/v1\s+Mailchimp\s+per request\s+https:\/\/\{dc\}\.api\.mailchimp\.com\/3\.0 \(default\)$/);
    assert.match(lines[5], /^activecampaign\s+kb-mail-e\/v1\s+ActiveCampaign\s+not set\s+not set$/);
    assert.equal(lines.length, 8);
  });

  test('set stores a key and a base URL without printing the key; test calls the provider and says what it got', async () => {
    const set = await run(['connector', 'set', 'activecampaign', '--key', acKey, '--base-url', baseUrlOf('activecampaign', activecampaign)]);
    assert.equal(set.code, 0, set.err);
    assert.equal(set.out.trim(), `Success: ActiveCampaign connector (kb-mail-e/v1): API key stored, base URL ${activecampaign.base}.`);

    const tested = await run(['connector', 'test', 'kb-mail-e']);
    assert.equal(tested.code, 0, tested.err);
    const lines = tested.out.trim().split('\n');
    assert.equal(lines[0], `Success: ActiveCampaign (kb-mail-e/v1) at ${activecampaign.base}/api/3 answered lists with 10 items (12 in all).`);
    assert.deepEqual(lines.slice(1, 3), ['- List 1 (1)', '- List 2 (2)']);
    assert.equal(lines.length, 11);
    assert.equal(activecampaign.last.headers['api-token'], acKey);
    assert.equal(activecampaign.last.path, '/api/3/lists');

    const tags = await run(['connector', 'test', 'activecampaign', '--endpoint', 'tags']);
    assert.match(tags.out, /answered tags with 5 items\.\n- tag 1 \(1\)/);

    const json = JSON.parse((await run(['connector', 'list', '--format', 'json'])).out) as { name: string; key: string; base_url: string }[];
    assert.deepEqual(json.find((c) => c.name === 'activecampaign'), { name: 'activecampaign', namespace: 'kb-mail-e/v1', provider: 'ActiveCampaign', key: 'stored', base_url: activecampaign.base });
  });

  test('the binary itself: --key - reads the key from standard input', async () => {
    const set = await run(['connector', 'set', 'brevo', '--key', '-', '--base-url', baseUrlOf('brevo', brevo)], { spawn: true, input: `${brevoKey}\n` });
    assert.equal(set.code, 0, set.err);
    assert.match(set.out, /^Success: Brevo connector \(kb-mail-d\/v1\): API key stored, base URL http:\/\/127\.0\.0\.1:\d+\/v3\.$/m);
    const tested = await run(['connector', 'test', 'brevo']);
    assert.equal(tested.code, 0, tested.err);
    assert.match(tested.out, /^Success: Brevo \(kb-mail-d\/v1\) at http:\/\/127\.0\.0\.1:\d+\/v3 answered contacts\/lists with 10 items \(30 in all\)\.$/m);
    assert.equal(brevo.last.headers['api-key'], brevoKey);
  });

  test('test --key tries a key without storing it', async () => {
    const tryKey = keyFor('brevo', 'valid');
    assert.equal((await run(['connector', 'test', 'brevo', '--key', tryKey])).code, 0);
    assert.equal(brevo.last.headers['api-key'], tryKey);
    await run(['connector', 'test', 'brevo']);
    assert.equal(brevo.last.headers['api-key'], brevoKey, 'the tried key was not stored');
  });

  test('failures are one Error line: a refused key, nothing configured, bad names and values', async () => {
    const wrong = keyFor('activecampaign', 'wrong');
    assert.equal((await run(['connector', 'set', 'activecampaign', '--key', wrong])).code, 0);
    await fails(['connector', 'test', 'activecampaign'], /^Error: ActiveCampaign refused the API key \(HTTP 401\): “Unauthorized”\. Check the key stored with `cms-spec connector set activecampaign`\.$/);
    await fails(['connector', 'test', 'getresponse'], /^Error: The GetResponse connector has no API key yet; an administrator sets it with `cms-spec connector set getresponse --key …`\.$/);
    await fails(['connector', 'test', 'activecampaign', '--endpoint', 'contacts'], /^Error: ActiveCampaign has no readable endpoint "contacts" here\. Use one of: lists, tags, fields, automations\.$/);
    await fails(['connector', 'set', 'nosuch', '--key', 'x'], /^Error: There is no mail connector "nosuch"\. The connectors are mailchimp, convertkit, fluentcrm, brevo, activecampaign, mailerlite, getresponse\.$/);
    await fails(['connector', 'set', 'brevo'], /^Error: Give --key, --base-url or both to store for brevo\.$/);
    await fails(['connector', 'set', 'brevo', '--base-url', 'ftp://example.com'], /^Error: A base URL must be http or https, not ftp:$/);
    await fails(['connector', 'set', 'mailchimp', '--key', 'valid-0123456789abcdef'], /^Error: A Mailchimp API key ends in its data centre, as in …-us21; this one does not\.$/);
    await fails(['connector', 'set', 'fluentcrm', '--key', 'no-colon-here'], /^Error: A FluentCRM key is the API user name and its application password joined by a colon/);
    await fails(['connector', 'test'], /^Error: Name the connector to test: one of mailchimp, convertkit/);
    const unknownAction = await run(['connector', 'remove', 'brevo']);
    assert.equal(unknownAction.code, 1);
    assert.match(unknownAction.err, /argument value 'remove' is invalid for argument 'action'\. Allowed choices are list, set, test\./);
  });

  test('--key "" removes a key and --base-url "" restores the provider’s own address', async () => {
    const r = await run(['connector', 'set', 'activecampaign', '--key', '', '--base-url', '']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.trim(), "Success: ActiveCampaign connector (kb-mail-e/v1): API key removed, base URL reset to the provider's own.");
    assert.match((await run(['connector', 'list'])).out, /^activecampaign\s+kb-mail-e\/v1\s+ActiveCampaign\s+not set\s+not set$/m);
  });

  test('serve’s access log redacts `apikey`, and no key is in any output', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--db', db, '--log-format', 'json'], { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    try {
      const api = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', () => {
          const m = /^cms-spec listening on (\S+)$/m.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
      });
      const asked = keyFor('brevo', 'valid');
      const ok = await fetch(`${api}kb-mail-d/v1/get?endpoint=contacts/lists&apikey=${asked}`, { headers: { authorization: admin } });
      assert.equal(ok.status, 200, await ok.text());
      assert.equal(brevo.last.headers['api-key'], asked);
      const refused = keyFor('brevo', 'wrong');
      const no = await fetch(`${api}kb-mail-d/v1/get?endpoint=contacts/lists&apikey=${refused}`, { headers: { authorization: admin } });
      assert.equal(no.status, 400);
      const body = await no.text();
      for (let i = 0; i < 200 && !out.includes('"status":400'); i++) await new Promise((r) => setTimeout(r, 10));
      const paths = out.split('\n').filter((l) => l.startsWith('{') && l.includes('"method"')).map((l) => (JSON.parse(l) as { path: string }).path);
      assert.deepEqual(paths, ['/cms-json/kb-mail-d/v1/get?endpoint=contacts/lists&apikey=[redacted]', '/cms-json/kb-mail-d/v1/get?endpoint=contacts/lists&apikey=[redacted]']);
      printed.push(out, err, body);
      for (const k of [asked, refused]) assert.ok(!printed.join('\n').includes(k), 'the key is in the log or the answer');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  test('no command printed a key', () => {
    const all = printed.join('\n');
    assert.ok(all.length > 500);
    for (const k of [acKey, brevoKey]) assert.ok(!all.includes(k));
  });
});
