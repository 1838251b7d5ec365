import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { expandTemplates, loadSpec, routesForVariant, type ArgDescriptor, type RouteSpec, type Variant } from '../../src/engine/spec.ts';
import { discoverPlugins, pluginDirs } from '../../src/core/plugins.ts';
import { Roles } from '../../src/auth/roles.ts';
import { startTestServer, useServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth, type TestUser } from '../helpers/auth.ts';

const spec = loadSpec(resolve(import.meta.dirname, '../../spec'));
const subscriberCaps = new Roles().capabilitiesOf('subscriber');
/** The post types the plugins register: the instances of cms-v2.yaml's per-type route templates, as the server serves them. */
const pluginTypes = (await discoverPlugins(pluginDirs(spec))).flatMap((p) => p.def?.postTypes ?? []).map((t) => ({ slug: t.slug, rest_base: t.restBase }));

/** Candidate values for a path variable; the first that its pattern accepts whole is used. */
const SEGMENT_CANDIDATES = ['1', 'me', 'post', 'category', 'abc', 'a-b', '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a', 'x.json', 'core/paragraph'];

function pathFor(route: RouteSpec): string | null {
  let unmatched = false;
  const path = route.fullPath.replace(/\{(\w+)\}/g, (_, name: string) => {
    const pattern = new RegExp(`^(?:${route.params[name] ?? '[^/]+'})$`);
    const value = SEGMENT_CANDIDATES.find((c) => pattern.test(c));
    if (value === undefined) unmatched = true;
    return value ?? '';
  });
  return unmatched ? null : path;
}

const FORMAT_SAMPLES: Record<string, string> = {
  uri: 'https://example.com/',
  email: 'someone@example.com',
  uuid: '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a',
  'date-time': '2024-01-02T03:04:05',
  ip: '127.0.0.1',
  'hex-color': '#336699',
};

/** A value the arg's descriptor accepts, for the args an endpoint requires. */
function sample(d: ArgDescriptor): unknown {
  const a = d as Record<string, any>;
  if (a.default !== undefined) return a.default;
  if (Array.isArray(a.enum) && a.enum.length) return a.enum[0];
  const type = Array.isArray(a.type) ? a.type[0] : a.type;
  switch (type) {
    case 'integer':
    case 'int':
    case 'number':
      return Math.min(Math.max(a.minimum ?? 1, 1), a.maximum ?? Infinity);
    case 'boolean':
    case 'bool':
      return true;
    case 'array':
      return Array.from({ length: Math.max(a.minItems ?? 1, 1) }, () => sample(a.items ?? { type: 'string' }));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, p] of Object.entries((a.properties ?? {}) as Record<string, ArgDescriptor>)) if ((p as Record<string, unknown>).required === true) out[k] = sample(p);
      return out;
    }
    default:
      return FORMAT_SAMPLES[a.format] ?? 'x'.repeat(Math.max(a.minLength ?? 1, 1));
  }
}

function requiredArgs(args: Record<string, ArgDescriptor>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(args)) if ((d as Record<string, unknown>).required === true) out[name] = sample(d);
  return out;
}

