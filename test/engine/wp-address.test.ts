import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { config } from '../../src/config.ts';
import { loadSpec } from '../../src/engine/spec.ts';
import { SpecError } from '../../src/engine/diagnostics.ts';
import { startTestServer, useServer } from '../helpers/server.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** WordPress 6.1's own index, served at http://127.0.0.1:8080/wp-json/ (test/fixtures/wordpress-6.1/README.md). */
const WP_INDEX = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/wordpress-6.1/index.json'), 'utf8'));
/** WordPress's index as this server's address would show it. */
const wpAt = (home: string, value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('http://127.0.0.1:8080', home));
/** The name /wp-json/ shows for a /cms-json/ route key or namespace (the test's own mapping, not the server's). */
/** The namespaces /wp-json/ names as WordPress and Yoast SEO do (site.yaml's api_aliases). */
const WP_NAMES: Record<string, string> = { 'cms/v2': 'wp/v2', 'seo/v1': 'yoast/v1' };
const asWp = (s: string) => s.replace(/^(\/?)(cms\/v2|seo\/v1)(?=\/|$)/, (_, slash: string, ns: string) => slash + WP_NAMES[ns]);
const NOT_FOUND = { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } };

describe('the WordPress address: /wp-json/ with wp/v2 beside /cms-json/ with cms/v2', () => {
  const server = useServer();
  const wp = (path: string, init: RequestInit = {}) => fetch(`${server.home}/wp-json/${path.replace(/^\//, '')}`, init);
  const cms = (path: string, init: RequestInit = {}) => fetch(`${server.api}${path.replace(/^\//, '')}`, init);
  const asAdmin = (init: RequestInit & { json?: unknown } = {}): RequestInit => ({
    ...init,
    headers: { authorization: server.admin, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }), ...(init.headers as Record<string, string>) },
    body: init.json === undefined ? init.body : JSON.stringify(init.json),
  });

  test('the /wp-json/ index is the /cms-json/ index with cms/v2 named wp/v2, the same routes in the same order', async () => {
    const [w, c] = await Promise.all([wp('').then((r) => r.json()), cms('').then((r) => r.json())]);
    assert.deepEqual(Object.keys(w), Object.keys(c));
    assert.deepEqual(w.namespaces, c.namespaces.map(asWp));
    assert.ok(w.namespaces.includes('wp/v2') && !w.namespaces.includes('cms/v2'));
    // other plugin namespaces keep their names
    assert.ok(w.namespaces.includes('oembed/1.0') && w.namespaces.includes('code-snippets/v1') && w.namespaces.includes('yoast/v1'));
    assert.deepEqual(Object.keys(w.routes), Object.keys(c.routes).map(asWp));
    for (const key of Object.keys(c.routes)) {
      const [wd, cd] = [w.routes[asWp(key)], c.routes[key]];
      assert.equal(wd.namespace, asWp(cd.namespace), key);
      assert.deepEqual(wd.methods, cd.methods, key);
      if (cd._links) assert.deepEqual(wd._links, { self: [{ href: cd._links.self[0].href.replace('/cms-json/cms/v2', '/wp-json/wp/v2').replace('/cms-json/seo/v1', '/wp-json/yoast/v1').replace('/cms-json/', '/wp-json/') }] }, key);
    }
    assert.equal(w.name, c.name);
    assert.deepEqual(w.authentication, c.authentication);
    assert.equal(JSON.stringify(w).includes('cms/v2'), false);
    assert.equal(JSON.stringify(w).includes('/cms-json/'), false);
  });

  test("the index routes WordPress's clients start from are WordPress's, field for field", async () => {
    const w = await wp('').then((r) => r.json());
    for (const key of ['/', '/batch/v1', '/wp/v2', '/wp/v2/users/me']) assert.deepEqual(w.routes[key], wpAt(server.home, WP_INDEX.routes[key]), key);
    const ns = await wp('wp/v2').then((r) => r.json());
    assert.equal(ns.namespace, 'wp/v2');
    assert.deepEqual(ns._links, { up: [{ href: `${server.home}/wp-json/` }] });
    assert.deepEqual(ns.routes['/wp/v2'], wpAt(server.home, WP_INDEX.routes['/wp/v2']));
    const cmsNs = await cms('cms/v2').then((r) => r.json());
    assert.equal(cmsNs.namespace, 'cms/v2');
    assert.deepEqual(Object.keys(ns.routes), Object.keys(cmsNs.routes).map(asWp));
    // a plugin's namespace index at the WordPress address: its own name, up to /wp-json/
    const oembed = await wp('oembed/1.0').then((r) => r.json());
    assert.equal(oembed.namespace, 'oembed/1.0');
    assert.deepEqual(oembed._links, { up: [{ href: `${server.home}/wp-json/` }] });
    assert.deepEqual(oembed.routes['/oembed/1.0'], wpAt(server.home, WP_INDEX.routes['/oembed/1.0']));
  });

  test('each address answers only its own names: /wp-json/cms/v2 and /cms-json/wp/v2 are no route', async () => {
    for (const res of [await wp('cms/v2/posts'), await cms('wp/v2/posts'), await wp('cms/v2')]) {
      assert.equal(res.status, 404);
      assert.deepEqual(await res.json(), NOT_FOUND);
    }
    const res = await cms('wp/v2');
    assert.equal(res.status, 404);
    // routes match in any case, as WordPress's regexes do (`@i`), renamed names too
    const upper = await wp('WP/V2/categories/1');
    assert.equal(upper.status, 200);
    assert.equal((await upper.json()).slug, 'uncategorized');
  });

  test('OPTIONS at /wp-json/ describes the route as wp/v2', async () => {
    const res = await wp('wp/v2/posts', { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    const d = await res.json();
    assert.equal(d.namespace, 'wp/v2');
    assert.deepEqual(d._links, { self: [{ href: `${server.home}/wp-json/wp/v2/posts` }] });
  });

  test('a post written at /wp-json/wp/v2 is read at /cms-json/cms/v2 and back, each with its own links', async () => {
    const created = await wp('wp/v2/posts', asAdmin({ method: 'POST', json: { title: 'Through the WordPress address', content: '<p>Same store.</p>', status: 'publish' } }));
    assert.equal(created.status, 201);
    const post = await created.json();
    assert.equal(created.headers.get('location'), `${server.home}/wp-json/wp/v2/posts/${post.id}`);
    assert.equal(post.title.raw, 'Through the WordPress address');
    assert.deepEqual(post._links.self, [{ href: `${server.home}/wp-json/wp/v2/posts/${post.id}` }]);
    assert.deepEqual(post._links.collection, [{ href: `${server.home}/wp-json/wp/v2/posts` }]);
    assert.deepEqual(post._links.about, [{ href: `${server.home}/wp-json/wp/v2/types/post` }]);
    assert.deepEqual(post._links.author, [{ embeddable: true, href: `${server.home}/wp-json/wp/v2/users/${post.author}` }]);

    const viaCms = await cms(`cms/v2/posts/${post.id}`).then((r) => r.json());
    assert.equal(viaCms.title.rendered, 'Through the WordPress address');
    assert.deepEqual(viaCms._links.self, [{ href: `${server.api}cms/v2/posts/${post.id}` }]);
    assert.deepEqual(viaCms._links.author, [{ embeddable: true, href: `${server.api}cms/v2/users/${post.author}` }]);

    const updated = await cms(`cms/v2/posts/${post.id}`, asAdmin({ method: 'POST', json: { title: 'Edited at the other address' } }));
    assert.equal(updated.status, 200);
    const back = await wp(`wp/v2/posts/${post.id}?context=edit`, asAdmin()).then((r) => r.json());
    assert.equal(back.title.raw, 'Edited at the other address');
    const text = JSON.stringify(back);
    assert.equal(text.includes('/cms-json/'), false, text);
    assert.equal(text.includes('cms/v2'), false, text);
  });

  test('_embed at /wp-json/ fetches the linked resources there, and their links say wp/v2', async () => {
    const res = await wp('wp/v2/posts?per_page=1&_embed');
    assert.equal(res.status, 200);
    const [post] = await res.json();
    const [author] = post._embedded.author;
    assert.equal(author.id, post.author);
    assert.deepEqual(author._links.self, [{ href: `${server.home}/wp-json/wp/v2/users/${post.author}` }]);
    assert.equal(JSON.stringify(post).includes('/cms-json/'), false);
  });

  test('the Link header of a paged list at /wp-json/ pages at /wp-json/wp/v2', async () => {
    for (const title of ['Paged one', 'Paged two']) await wp('wp/v2/posts', asAdmin({ method: 'POST', json: { title, status: 'publish' } }));
    const res = await wp('wp/v2/posts?per_page=1&page=2');
    assert.equal(res.status, 200);
    const total = Number(res.headers.get('x-wp-totalpages'));
    assert.ok(total >= 3);
    assert.equal(
      res.headers.get('link'),
      `<${server.home}/wp-json/wp/v2/posts?per_page=1&page=1>; rel="prev", <${server.home}/wp-json/wp/v2/posts?per_page=1&page=3>; rel="next"`,
    );
  });

  test('batch at /wp-json/batch/v1 takes /wp/v2 paths and answers with wp/v2 links', async () => {
    const res = await wp(
      'batch/v1',
      asAdmin({
        method: 'POST',
        json: {
          requests: [
            { path: '/wp/v2/posts', body: { title: 'Batched at the WordPress address', status: 'draft' } },
            { path: '/cms/v2/posts', body: { title: 'Not a route here' } },
          ],
        },
      }),
    );
    assert.equal(res.status, 207);
    const { responses } = await res.json();
    assert.equal(responses[0].status, 201);
    const id = responses[0].body.id;
    assert.equal(responses[0].headers.Location, `${server.home}/wp-json/wp/v2/posts/${id}`);
    assert.deepEqual(responses[0].body._links.self, [{ href: `${server.home}/wp-json/wp/v2/posts/${id}` }]);
    assert.deepEqual(responses[1], { body: NOT_FOUND, status: 404, headers: [] });
    const stored = await cms(`cms/v2/posts/${id}?context=edit`, asAdmin()).then((r) => r.json());
    assert.equal(stored.title.raw, 'Batched at the WordPress address');
  });

  test('?rest_route= on the home page answers as WordPress does, at the address its namespace names', async () => {
    const viaWp = await fetch(`${server.home}/?rest_route=/wp/v2/categories/1`);
    assert.equal(viaWp.status, 200);
    const cat = await viaWp.json();
    assert.equal(cat.name, 'Uncategorized');
    assert.deepEqual(cat._links.self, [{ href: `${server.home}/wp-json/wp/v2/categories/1` }]);
    const viaCms = await fetch(`${server.home}/index.php?rest_route=/cms/v2/categories/1`).then((r) => r.json());
    assert.deepEqual(viaCms._links.self, [{ href: `${server.api}cms/v2/categories/1` }]);
    const ns = await fetch(`${server.home}/?rest_route=/wp/v2`).then((r) => r.json());
    assert.equal(ns.namespace, 'wp/v2');
    const plugin = await fetch(`${server.home}/?rest_route=/oembed/1.0`).then((r) => r.json());
    assert.equal(plugin.namespace, 'oembed/1.0');
  });

  test("the site's Link header and <link> tag keep pointing at /cms-json/", async () => {
    const res = await fetch(`${server.home}/`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('link')?.split(', ')[0], `<${server.api}>; rel="https://api.w.org/"`);
    assert.ok((await res.text()).includes(`<link rel="https://api.w.org/" href="${server.api}">`));
  });
});

