import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './run.ts';

/** The README's walk-through: from its heading to the next section's. */
function walkthrough(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Add a route: a five-minute walk-through\n');
  assert.ok(start >= 0, 'the README has the walk-through');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end);
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}

describe('README: Add a route', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cms-spec-walkthrough-')));
  const servers: ChildProcess[] = [];
  after(async () => {
    for (const s of servers) {
      if (s.exitCode !== null) continue;
      const exited = once(s, 'exit');
      process.kill(-s.pid!, 'SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('every step, followed as written, works', async () => {
    // `cms-spec` on the PATH, as `npm link` puts it; npm offline (a folder dependency needs no registry)
    mkdirSync(join(dir, 'bin'));
    symlinkSync(CLI, join(dir, 'bin/cms-spec'));
    const port = await freePort();
    const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
    const env = { ...inherited, PATH: `${join(dir, 'bin')}:${process.env.PATH}`, CMS_SPEC_PORT: String(port), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_install_links: 'false' };
    let cwd = join(dir, 'work');
    mkdirSync(cwd);
    let last = '';
    const steps: string[] = [];
    for (const [, lang, body] of walkthrough().matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
      if (lang === 'sh') {
        for (const line of body.split('\n').filter(Boolean)) {
          steps.push(line);
          const cd = /^cd (\S+)$/.exec(line);
          if (cd) {
            cwd = join(cwd, cd[1]);
          } else if (/^npx cms-spec serve\b/.test(line)) {
            // a server runs until the end: in the background, once it says where it listens
            const server = spawn('bash', ['-c', line], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
            servers.push(server);
            let out = '';
            await new Promise<void>((resolve, reject) => {
              server.stdout!.on('data', (c: Buffer) => {
                out += c;
                if (/^cms-spec listening on /m.test(out)) resolve();
              });
              server.on('exit', (code) => reject(new Error(`${line} exited with ${code}:\n${out}`)));
            });
            assert.match(out, new RegExp(`^cms-spec listening on http://127\\.0\\.0\\.1:${port}/api/$`, 'm'));
          } else {
            // the README's address is the default port's; this run's server is on a free one
            const ran = spawnSync('bash', ['-c', line.replace('127.0.0.1:8080', `127.0.0.1:${port}`)], { cwd, env, encoding: 'utf8' });
            assert.equal(ran.status, 0, `${line}:\n${ran.stdout}\n${ran.stderr}`);
            last = ran.stdout;
          }
        }
      } else if (lang === 'text') {
        assert.equal(last.trim(), body.trim(), `the output the README shows after: ${steps.at(-1)}`);
      } else {
        const [first, ...rest] = body.split('\n');
        const file = /^(?:#|\/\/) (\S+): add$/.exec(first);
        assert.ok(file, `a ${lang} block of the walk-through names its file: ${first}`);
        appendFileSync(join(cwd, file[1]), rest.join('\n'));
        steps.push(`add to ${file[1]}`);
      }
    }
    assert.deepEqual(steps, [
      'cms-spec init my-api',
      'cd my-api',
      'npm install',
      'add to spec/namespaces/greetings.yaml',
      'add to handlers/greetings.ts',
      'npx cms-spec lint',
      'npx cms-spec serve --watch',
      "curl 'http://127.0.0.1:8080/api/my-api/v1/goodbye?name=Ada'",
      'add to test/greetings.test.js',
      'npm test',
    ]);
  });
});
