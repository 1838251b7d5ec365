import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ok, ROOT } from './run.ts';

// docs/routes.md's table of the core routes is what `cms-spec routes --format markdown` prints for the
// served spec: a route added, removed or moved in the YAML shows there, or this fails.

test('docs/routes.md lists every core route, as cms-spec routes --namespace cms/v2 --format markdown prints them', () => {
  const table = ok(['routes', '--namespace', 'cms/v2', '--format', 'markdown']).trim();
  const lines = table.split('\n');
  assert.equal(lines[0], '| route | methods | follows |');
  assert.ok(lines.includes('| `/cms/v2/comments/(?P<id>[\\d]+)` | GET, POST, PUT, PATCH, DELETE | WordPress 6.1 WP_REST_Comments_Controller |'));
  assert.ok(lines.includes('| `/cms/v2/posts/(?P<parent>[\\d]+)/revisions` | GET | WordPress 6.1 WP_REST_Revisions_Controller |'));
  assert.ok(lines.includes('| `/cms/v2/<rest_base>/{id}` | GET, POST, PUT, PATCH, DELETE | WordPress 6.1 WP_REST_Posts_Controller |'), 'a route template as written');
  assert.ok(readFileSync(join(ROOT, 'docs/routes.md'), 'utf8').includes(`\n${table}\n`), 'docs/routes.md has the table as printed: paste the command\'s output into "The core routes"');
});

test('every core route says which WordPress controller it follows', () => {
  const rows = ok(['routes', '--namespace', 'cms/v2', '--format', 'markdown']).trim().split('\n').slice(2);
  assert.ok(rows.length > 90, `${rows.length} routes`);
  for (const row of rows) assert.match(row, /\| WordPress 6\.1 WP_REST_\w+(::\w+)? \|$/, row);
});
