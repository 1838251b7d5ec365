import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';

// The served indexes of both variants, at both addresses, as they were before the spec format
// learnt defaults, parameterised arg sets and schema-derived args (issue 28): a change to how the
// YAML is written must not change a byte a client receives. `CMS_SPEC_UPDATE_SNAPSHOTS=1` rewrites
// them, for a change that means to alter the index.
const DIR = resolve(import.meta.dirname, '../fixtures/served-index');
const UPDATE = process.env.CMS_SPEC_UPDATE_SNAPSHOTS === '1';

const PAGES = [
  { name: 'index', path: '/cms-json/' },
  { name: 'index-help', path: '/cms-json/?context=help' },
  { name: 'wp-json-index', path: '/wp-json/' },
];

for (const variant of ['A', 'B'] as const) {
  describe(`served index snapshot, variant ${variant}`, () => {
    const server = useServer({ variant });
    for (const page of PAGES) {
      test(`${page.path} is byte-identical to its snapshot`, async () => {
        const res = await fetch(server.home + page.path);
        assert.equal(res.status, 200);
        // the address is the test server's ephemeral port: the one part that is not the spec's
        const body = (await res.text()).replaceAll(JSON.stringify(server.home).slice(1, -1), 'http:\\/\\/SITE');
        const file = join(DIR, `${variant}-${page.name}.json`);
        if (UPDATE) writeFileSync(file, body);
        assert.ok(body === readFileSync(file, 'utf8'), `${page.path} (variant ${variant}) differs from ${file}; diff it against the served answer`);
      });
    }
  });
}
