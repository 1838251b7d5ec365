import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';

/**
 * The core namespace's routes against WordPress 6.1's own answers, read off a real install
 * (test/fixtures/wordpress-6.1, its README names the source): every endpoint's args in the index and the namespace index
 * as `GET /wp-json/` shows them, and every route's `OPTIONS` schema, with `wp/v2` read as `cms/v2`.
 */
const REFERENCE = resolve(import.meta.dirname, '../fixtures/wordpress-6.1');
const WP_HOME = 'http://127.0.0.1:8080';

/** This site's names for what WordPress names wp/v2 and wp_*: its core namespace and its post types. */
const OUR_NAMES: [RegExp, string][] = [
  [/wp\/v2/g, 'cms/v2'],
  [/\bwp_(block|template_part|template|navigation|global_styles)\b/g, 'cms_$1'],
];

function ours<T>(value: T, home: string): T {
  let text = JSON.stringify(value).replaceAll(`${WP_HOME}/wp-json/`, `${home}/cms-json/`);
  for (const [from, to] of OUR_NAMES) text = text.replace(from, to);
  return JSON.parse(text) as T;
}

const wpIndex = JSON.parse(readFileSync(resolve(REFERENCE, 'index.json'), 'utf8')) as { routes: Record<string, Route> };
const wpSchemas = JSON.parse(readFileSync(resolve(REFERENCE, 'schemas.json'), 'utf8')) as Record<string, { methods: string[]; schema: Record<string, unknown> | null }>;

interface Endpoint {
  methods: string[];
  args: Record<string, Record<string, unknown>> | [];
  allow_batch?: unknown;
}
interface Route {
  namespace: string;
  methods: string[];
  endpoints: Endpoint[];
}

/**
 * Known, reasoned differences. A route key: this site's pattern for the same route (the template
 * ids and theme stylesheets are matched by patterns clients can read, see cms-v2.templates.yaml).
 * An arg or endpoint: behaviour this site does not offer, or a default WordPress cannot itself serve.
 */
const ROUTE_KEYS: Record<string, string> = {
  '/cms/v2/templates/(?P<id>([^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)[\\/\\w-]+)': '/cms/v2/templates/(?P<id>[^\\/:<>\\*\\?"\\|]+(?:\\/\\/?[^\\/:<>\\*\\?"\\|]+)?)',
  '/cms/v2/template-parts/(?P<id>([^\\/:<>\\*\\?"\\|]+(?:\\/[^\\/:<>\\*\\?"\\|]+)?)[\\/\\w-]+)': '/cms/v2/template-parts/(?P<id>[^\\/:<>\\*\\?"\\|]+(?:\\/\\/?[^\\/:<>\\*\\?"\\|]+)?)',
  '/cms/v2/global-styles/themes/(?P<stylesheet>[\\/\\s%\\w\\.\\(\\)\\[\\]\\@_\\-]+)/variations': '/cms/v2/global-styles/themes/(?P<stylesheet>[\\/\\s%\\w\\.\\x28\\x29\\[\\]\\@_\\-]+)/variations',
};
const EXCEPTIONS: Record<string, string> = {};

