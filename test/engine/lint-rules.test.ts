import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { lintSpec } from '../../src/engine/lint.ts';

const root = resolve(import.meta.dirname, '../..');

/** A spec folder of the given files in a new temporary folder, with a site.yaml. */
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function specOf(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-lint-'));
  made.push(dir);
  // package.json: the handler modules are ES modules, as in the project
  const all = { 'package.json': '{ "type": "module" }\n', 'site.yaml': 'api_prefix: cms-json\nauth_path: /auth\nhandlers: handlers\nsite: {}\n', ...files };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** A file of a spec folder as lint names it: relative to the working folder. */
const shown = (dir: string, file: string) => relative(process.cwd(), join(dir, file));

/** The findings of the rules named, as [file, line, rule, message]. */
async function findings(dir: string, rules: string[], options?: Parameters<typeof lintSpec>[1]) {
  return (await lintSpec(dir, options)).filter((f) => rules.includes(f.rule)).map((f) => [f.file, f.line, f.rule, f.message]);
}

const names = { permissionNames: () => ({ capabilities: new Set(['read', 'edit_posts', 'edit_pages', 'manage_options']), roles: new Set(['administrator', 'editor']) }) };

const handlerEchoing = 'export const list = (ctx: { args: Record<string, unknown> }) => Object.entries(ctx.args);\n';

test('permission-known: a misspelt capability, a role and public in an alternation each fail where they are written, with the nearest name', async () => {
  const dir = specOf({
    // a capability the handler checks by name, in a module it imports
    'access.ts': "export const mayEdit = (ctx: { can(cap: string): boolean }) => ctx.can('edit_pages') && ctx.can('edit_pgaes');\n",
    'handlers/demo.ts': "import { mayEdit } from '../access.ts';\n\nexport const list = (ctx: { can(cap: string): boolean; args: object }) => (mayEdit(ctx) ? Object.entries(ctx.args) : []);\n",
    'namespaces/demo.yaml': `namespace: demo/v1
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
        permission: pubic
      - methods: [POST]
        handler: demo.list
        permission: edit_post|edit_pages
      - methods: [DELETE]
        handler: demo.list
        permission: administrator
      - methods: [PUT]
        handler: demo.list
        permission: public|read
      - methods: [PATCH]
        handler: demo.list
        permission: manage_options
`,
  });
  const yaml = shown(dir, 'namespaces/demo.yaml');
  assert.deepEqual(await findings(dir, ['permission-known'], names), [
    [shown(dir, 'access.ts'), 1, 'permission-known', "can('edit_pgaes') names no capability any role holds, so it is never true (did you mean 'edit_pages'?)"],
    [yaml, 7, 'permission-known', "permission 'pubic' names no capability any role holds, so it admits nobody (did you mean 'public'?)"],
    [yaml, 10, 'permission-known', "permission 'edit_post' names no capability any role holds, so it admits nobody (did you mean 'edit_posts'?)"],
    [yaml, 13, 'permission-known', "'administrator' is a role, not a capability: users are checked against their role's capabilities, never its name, so permission 'administrator' admits nobody"],
    [yaml, 16, 'permission-known', "'public' in 'public|read' is checked as a capability nobody holds: 'public' admits anyone only on its own"],
  ]);
  // the engine alone knows no capabilities: without the application's names nothing is checked
  assert.deepEqual(await findings(dir, ['permission-known']), []);
});

test('permission-known: an inherited permission is reported at the defaults line that wrote it, once', async () => {
  const dir = specOf({
    'handlers/demo.ts': handlerEchoing,
    'namespaces/demo.yaml': `namespace: demo/v1
defaults:
  permission: manage_option
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
      - methods: [POST]
        handler: demo.list
`,
  });
  assert.deepEqual(await findings(dir, ['permission-known'], names), [
    [shown(dir, 'namespaces/demo.yaml'), 3, 'permission-known', "permission 'manage_option' names no capability any role holds, so it admits nobody (did you mean 'manage_options'?)"],
  ]);
});

test('permission-declared: a write endpoint inheriting public from defaults fails at the endpoint; reads may inherit it, and a write may say it itself', async () => {
  const dir = specOf({
    'handlers/demo.ts': handlerEchoing,
    'namespaces/demo.yaml': `namespace: demo/v1
defaults:
  permission: public
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
      - methods: [POST]
        handler: demo.list
  /items/{id}:
    params: { id: '[\\d]+' }
    endpoints:
      - methods: [DELETE]
        handler: demo.list
        permission: public
`,
  });
  assert.deepEqual(await findings(dir, ['permission-declared'], names), [
    [shown(dir, 'namespaces/demo.yaml'), 9, 'permission-declared', "POST /demo/v1/items inherits 'public' from defaults: a write endpoint open to anyone says permission: public itself"],
  ]);
});

// Every way of reading an arg the rule knows: a property, a quoted key, destructuring, an alias, a
// helper in another module given the context, a helper given the args object, and `in`.
const readingHandlers = `import { pageOf } from '../paging.ts';

function orderOf(args: Record<string, unknown>) {
  return args['order'];
}

export async function list(ctx: { args: Record<string, any> }) {
  const { search } = ctx.args;
  const a = ctx.args;
  const rows = [a.status, orderOf(ctx.args), 'orderby' in a ? 1 : 0, pageOf(ctx)];
  return rows.filter((row) => row !== search).map((a) => a);
}

export async function get(ctx: { args: Record<string, any> }) {
  return [ctx.args.id, ctx.args.contxt];
}
`;
const pagingHelper = `export const pageOf = ({ args }: { args: Record<string, any> }) => Number(args.page ?? 1);
`;

test('arg-unread: an arg an endpoint declares and its handler never reads fails at the arg; unread: true and path variables pass', async () => {
  const dir = specOf({
    'paging.ts': pagingHelper,
    'handlers/demo.ts': readingHandlers,
    'namespaces/demo.yaml': `namespace: demo/v1
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
        permission: public
        args:
          search: { type: string }
          status: { type: string }
          order: { type: string }
          orderby: { type: string }
          page: { type: integer }
          per_page: { type: integer }
          context: { type: string, unread: true }
  /items/{id}:
    params: { id: '[\\d]+' }
    endpoints:
      - methods: [GET]
        handler: demo.get
        permission: public
        args:
          id: { type: integer }
          contxt: { type: string }
`,
  });
  assert.deepEqual(await findings(dir, ['arg-unread']), [
    [shown(dir, 'namespaces/demo.yaml'), 14, 'arg-unread', "arg 'per_page' of GET /demo/v1/items is declared, but handler 'demo.list' never reads it (mark it unread: true if the index must show it anyway)"],
  ]);
});

test('arg-unread: a handler that hands its args whole to code lint cannot follow is not said to leave any unread', async () => {
  const dir = specOf({
    'handlers/demo.ts': handlerEchoing,
    'namespaces/demo.yaml': `namespace: demo/v1
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
        permission: public
        args:
          per_page: { type: integer }
`,
  });
  assert.deepEqual(await findings(dir, ['arg-unread', 'arg-undeclared']), []);
});

test('arg-undeclared: a handler reading an arg none of its endpoints declares fails at the read, with the nearest declared name', async () => {
  const dir = specOf({
    'paging.ts': pagingHelper,
    'handlers/demo.ts': readingHandlers,
    'namespaces/demo.yaml': `namespace: demo/v1
routes:
  /items:
    endpoints:
      - methods: [GET]
        handler: demo.list
        permission: public
        args:
          search: { type: string }
          status: { type: string }
  /items/{id}:
    params: { id: '[\\d]+' }
    endpoints:
      - methods: [GET]
        handler: demo.get
        permission: public
        args:
          context: { type: string }
`,
  });
  const handlers = shown(dir, 'handlers/demo.ts');
  assert.deepEqual(await findings(dir, ['arg-undeclared']), [
    [handlers, 4, 'arg-undeclared', "handler 'demo.list' reads arg 'order', which GET /demo/v1/items does not declare"],
    [handlers, 10, 'arg-undeclared', "handler 'demo.list' reads arg 'orderby', which GET /demo/v1/items does not declare"],
    // `id` is the route's path variable: declared by the path
    [handlers, 15, 'arg-undeclared', "handler 'demo.get' reads arg 'contxt', which GET /demo/v1/items/(?P<id>[\\d]+) does not declare (did you mean 'context'?)"],
    [shown(dir, 'paging.ts'), 1, 'arg-undeclared', "handler 'demo.list' reads arg 'page', which GET /demo/v1/items does not declare"],
  ]);
});

test('route-unreachable: a route whose every path another one takes first fails; a static segment or a wider later pattern is still reached', async () => {
  const dir = specOf({
    'handlers/demo.ts': handlerEchoing,
    'namespaces/demo.yaml': `namespace: demo/v1
routes:
  /items/{id}:
    params: { id: '[\\w-]+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /items/count:
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /items/{slug}:
    params: { slug: '[a-z]+' }
    endpoints:
      - { methods: [DELETE], handler: demo.list, permission: public }
  /things/{id}:
    params: { id: '\\d+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /things/{name}:
    params: { name: '[\\w-]+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /users/{id}/posts:
    params: { id: '[\\w-]+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /users/{uid}:
    params: { uid: '[\\d]+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
  /users/{id}:
    params: { id: '[\\w-]+' }
    endpoints:
      - { methods: [GET], handler: demo.list, permission: public }
`,
  });
  const yaml = shown(dir, 'namespaces/demo.yaml');
  assert.deepEqual(await findings(dir, ['route-unreachable']), [
    // a route's line is that of its first key, as for every route rule
    [yaml, 11, 'route-unreachable', `route /demo/v1/items/(?P<slug>[a-z]+) is never reached: the router gives every path it matches to /demo/v1/items/(?P<id>[\\w-]+) (${yaml}:4), whatever the method`],
    // added after it, but its variable was added first (by /users/{id}/posts), so the router tries it first
    [yaml, 27, 'route-unreachable', `route /demo/v1/users/(?P<uid>[\\d]+) is never reached: the router gives every path it matches to /demo/v1/users/(?P<id>[\\w-]+) (${yaml}:31), whatever the method`],
  ]);
});

test('cms-spec lint prints file:line: rule: message for a misspelt permission and exits 1', () => {
  const dir = specOf({
    'handlers/demo.ts': handlerEchoing,
    'namespaces/demo.yaml': 'namespace: demo/v1\nroutes:\n  /items:\n    endpoints:\n      - methods: [GET]\n        handler: demo.list\n        permission: pubic\n',
  });
  const r = spawnSync(process.execPath, [join(root, 'bin/cms-spec.js'), 'lint', '--spec', dir], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(r.stdout.split('\n').filter(Boolean), [
    `${shown(dir, 'namespaces/demo.yaml')}:7: permission-known: permission 'pubic' names no capability any role holds, so it admits nobody (did you mean 'public'?)`,
    '1 error(s), 0 warning(s)',
  ]);
});