/** Query-string form of args for GET: scalars, `k[]=v` for lists, `k[p]=v` for objects. */
function toQuery(args: Record<string, unknown>): string {
  const q = new URLSearchParams();
  const add = (key: string, v: unknown) => {
    if (Array.isArray(v)) v.forEach((x) => add(`${key}[]`, x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) add(`${key}[${k}]`, x);
    else q.append(key, String(v));
  };
  for (const [k, v] of Object.entries(args)) add(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

interface Case {
  label: string;
  method: string;
  path: string;
  args: Record<string, unknown>;
  permission: string;
  /** The refusal's code: the endpoint's declared one, or the engine's default. */
  forbiddenCode: string;
}

function casesOf(variant: Variant): { cases: Case[]; skipped: string[] } {
  const cases: Case[] = [];
  const skipped: string[] = [];
  for (const route of expandTemplates(routesForVariant(spec, variant), (each) => (each === 'post_type' ? pluginTypes : []))) {
    for (const e of route.endpoints) {
      const permission = e.permission ?? 'public';
      if (permission === 'public') continue;
      const path = pathFor(route);
      for (const method of e.methods) {
        const label = `${method} ${route.key} (${permission})`;
        if (path === null) skipped.push(`${label}: no sample value matches its path pattern`);
        else cases.push({ label, method, path, args: requiredArgs(e.args), permission, forbiddenCode: e.forbidden?.code ?? 'rest_forbidden' });
      }
    }
  }
  return { cases, skipped };
}

function call(server: TestServer, c: Case, auth?: string) {
  const body = c.method === 'GET' || c.method === 'HEAD' ? undefined : c.args;
  const query = body === undefined ? toQuery(c.args) : '';
  return server.call(c.path.replace(/^\//, '') + query, { method: c.method, json: body ?? undefined, auth });
}

for (const variant of ['A', 'B'] as const) {
  describe(`variant ${variant}: every non-public endpoint of the spec`, () => {
    let server: TestServer;
    let subscriber: TestUser;
    const { cases, skipped } = casesOf(variant);
    before(async () => {
      server = await startTestServer({ variant });
      subscriber = await userAuth(server, 'subscriber');
    });
    after(() => server.close());

    test('the spec has endpoints to check', () => {
      assert.ok(cases.length > 0);
      // an endpoint the table cannot reach is an endpoint whose refusal nobody checks
      assert.deepEqual(skipped, []);
    });

    for (const c of cases) {
      test(c.label, async () => {
        const anon = await call(server, c);
        const anonBody = (await anon.json()) as { code: string; data: { status: number } };
        // validation runs before the permission check (WordPress's order): generated args that fail it would hide the refusal
        assert.notEqual(anon.status, 400, `the sample args must validate: ${JSON.stringify(anonBody)}`);
        assert.equal(anon.status, 401, `anonymous: ${JSON.stringify(anonBody)}`);
        assert.equal(anonBody.code, c.forbiddenCode);
        assert.equal(anonBody.data.status, 401);

        const subscriberMay = c.permission.split('|').some((cap) => subscriberCaps.has(cap));
        const sub = await call(server, c, subscriber.auth);
        const subBody = (await sub.json()) as { code: string };
        // holding the capability, a subscriber passes the engine; a handler may still refuse them for the object named
        // (edit_user on someone else's account), and then only with the endpoint's own refusal
        if (subscriberMay) assert.ok((sub.status !== 401 && sub.status !== 403) || (sub.status === 403 && c.forbiddenCode !== 'rest_forbidden' && subBody.code === c.forbiddenCode), `subscriber has ${c.permission}: ${JSON.stringify(subBody)}`);
        else {
          assert.equal(sub.status, 403, `subscriber: ${JSON.stringify(subBody)}`);
          assert.equal(subBody.code, c.forbiddenCode);
        }
      });
    }
  });
}

describe('batch requests are checked one by one', () => {
  const server = useServer();
  let contributor: TestUser;
  let admin: string;
  before(async () => {
    contributor = await userAuth(server, 'contributor');
    admin = await adminAuth(server);
  });

  const batch = async (auth?: string) => {
    const r = await server.call('batch/v1', {
      method: 'POST',
      auth,
      json: {
        requests: [
          { method: 'POST', path: '/cms/v2/posts', body: { title: 'From a batch', status: 'draft' } },
          { method: 'POST', path: '/cms/v2/categories', body: { name: `Batch category ${Math.random()}` } },
        ],
      },
    });
    assert.equal(r.status, 207);
    return ((await r.json()) as { responses: { status: number; body: { code?: string } }[] }).responses;
  };

  test('anonymous: every sub-request 401', async () => {
    const [post, category] = await batch();
    assert.equal(post.status, 401);
    assert.equal(category.status, 401);
  });

  test('a contributor may create the draft post (201) but not the category (403), and only the post is stored', async () => {
    const [post, category] = await batch(contributor.auth);
    assert.equal(post.status, 201, JSON.stringify(post.body));
    assert.equal(category.status, 403);
    assert.equal(category.body.code, 'rest_cannot_create');
    const stored = await server.call(`cms/v2/posts/${(post.body as { id: number }).id}?context=edit`, { auth: admin });
    assert.equal(stored.status, 200);
  });

  test('an administrator gets both', async () => {
    const [post, category] = await batch(admin);
    assert.equal(post.status, 201);
    assert.equal(category.status, 201);
  });
});

// not in the spec, so not in the table above: the protocols the active plugins serve beside REST, as served (the MCP endpoint)
describe('every protocol mounted beside the REST routes, at every API root', () => {
  const server = useServer();
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'table', version: '1' } } });
  const post = (path: string, authorization?: string) =>
    fetch(`${server.home}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(authorization ? { authorization } : {}) }, body: initialize });

  test('anonymous 401 (saying where to get a token), a wrong password 401, a subscriber let in', async () => {
    const subscriber = await userAuth(server, 'subscriber');
    const paths = server.app.plugins.mounts.flatMap((m) => server.app.engine.roots.map((root) => `${root.prefix}${m.path}`));
    assert.deepEqual(paths, ['cms-json/mcp', 'wp-json/mcp']);
    for (const path of paths) {
      const anonymous = await post(path);
      assert.equal(anonymous.status, 401, path);
      assert.equal(anonymous.headers.get('www-authenticate'), `Bearer resource_metadata="${server.home}/.well-known/oauth-protected-resource/${path}"`);
      assert.equal(((await anonymous.json()) as { code: string }).code, 'rest_forbidden');
      const wrong = await post(path, `Basic ${Buffer.from(`${subscriber.login}:nottherightpassword`).toString('base64')}`);
      assert.equal(wrong.status, 401, path);
      assert.equal(((await wrong.json()) as { code: string }).code, 'incorrect_password');
      const forged = await post(path, 'Bearer eyJ1IjoxLCJwIjoieCJ9.forged');
      assert.deepEqual([forged.status, ((await forged.json()) as { code: string }).code], [401, 'invalid_token'], path);
      const allowed = await post(path, subscriber.auth);
      assert.equal(allowed.status, 200, path);
      await allowed.body?.cancel();
    }
  });
});

