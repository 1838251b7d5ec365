import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { useServer } from './helpers/server.ts';

const root = resolve(import.meta.dirname, '..');

// `npm run bench:wp` against a WordPress stand-in: another cms-spec, which answers /wp-json/ as
// WordPress does. One short round of each request; the table must hold a figure for each.
const wordpress = useServer();

test('bench:wp measures the index, list, single post, create and 404 on both servers and prints the table', { timeout: 300_000 }, async () => {
  const userPass = Buffer.from(wordpress.admin.replace(/^Basic /, ''), 'base64').toString();
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench-wp.ts'), '--wp', wordpress.home, '--wp-auth', userPass, '--quick', '--connections', '2'], { cwd: root, maxBuffer: 4 << 20 });
  const rows = stdout.split('\n').filter((l) => /^\| (index|posts list|single post|create post|404) \|/.test(l));
  assert.deepEqual(rows.map((r) => r.split('|')[1].trim()), ['index', 'posts list', 'single post', 'create post', '404']);
  for (const row of rows) {
    const [, , wpRate, cmsRate, ratio, wpBytes, cmsBytes] = row.split('|').map((c) => c.trim());
    assert.ok(Number(wpRate) > 0 && Number(cmsRate) > 0, `both answered under load: ${row}`);
    assert.match(ratio, /^\d+\.\d×$/);
    assert.ok(Number(wpBytes) > 0 && Number(cmsBytes) > 0, row);
    assert.doesNotMatch(row, /failures/, 'every answer was the expected one');
  }
});
