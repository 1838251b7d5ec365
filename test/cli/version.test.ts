import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ok, ROOT } from './run.ts';

test('cms-spec --version and -V print the package version alone', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.match(version, /^\d+\.\d+\.\d+/);
  assert.equal(ok(['--version']), `${version}\n`);
  assert.equal(ok(['-V']), `${version}\n`);
  assert.match(ok(['--help']), /^ {2}-V, --version +output the version number$/m);
});
