import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { expandTemplates, loadSpec, routesForVariant, type ArgDescriptor, type RouteSpec, type Variant } from '../../src/engine/spec.ts';
import { discoverPlugins, pluginDirs } from '../../src/core/plugins.ts';
import { startTestServer, useServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth, type TestUser } from '../helpers/auth.ts';
import { setEnv } from '../helpers/env.ts';

/**
 * Who may call what, as WordPress 6.1 decides it, written here rather than read from the server:
 * the roles and their capabilities (populate_roles), the meta capabilities the routes name
 * (map_meta_cap), and the capability each route requires (the WordPress controllers' and the
 * plugins' permission callbacks). Every non-public endpoint of the spec is called as an anonymous
 * caller and as a subscriber, a contributor, an author and an editor: one the stated capability
 * refuses gets 401 (anonymous) or 403 with the endpoint's refusal; one it lets through gets
 * anything but a refusal of its capability, and never a 5xx but the two WordPress itself answers
 * (ANSWERED_5XX). The remote services the routes call are a local server here (no request leaves
 * the machine), so an upstream failure cannot stand in for an answer.
 */

const spec = loadSpec(resolve(import.meta.dirname, '../../spec'));
/** The post types the plugins register: the instances of cms-v2.yaml's per-type route templates, as the server serves them. */
const pluginTypes = (await discoverPlugins(pluginDirs(spec))).flatMap((p) => p.def?.postTypes ?? []).map((t) => ({ slug: t.slug, rest_base: t.restBase }));

type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

const levels = (top: number) => Array.from({ length: top + 1 }, (_, i) => `level_${i}`);
const EDITOR_POSTS_AND_PAGES = [
  'edit_others_pages', 'edit_published_pages', 'publish_pages', 'delete_pages', 'delete_others_pages', 'delete_published_pages',
  'delete_posts', 'delete_others_posts', 'delete_published_posts', 'delete_private_posts', 'edit_private_posts', 'read_private_posts',
  'delete_private_pages', 'edit_private_pages', 'read_private_pages',
];

/**
 * WordPress 6.1's roles on a single site, each with its primitive capabilities: populate_roles()
 * in wp-admin/includes/schema.php (populate_roles_160 to populate_roles_300).
 */
const WP_ROLES: Readonly<Record<Role, readonly string[]>> = {
  administrator: [
    'switch_themes', 'edit_themes', 'activate_plugins', 'edit_plugins', 'edit_users', 'edit_files', 'manage_options', 'moderate_comments',
    'manage_categories', 'manage_links', 'upload_files', 'import', 'unfiltered_html', 'edit_posts', 'edit_others_posts', 'edit_published_posts',
    'publish_posts', 'edit_pages', 'read', ...levels(10), ...EDITOR_POSTS_AND_PAGES, 'delete_users', 'create_users', 'unfiltered_upload',
    'edit_dashboard', 'update_plugins', 'delete_plugins', 'install_plugins', 'update_themes', 'install_themes', 'update_core', 'list_users',
    'remove_users', 'promote_users', 'edit_theme_options', 'delete_themes', 'export',
  ],
  editor: [
    'moderate_comments', 'manage_categories', 'manage_links', 'upload_files', 'unfiltered_html', 'edit_posts', 'edit_others_posts',
    'edit_published_posts', 'publish_posts', 'edit_pages', 'read', ...levels(7), ...EDITOR_POSTS_AND_PAGES,
  ],
  author: ['upload_files', 'edit_posts', 'edit_published_posts', 'publish_posts', 'read', ...levels(2), 'delete_posts', 'delete_published_posts'],
  contributor: ['edit_posts', 'read', ...levels(1), 'delete_posts'],
  subscriber: ['read', 'level_0'],
};

/**
 * Capabilities the plugins this server stands in for add to roles when activated: Yoast SEO's
 * wpseo_manage_options (WPSEO_Capability_Manager, administrators), the analytics plugin's
 * view_site_analytics (administrators and editors).
 */
const PLUGIN_CAPS: Readonly<Partial<Record<Role, readonly string[]>>> = {
  administrator: ['wpseo_manage_options', 'view_site_analytics'],
  editor: ['view_site_analytics'],
};

/** map_meta_cap for the meta capabilities the routes name: the primitive capabilities they need. */
const META_CAPS: Readonly<Record<string, readonly string[]>> = {
  view_site_health_checks: ['install_plugins'],
};

