import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// test/helpers/services.ts on a test file of its own that needs a Redis nobody serves (port 1):
// it skips, saying why, unless the run says the machine has Redis (CMS_SPEC_TEST_SERVICES, as
// .ci/run sets it), and then it fails.

const ROOT = resolve(import.meta.dirname, '../..');

describe('a test needing a service that does not answer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-services-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // .mts: an ES module (top-level await) outside the repository's package.json
  const file = join(dir, 'needs-redis.test.mts');
  writeFileSync(file, `import { test } from 'node:test';
import { missingService } from ${JSON.stringify(join(ROOT, 'test/helpers/services.ts'))};
const skip = await missingService('redis');
test('uses Redis', { skip }, () => {});
`);

  function run(services: string | undefined) {
    const env: Record<string, string | undefined> = { ...process.env, CMS_SPEC_TEST_REDIS: 'redis://127.0.0.1:1', CMS_SPEC_TEST_SERVICES: services };
    delete env.NODE_TEST_CONTEXT;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: ROOT, encoding: 'utf8', env });
    return { status: r.status, out: r.stdout + r.stderr };
  }

  test('skips where the run does not say the machine has it, and says why', () => {
    const r = run(undefined);
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /# SKIP Redis at 127\.0\.0\.1:1 does not answer \(and CMS_SPEC_TEST_SERVICES does not list redis\): skipped/);
    assert.match(r.out, /^# skipped 1$/m);
  });

  test('fails where the run says the machine has it', () => {
    const r = run('postgres,redis');
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /Redis at 127\.0\.0\.1:1 does not answer, but CMS_SPEC_TEST_SERVICES says this machine has redis/);
    assert.doesNotMatch(r.out, /# SKIP/);
  });
});