describe('with the WordPress address turned off', () => {
  test('CMS_SPEC_WP_COMPAT=off: /wp-json/ is the site\'s 404 page and ?rest_route=/wp/v2 no route; /cms-json/ as before', async () => {
    const before = process.env.CMS_SPEC_WP_COMPAT;
    process.env.CMS_SPEC_WP_COMPAT = 'off';
    const server = await startTestServer();
    try {
      const page = await fetch(`${server.home}/wp-json/wp/v2/posts`);
      assert.equal(page.status, 404);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const route = await fetch(`${server.home}/?rest_route=/wp/v2/posts`);
      assert.equal(route.status, 404);
      assert.deepEqual(await route.json(), NOT_FOUND);
      const index = await server.call('').then((r) => r.json());
      assert.ok(index.namespaces.includes('cms/v2'));
      assert.equal((await server.call('cms/v2/posts')).status, 200);
    } finally {
      if (before === undefined) delete process.env.CMS_SPEC_WP_COMPAT;
      else process.env.CMS_SPEC_WP_COMPAT = before;
      await server.close();
    }
  });

  test('serve --wp-compat off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wp-compat-'));
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [join(ROOT, 'bin/cms-spec.js'), 'serve', '--wp-compat', 'off', '--port', '0', '--db', join(dir, 'site.sqlite'), '--log-format', 'off'], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CMS_SPEC_WP_COMPAT: '' },
      });
      const api = await new Promise<string>((ok, fail) => {
        let out = '';
        child!.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /cms-spec listening on (\S+)/.exec(out);
          if (m) ok(m[1]);
        });
        child!.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
      });
      const home = api.replace(/cms-json\/$/, '');
      assert.equal((await fetch(`${home}wp-json/`)).status, 404);
      assert.equal((await fetch(api)).status, 200);
    } finally {
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('CMS_SPEC_WP_COMPAT takes on or off, and nothing else', () => {
    assert.equal(config({}).wpCompat, true);
    assert.equal(config({ CMS_SPEC_WP_COMPAT: 'on' }).wpCompat, true);
    assert.equal(config({ CMS_SPEC_WP_COMPAT: 'OFF' }).wpCompat, false);
    assert.throws(() => config({ CMS_SPEC_WP_COMPAT: 'maybe' }), /CMS_SPEC_WP_COMPAT must be 'on' or 'off', got 'maybe'/);
    config();
  });
});