/** current_user_can($cap) for a user of `role`. */
function roleCan(role: Role, cap: string): boolean {
  const held = new Set([...WP_ROLES[role], ...(PLUGIN_CAPS[role] ?? [])]);
  return (META_CAPS[cap] ?? [cap]).every((c) => held.has(c));
}

/**
 * A check WordPress makes after the route's capability, on the object the sample args name:
 * map_meta_cap's primitive capabilities for it (all needed), and the refusal's code.
 */
interface SampleCheck {
  caps: readonly string[];
  code: string;
}

/** edit_post on the sample post 1, "Hello world", published by the administrator: map_meta_cap asks for both. */
const EDIT_ADMINS_PUBLISHED_POST: SampleCheck = { caps: ['edit_others_posts', 'edit_published_posts'], code: 'rest_forbidden' };

/**
 * The capability each route requires of the caller, as WordPress's controllers and the plugins'
 * permission callbacks check it before looking at any object (`a|b`: either will do). The first
 * row whose pattern matches the route (and method, when a row names some) decides; a route no
 * row matches fails the table, so a new route states its permission here.
 */
const REQUIRED: readonly [methods: string | null, route: RegExp, cap: string, onSample?: SampleCheck][] = [
  // cms/v2: WordPress 6.1's controllers
  [null, /^\/cms\/v2\/(menus|menu-items|menu-locations|navigation|sidebars|widgets|widget-types|templates|template-parts|global-styles)\b/, 'edit_theme_options'],
  // delete_term on the sample category 1, the default category: map_meta_cap says do_not_allow
  ['DELETE', /^\/cms\/v2\/categories\//, 'manage_categories', { caps: ['do_not_allow'], code: 'rest_cannot_delete' }],
  [null, /^\/cms\/v2\/(categories|tags)\b/, 'manage_categories'],
  [null, /^\/cms\/v2\/media\b/, 'upload_files'],
  ['POST', /^\/cms\/v2\/plugins$/, 'install_plugins'],
  // DELETE: activate_plugins, then delete_plugins, which WordPress's roles grant together (administrator)
  [null, /^\/cms\/v2\/plugins\b/, 'activate_plugins'],
  [null, /^\/cms\/v2\/block-directory\//, 'install_plugins'],
  [null, /^\/cms\/v2\/settings$/, 'manage_options'],
  [null, /^\/cms\/v2\/(block-types|block-patterns|pattern-directory)\b/, 'edit_posts'],
  [null, /^\/cms\/v2\/block-renderer\//, 'edit_posts'],
  [null, /^\/cms\/v2\/comments\//, 'edit_posts|edit_pages'],
  ['POST', /^\/cms\/v2\/users$/, 'create_users'],
  ['DELETE', /^\/cms\/v2\/users\//, 'delete_users'],
  [null, /^\/cms\/v2\/users\//, 'read'],
  ['DELETE', /^\/cms\/v2\/pages\b/, 'delete_pages'],
  [null, /^\/cms\/v2\/pages\b/, 'edit_pages'],
  // wp_block's create_posts is publish_posts (create_initial_post_types)
  ['POST', /^\/cms\/v2\/blocks$/, 'publish_posts'],
  // posts, blocks and the plugins' post types (capability_type post)
  ['DELETE', /^\/cms\/v2\/[\w-]+(\/|$)/, 'delete_posts'],
  [null, /^\/cms\/v2\/[\w-]+(\/|$)/, 'edit_posts'],
  // the block editor's own routes (wp-block-editor/v1) and oEmbed's proxy
  [null, /^\/cms-block-editor\/v1\/export$/, 'export'],
  [null, /^\/cms-block-editor\/v1\/navigation-fallback$/, 'edit_theme_options'],
  [null, /^\/cms-block-editor\/v1\/url-details$/, 'edit_posts'],
  [null, /^\/oembed\/1\.0\/proxy$/, 'edit_posts'],
  [null, /^\/cms-site-health\/v1\//, 'view_site_health_checks'],
  // this server's Tools → Import and Export (WordPress's import.php and export.php check these)
  [null, /^\/cms-import\/v1\/export$/, 'export'],
  [null, /^\/cms-import\/v1\//, 'import'],
  [null, /^\/cms-abilities\/v1\//, 'read'],
  // Yoast SEO
  [null, /^\/seo\/v1\/(available_posts|configuration\/|get_tasks|readability_scores|seo_scores|time_based_seo_metrics|action_tracking|analytics_connector_|complete_task|integrations\/set_active|setup_steps_tracking)/, 'wpseo_manage_options'],
  [null, /^\/seo\/v1\/file_size$/, 'manage_options'],
  [null, /^\/seo\/v1\/keyword-tool\//, 'edit_posts|edit_pages'],
  [null, /^\/seo\/v1\/rank-tracker\//, 'publish_posts|publish_pages'],
  [null, /^\/seo\/v1\/statistics$/, 'read'],
  [null, /^\/seo\/v1\/workouts$/, 'edit_others_posts'],
  [null, /^\/seo\/v1\/import\//, 'activate_plugins'],
  // Meta_Search_Route: edit_posts, then edit_post on the post it searches
  [null, /^\/seo\/v1\/meta\/search$/, 'edit_posts', EDIT_ADMINS_PUBLISHED_POST],
  [null, /^\/seo\/v1\//, 'edit_posts'],
  [null, /^\/site-analytics\/v1\//, 'view_site_analytics'],
  // Kadence Blocks and its companions
  [null, /^\/kb-design-library\/v1\/process_(images|pattern)$/, 'upload_files'],
  [null, /^\/kb-design-library\/v1\//, 'edit_posts'],
  [null, /^\/kb-image-picker\/v1\//, 'upload_files'],
  [null, /^\/kb-lottieanimation\/v1\//, 'publish_posts'],
  [null, /^\/(kb-custom-svg|kb-vector)\/v1\//, 'edit_others_pages'],
  [null, /^\/kb-mail-g\/v1\//, 'manage_options'],
  [null, /^\/(kb-mail-[a-f]|kbp-dynamic|kbp|kbpp|ktp)\/v1\//, 'edit_posts'],
  [null, /^\/(designkit-starter-library|code-snippets)\/v1\//, 'manage_options'],
];

function requiredOf(method: string, route: string): { cap: string; onSample?: SampleCheck } | undefined {
  const row = REQUIRED.find(([methods, pattern]) => (methods === null || methods === method) && pattern.test(route));
  return row && { cap: row[2], onSample: row[3] };
}

/**
 * The only 5xx answers a caller let through may get, as WordPress 6.1 itself gives them with the sample args: a
 * tag deleted without `force` (501, terms cannot be trashed), and the pattern directory on a site
 * that blocks external requests (500, the blocked request's error), as this server is.
 */
const ANSWERED_5XX: readonly [method: string, route: RegExp, status: number, code: string][] = [
  ['DELETE', /^\/cms\/v2\/tags\//, 501, 'rest_trash_not_supported'],
  ['GET', /^\/cms\/v2\/pattern-directory\/patterns$/, 500, 'http_request_not_executed'],
];

/** Sample args a route needs beyond its declared ones: the page it fetches is the local server's. */
const SAMPLE_URL_ROUTES = /^\/(oembed\/1\.0\/proxy|cms-block-editor\/v1\/url-details)$/;

/**
 * The remote services, as a local server: a page (for oEmbed discovery and URL details) and an
 * empty JSON object for every service call of the design library.
 */
async function startServices(): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/page')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html><head><title>A local page</title></head><body><p>Hello</p></body></html>');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The design library's service options, pointed at the local server. */
const SERVICE_OPTIONS = ['design_library_patterns_url', 'design_library_ai_url', 'design_library_credits_url', 'design_library_starter_url', 'design_library_starter_base_url'];

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
  for (const [name, d] of Object.entries(args)) {
    const a = d as Record<string, unknown>;
    if (a.required === true) out[name] = sample(d);
    // a default the arg's own validation refuses (block-renderer's context) makes the arg required in effect
    else if (a.refused_default === true) out[name] = sample({ ...a, default: undefined });
  }
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
  /** The capability WordPress requires (REQUIRED above), and its check on the sample object, if any. */
  cap: string;
  onSample?: SampleCheck;
  /** The refusal's code: the endpoint's declared one, or the engine's default. */
  forbiddenCode: string;
}

function casesOf(variant: Variant): { cases: Case[]; unreachable: string[] } {
  const cases: Case[] = [];
  const unreachable: string[] = [];
  for (const route of expandTemplates(routesForVariant(spec, variant), (each) => (each === 'post_type' ? pluginTypes : []))) {
    for (const e of route.endpoints) {
      if ((e.permission ?? 'public') === 'public') continue;
      const path = pathFor(route);
      for (const method of e.methods) {
        const required = requiredOf(method, route.key);
        const label = `${method} ${route.key} (${required?.cap ?? 'no stated permission'})`;
        if (path === null) unreachable.push(`${label}: no sample value matches its path pattern`);
        else if (required === undefined) unreachable.push(`${label}: REQUIRED states no capability for it`);
        else cases.push({ label, method, path, args: requiredArgs(e.args), ...required, forbiddenCode: e.forbidden?.code ?? 'rest_forbidden' });
      }
    }
  }
  return { cases, unreachable };
}

function call(server: TestServer, c: Case, auth?: string) {
  const body = c.method === 'GET' || c.method === 'HEAD' ? undefined : c.args;
  const query = body === undefined ? toQuery(c.args) : '';
  return server.call(c.path.replace(/^\//, '') + query, { method: c.method, json: body ?? undefined, auth });
}

/** The roles the table calls as (an administrator holds every capability a route states, and its writes would unmake the site). */
const CALLERS: readonly Exclude<Role, 'administrator'>[] = ['subscriber', 'contributor', 'author', 'editor'];

describe('the server’s roles are WordPress 6.1’s', () => {
  const server = useServer();
  const known = new Set(Object.values(WP_ROLES).flat());
  for (const role of Object.keys(WP_ROLES) as Role[]) {
    test(role, async () => {
      const user = await userAuth(server, role);
      const me = await server.json('cms/v2/users/me?context=edit', { auth: user.auth });
      // of WordPress's own capabilities, exactly the role's (plugins' capabilities are theirs to add)
      const held = Object.entries(me.capabilities as Record<string, boolean>).filter(([cap, on]) => on && known.has(cap)).map(([cap]) => cap);
      assert.deepEqual(held.sort(), [...WP_ROLES[role]].sort());
      assert.deepEqual(me.roles, [role]);
    });
  }
});

for (const variant of ['A', 'B'] as const) {
  describe(`variant ${variant}: every non-public endpoint of the spec, as each role`, () => {
    let server: TestServer;
    let services: { server: Server; base: string };
    let restoreEnv = () => {};
    const users = {} as Record<(typeof CALLERS)[number], TestUser>;
    const { cases, unreachable } = casesOf(variant);
    before(async () => {
      services = await startServices();
      restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
      server = await startTestServer({ variant });
      for (const option of SERVICE_OPTIONS) await server.app.store.options.set(option, `${services.base}/service/`);
      for (const role of CALLERS) users[role] = await userAuth(server, role);
    });
    after(async () => {
      await server.close();
      services.server.close();
      restoreEnv();
    });

    test('the spec has endpoints to check, each reachable and with its permission stated', () => {
      assert.ok(cases.length > 0);
      // an endpoint the table cannot reach is an endpoint whose refusal nobody checks
      assert.deepEqual(unreachable, []);
    });

    for (const c of cases) {
      test(c.label, async () => {
        if (SAMPLE_URL_ROUTES.test(c.path)) c.args = { ...c.args, url: `${services.base}/page` };
        const anon = await call(server, c);
        const anonBody = (await anon.json()) as { code: string; data: { status: number } };
        // validation runs before the permission check (WordPress's order): generated args that fail it would hide the refusal
        assert.notEqual(anon.status, 400, `the sample args must validate: ${JSON.stringify(anonBody)}`);
        assert.deepEqual([anon.status, anonBody.code, anonBody.data.status], [401, c.forbiddenCode, 401], `anonymous: ${JSON.stringify(anonBody)}`);

        for (const role of CALLERS) {
          const res = await call(server, c, users[role].auth);
          const body = (await res.json()) as { code?: string };
          const seen = `${role}: ${res.status} ${JSON.stringify(body)}`;
          if (!c.cap.split('|').some((cap) => roleCan(role, cap))) {
            assert.deepEqual([res.status, body.code], [403, c.forbiddenCode], seen);
            continue;
          }
          if (c.onSample && !c.onSample.caps.every((cap) => roleCan(role, cap))) {
            assert.deepEqual([res.status, body.code], [403, c.onSample.code], seen);
            continue;
          }
          const wordpress5xx = ANSWERED_5XX.find(([method, route]) => method === c.method && route.test(c.path));
          if (res.status >= 500) assert.deepEqual([res.status, body.code], wordpress5xx ? [wordpress5xx[2], wordpress5xx[3]] : ['less than 500', 'any'], seen);
          // let through: a handler may still refuse the object named (someone else's account), and only with the endpoint's own refusal
          assert.ok(res.status !== 401 && (res.status !== 403 || (c.forbiddenCode !== 'rest_forbidden' && body.code === c.forbiddenCode)), seen);
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

