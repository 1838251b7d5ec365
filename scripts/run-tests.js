// Runs every test file under test/ with node:test (Node 20 does not expand ** globs itself).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') return [];
    return statSync(p).isDirectory() ? find(p) : name.endsWith('.test.ts') ? [p] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length ? only : find('test').sort();
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