describe('api_aliases in site.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-aliases-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** The fixture spec with these aliases added to its site.yaml. */
  const specWith = (name: string, aliases: string): string => {
    const to = join(dir, name);
    cpSync(resolve(import.meta.dirname, '../fixtures/basic'), to, { recursive: true });
    const site = join(to, 'site.yaml');
    writeFileSync(site, `${readFileSync(site, 'utf8')}\napi_aliases:\n${aliases}\n`);
    return to;
  };
  const problems = (spec: string): string[] => {
    try {
      loadSpec(spec);
      return [];
    } catch (e) {
      if (!(e instanceof SpecError)) throw e;
      return e.problems.map((p) => p.message);
    }
  };

  test('an alias renames only declared namespaces, to names no namespace has, at a prefix of its own', () => {
    assert.deepEqual(problems(specWith('ok', '  - prefix: fx-json\n    namespaces: { fixture/v1: fx/v1 }')), []);
    assert.deepEqual(loadSpec(join(dir, 'ok')).apiAliases, [{ prefix: 'fx-json', namespaces: { 'fixture/v1': 'fx/v1' } }]);
    assert.deepEqual(problems(specWith('unknown', '  - prefix: fx-json\n    namespaces: { nope/v1: fx/v1 }')), ["api_aliases: 'fx-json' renames namespace 'nope/v1', which no file declares"]);
    assert.deepEqual(problems(specWith('taken', '  - prefix: cms-json\n    namespaces: { fixture/v1: fixture/v1 }')), [
      "api_aliases: prefix 'cms-json' is already the API's or another alias's",
      "api_aliases: 'cms-json' shows 'fixture/v1' as 'fixture/v1', a name already taken",
    ]);
  });
});
