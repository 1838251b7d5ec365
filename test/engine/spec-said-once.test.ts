import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { SpecError } from '../../src/engine/diagnostics.ts';
import { lintSpec } from '../../src/engine/lint.ts';
import { loadSpec } from '../../src/engine/spec.ts';

// What a spec file says once and uses many times (issue 39): a schema made of another
// (`$extends`), property sets (`$use` in a `properties:` map), route templates with their
// instances written in place (`each: [...]`), a file written once for several namespaces, and
// YAML's merge keys. Each expands to what writing it out would give, and a problem is reported at
// the line written.

const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function specOf(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-once-'));
  made.push(dir);
  const all = { 'package.json': '{ "type": "module" }\n', 'site.yaml': 'core: false\napi_prefix: cms-json\nhandlers: handlers\n', 'handlers/demo.ts': 'export const list = (ctx: { args: Record<string, unknown> }) => ctx.args;\n', ...files };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const shown = (dir: string, file: string) => relative(process.cwd(), join(dir, file));

/** The problems loading the spec meets, as `file:line: rule: message` lines. */
function problemsOf(dir: string): string[] {
  try {
    loadSpec(dir);
  } catch (e) {
    if (e instanceof SpecError) return e.problems.map((p) => `${p.file}:${p.line}: ${p.rule}: ${p.message}`);
    throw e;
  }
  return [];
}

const SCHEMAS = `namespace: demo/v1
routes: {}
property_sets:
  head:
    id: { description: Unique identifier., type: integer, readonly: true }
    date: { description: The date., type: string, format: date-time }
schemas:
  post:
    title: post
    type: object
    properties:
      $use: head
      title:
        type: object
        properties: { raw: { type: string }, rendered: { type: string } }
      sticky: { type: boolean }
  page:
    $extends: post
    title: page
    properties:
      title: { properties: { raw: null } }
      sticky: null
      parent: { type: integer }
  page-revision:
    $extends: page
    properties:
      $use: { set: head, date: { description: The date of the revision. } }
`;

describe('resource schemas said once', () => {
  test('$extends merges what is written over the other schema: in its key order, null removing, new keys last; $use gives a property set in place', () => {
    const { schemas } = loadSpec(specOf({ 'namespaces/demo.yaml': SCHEMAS })).namespaces[0];
    const head = { id: { description: 'Unique identifier.', type: 'integer', readonly: true }, date: { description: 'The date.', type: 'string', format: 'date-time' } };
    assert.deepEqual(schemas.post, { title: 'post', type: 'object', properties: { ...head, title: { type: 'object', properties: { raw: { type: 'string' }, rendered: { type: 'string' } } }, sticky: { type: 'boolean' } } });
    const page = { title: 'page', type: 'object', properties: { ...head, title: { type: 'object', properties: { rendered: { type: 'string' } } }, parent: { type: 'integer' } } };
    assert.deepEqual(schemas.page, page);
    // deepEqual ignores key order, which the index serves as written
    assert.deepEqual(Object.keys(schemas.page.properties as object), ['id', 'date', 'title', 'parent']);
    assert.deepEqual(Object.keys(schemas.page), ['title', 'type', 'properties']);
    // the set adjusted where it is used, merged over the page's own
    assert.deepEqual(schemas['page-revision'], { ...page, properties: { ...page.properties, date: { ...head.date, description: 'The date of the revision.' } } });
    assert.deepEqual(Object.keys(schemas), ['post', 'page', 'page-revision']);
  });

  test('an unknown schema to extend, a circle of them and an unknown property set are errors at the line written', () => {
    const dir = specOf({
      'namespaces/demo.yaml': `namespace: demo/v1
routes: {}
schemas:
  a:
    $extends: b
  b:
    $extends: a
  c:
    $extends: nowhere
  d:
    properties:
      $use: missing
`,
    });
    const file = shown(dir, 'namespaces/demo.yaml');
    assert.deepEqual(problemsOf(dir), [
      `${file}:5: spec-schema: schema 'a' extends itself: a → b → a`,
      `${file}:9: spec-schema: schema 'c' extends 'nowhere', which no file of the namespace declares under schemas:`,
      `${file}:12: spec-schema: unknown property set 'missing'`,
    ]);
  });
});

const TEMPLATES = `namespace: demo/v1
routes:
  /first:
    endpoints: [{ methods: [GET], handler: demo.list, permission: public }]
  /<base>:
    each: &kinds
      - { base: books, kind: book, cap: read }
      # a structured value replaces a string that is only its <name>
      - { base: films, kind: film, cap: edit_posts, extra: { $use: paging, rating: { type: integer, minimum: 1, maximum: 10 } } }
    config: { kind: <kind> }
    endpoints:
      - methods: [GET]
        handler: demo.list
        permission: <cap>
        args: <extra>
  /<base>/{id}:
    each: *kinds
    endpoints: [{ methods: [GET], handler: demo.list, permission: public }]
  /last:
    endpoints: [{ methods: [GET], handler: demo.list, permission: public }]
arg_sets:
  paging:
    page: { type: integer, default: 1 }
`;

describe('route templates with their instances written in place', () => {
  test("a run of templates with the same instances is served once per instance, each instance's routes together, placeholders filled", () => {
    const routes = loadSpec(specOf({ 'namespaces/demo.yaml': TEMPLATES.replace('      - { base: books, kind: book, cap: read }', '      - { base: books, kind: book, cap: read, extra: {} }') })).routes.filter((r) => r.namespace === 'demo/v1');
    assert.deepEqual(
      routes.map((r) => r.key),
      ['/demo/v1', '/demo/v1/first', '/demo/v1/books', '/demo/v1/books/(?P<id>[^/]+)', '/demo/v1/films', '/demo/v1/films/(?P<id>[^/]+)', '/demo/v1/last'],
    );
    const films = routes.find((r) => r.key === '/demo/v1/films')!;
    assert.deepEqual(films.config, { kind: 'film' });
    assert.equal(films.endpoints[0].permission, 'edit_posts');
    assert.deepEqual(films.endpoints[0].args, { page: { type: 'integer', default: 1 }, rating: { type: 'integer', minimum: 1, maximum: 10 } });
    assert.equal(routes.find((r) => r.key === '/demo/v1/books')!.endpoints[0].permission, 'read');
  });

  test("lint names the instance's line for what the instance wrote", async () => {
    const dir = specOf({ 'namespaces/demo.yaml': TEMPLATES.replace('      - { base: books, kind: book, cap: read }', '      - { base: books, kind: book, cap: raed, extra: {} }').replace('minimum: 1, maximum: 10', 'minimum: 10, maximum: 1') });
    const findings = (await lintSpec(dir, { permissionNames: () => ({ capabilities: new Set(['read', 'edit_posts']), roles: new Set() }) }))
      .filter((f) => ['permission-known', 'arg-min-max-order'].includes(f.rule))
      .map((f) => [f.line, f.rule])
      .sort((a, b) => Number(a[0]) - Number(b[0]));
    // the misspelt capability and the rating's bounds, each where the instance wrote it (the template
    // says `permission: <cap>` and `args: <extra>` on lines 14 and 15)
    assert.deepEqual(findings, [
      [7, 'permission-known'],
      [9, 'arg-min-max-order'],
    ]);
  });

  test("an instance that makes a route the spec's schema refuses is reported at the template's line", () => {
    const dir = specOf({ 'namespaces/demo.yaml': TEMPLATES.replace('      - { base: books, kind: book, cap: read }', '      - { base: books, kind: book, cap: read, extra: [not, a, map] }') });
    assert.deepEqual(problemsOf(dir), [`${shown(dir, 'namespaces/demo.yaml')}:15: spec-schema: routes./<base>.endpoints.0.args must be object`]);
  });
});

describe('a file written once for several namespaces', () => {
  test('each: at the top gives one namespace an instance, every <name> filled', () => {
    const dir = specOf({
      'namespaces/mail.yaml': `namespace: mail-<letter>/v1
each:
  - { letter: a, provider: one, cap: read }
  - { letter: b, provider: two, cap: edit_posts }
errors:
  mail_down: { status: 502, message: '{provider} is down.' }
routes:
  /get:
    config: { provider: <provider> }
    endpoints: [{ methods: [GET], handler: demo.list, permission: <cap> }]
`,
    });
    const spec = loadSpec(dir);
    assert.deepEqual(
      spec.namespaces.map((ns) => [ns.name, Object.keys(ns.errors)]),
      [
        ['mail-a/v1', ['mail_down']],
        ['mail-b/v1', ['mail_down']],
      ],
    );
    const get = (ns: string) => spec.routes.find((r) => r.key === `/${ns}/get`)!;
    assert.deepEqual([get('mail-a/v1').config, get('mail-a/v1').endpoints[0].permission], [{ provider: 'one' }, 'read']);
    assert.deepEqual([get('mail-b/v1').config, get('mail-b/v1').endpoints[0].permission], [{ provider: 'two' }, 'edit_posts']);
    // both declared where the template writes them
    assert.equal(spec.namespaces[0].errors.mail_down.pos.line, 6);
    assert.equal(spec.namespaces[1].errors.mail_down.pos.line, 6);
  });
});

const MERGED = `namespace: demo/v1
routes:
  /first:
    endpoints:
      - <<: &listing
          methods: [GET]
          handler: demo.list
          permission: public
        args: { page: { type: integer } }
  /second:
    endpoints:
      - <<: *listing
        permission: read
`;

describe('merge keys', () => {
  test('<<: *name gives a map the keys it does not write; a key written beside it replaces the merged value', () => {
    const routes = loadSpec(specOf({ 'namespaces/demo.yaml': MERGED })).routes.filter((r) => r.namespace === 'demo/v1');
    const [first, second] = ['/demo/v1/first', '/demo/v1/second'].map((key) => routes.find((r) => r.key === key)!.endpoints[0]);
    assert.deepEqual([first.handler, first.permission, first.methods], ['demo.list', 'public', ['GET']]);
    assert.deepEqual(first.args, { page: { type: 'integer' } });
    assert.deepEqual([second.handler, second.permission, second.methods], ['demo.list', 'read', ['GET']]);
  });

  test('a problem in a merged key is reported at the line that wrote it, for every map it is merged into', () => {
    const dir = specOf({ 'namespaces/demo.yaml': MERGED.replace('          handler: demo.list', '          handler: [demo.list]') });
    const file = shown(dir, 'namespaces/demo.yaml');
    assert.deepEqual(problemsOf(dir), [`${file}:7: spec-schema: routes./first.endpoints.0.handler must be string`, `${file}:7: spec-schema: routes./second.endpoints.0.handler must be string`]);
  });
});
