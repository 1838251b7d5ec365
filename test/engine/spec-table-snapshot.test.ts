import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { expandTemplates, loadSpec, routesForVariant, type Variant } from '../../src/engine/spec.ts';

// What the spec says beyond the served index, as it was before the namespace files learnt to say
// things once (issue 39: `$extends` and property sets for schemas, route templates with instances
// of their own): each variant's routes with every endpoint's permission, refusal, handler, args,
// batch, upload and response schema, and each namespace's resource schemas (arg_options included),
// error catalogue and ability categories. The served-index snapshot proves what a client reads;
// this proves what the server does with a request (a permission is not in the index). Where things
// were written (lines, which file's defaults) is left out: that is what a rewrite changes.
// `CMS_SPEC_UPDATE_SNAPSHOTS=1` rewrites the digests, for a change that means to alter them.
const ROOT = resolve(import.meta.dirname, '../..');
const DIGESTS = resolve(import.meta.dirname, '../fixtures/spec-table/digests.json');
const UPDATE = process.env.CMS_SPEC_UPDATE_SNAPSHOTS === '1';
/** An instance of the host's route templates (`each: post_type`), as a plugin's post type gives one. */
const BOOK = { slug: 'book', rest_base: 'books' };

/** A value without the keys that say where it was written. */
function withoutPositions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPositions);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (['pos', 'argPos', 'paramPos', 'permissionPos', 'permissionInherited', 'batchPos', 'responsePos'].includes(k)) continue;
    out[k] = k === 'handlersDir' ? relative(ROOT, String(v)) : withoutPositions(v);
  }
  return out;
}

function tableOf(variant: Variant): string {
  const spec = loadSpec(join(ROOT, 'spec'));
  const routes = expandTemplates(routesForVariant(spec, variant), (each) => (each === 'post_type' ? [BOOK] : []));
  const namespaces = spec.namespaces.map((ns) => ({ name: ns.name, variants: ns.variants, handlersDir: ns.handlersDir, schemas: ns.schemas, errors: ns.errors, abilityCategories: ns.abilityCategories }));
  return JSON.stringify(withoutPositions({ routes, namespaces, errors: spec.errors, abilityCategories: spec.abilityCategories }), null, 1);
}

describe('spec route table snapshot', () => {
  const digests = JSON.parse(readFileSync(DIGESTS, 'utf8')) as Record<string, string>;
  for (const variant of ['A', 'B'] as const) {
    test(`variant ${variant}: routes, permissions, args and resource schemas as before`, () => {
      const table = tableOf(variant);
      const digest = createHash('sha256').update(table).digest('hex');
      if (UPDATE) {
        digests[variant] = digest;
        writeFileSync(DIGESTS, `${JSON.stringify(digests, null, 2)}\n`);
      }
      // the table itself, to diff against one written from the commit the digest was taken at
      const written = join(tmpdir(), `cms-spec-route-table-${variant}.json`);
      if (digest !== digests[variant]) writeFileSync(written, table);
      assert.equal(digest, digests[variant], `the route table of variant ${variant} changed; it is in ${written}`);
    });
  }
});