describe('cms/v2 against WordPress 6.1: args in the index, OPTIONS schemas', () => {
  const site = useServer();
  const home = () => site.home.replace(/\/$/, '');

  const wpRoutes = () =>
    Object.entries(ours(wpIndex.routes, home()))
      .filter(([key]) => key.startsWith('/cms/v2'))
      .map(([key, route]) => [ROUTE_KEYS[key] ?? key, route] as const);

  it('lists every WordPress endpoint with WordPress’s args, in its order, in the index and the namespace index', async () => {
    const index = (await (await site.call('', { auth: site.admin })).json()) as { routes: Record<string, Route> };
    const nsIndex = (await (await site.call('cms/v2', { auth: site.admin })).json()) as { routes: Record<string, Route> };
    const differences: string[] = [];
    for (const [key, wp] of wpRoutes()) {
      const route = index.routes[key];
      if (!route) {
        differences.push(`missing route ${key}`);
        continue;
      }
      assert.deepEqual(nsIndex.routes[key], route, `${key}: the namespace index shows the root index's descriptor`);
      const mine = new Map(route.endpoints.map((e) => [e.methods.join(','), e]));
      for (const e of wp.endpoints) {
        const methods = e.methods.join(',');
        const ep = mine.get(methods);
        if (!ep) {
          if (!e.methods.some((m) => EXCEPTIONS[`${m} ${key}`])) differences.push(`${methods} ${key}: missing`);
          continue;
        }
        assert.deepEqual(ep.allow_batch, e.allow_batch, `${methods} ${key} allow_batch`);
        const want = Array.isArray(e.args) ? {} : e.args;
        const got = Array.isArray(ep.args) ? {} : ep.args;
        for (const name of new Set([...Object.keys(want), ...Object.keys(got)])) {
          if (EXCEPTIONS[`${methods} ${key} ${name}`]) continue;
          try {
            assert.deepStrictEqual(got[name], want[name]);
          } catch {
            differences.push(`${methods} ${key} ${name}: ${JSON.stringify(got[name])} where WordPress has ${JSON.stringify(want[name])}`);
          }
        }
        const order = (args: Record<string, unknown>) => Object.keys(args).filter((n) => n in want && n in got).join(',');
        if (order(got) !== order(want)) differences.push(`${methods} ${key}: args in the order ${order(got)}, WordPress's ${order(want)}`);
      }
    }
    assert.deepEqual(differences, []);
  });

  /** A path the route's pattern matches: a sample value for each variable. */
  function samplePath(key: string): string {
    const samples = ['1', 'post', 'core', 'paragraph', 'twentytwentythree', 'akismet/akismet'];
    return key.replace(/\(\?P<(\w+)>((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g, (_, _name: string, pattern: string) => {
      const re = new RegExp(`^(?:${pattern.replace(/\\x28/g, '\\(').replace(/\\x29/g, '\\)')})$`);
      return samples.find((s) => re.test(s)) ?? '1';
    });
  }

  it('answers OPTIONS on every route with WordPress’s schema of its resource (none where WordPress has none)', async () => {
    const differences: string[] = [];
    for (const [wpKey, { schema }] of Object.entries(wpSchemas)) {
      const key = ROUTE_KEYS[ours(wpKey, home())] ?? ours(wpKey, home());
      if (key === '/cms/v2') continue;
      const res = await site.call(samplePath(key).slice(1), { method: 'OPTIONS', auth: site.admin });
      const body = (await res.json()) as { schema?: unknown; endpoints?: unknown };
      if (!body.endpoints) differences.push(`${key}: OPTIONS found no route`);
      else if (schema === null ? 'schema' in body : !isDeepEqual(body.schema, ours(schema, home()))) differences.push(`${key}: schema differs`);
    }
    assert.deepEqual(differences, []);
  });

  it('serves the schema with links at the address asked, the index without schemas', async () => {
    const res = await site.call('cms/v2/posts', { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['namespace', 'methods', 'endpoints', 'schema', '_links']);
    assert.deepEqual(body.schema.links[0], {
      rel: 'https://api.w.org/action-publish',
      title: 'The current user can publish this post.',
      href: `${site.api}cms/v2/posts/{id}`,
      targetSchema: { type: 'object', properties: { status: { type: 'string', enum: ['publish', 'future'] } } },
    });
    assert.deepEqual(Object.keys(body.schema).slice(0, 4), ['$schema', 'title', 'type', 'properties']);
    assert.equal(body.schema.title, 'post');
    assert.deepEqual(body.schema.properties.sticky, { description: 'Whether or not the post should be treated as sticky.', type: 'boolean', context: ['view', 'edit'] });
    const page = await (await site.call('cms/v2/pages/7', { method: 'OPTIONS' })).json();
    assert.equal(page.schema.title, 'page');
    assert.deepEqual(page.schema.properties.menu_order, { description: 'The order of the post in relation to other posts.', type: 'integer', context: ['view', 'edit'] });
    assert.equal('sticky' in page.schema.properties, false);
    const index = await (await site.call('')).json();
    assert.equal('schema' in index.routes['/cms/v2/posts'], false);
    // ?context=help: the indexes show each route as OPTIONS does (WP_REST_Server::get_data_for_routes)
    const help = await (await site.call('?context=help')).json();
    assert.deepEqual(help.routes['/cms/v2/posts'], body);
    assert.equal('schema' in help.routes['/'], false);
    const nsHelp = await (await site.call('cms/v2?context=help')).json();
    assert.deepEqual(nsHelp.routes['/cms/v2/pages/(?P<id>[\\d]+)'], page);
    assert.deepEqual(Object.keys(nsHelp.routes), Object.keys((await (await site.call('cms/v2')).json()).routes));
    // at WordPress's address, the links are WordPress's
    const wp = await (await fetch(`${site.home.replace(/\/$/, '')}/wp-json/wp/v2/posts`, { method: 'OPTIONS' })).json();
    assert.equal(wp.schema.links[0].href, `${site.home.replace(/\/$/, '')}/wp-json/wp/v2/posts/{id}`);
    assert.deepEqual({ ...wp.schema, links: [] }, { ...body.schema, links: [] });
  });
});

function isDeepEqual(a: unknown, b: unknown): boolean {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}
