import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fetch } from 'undici';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth, userAuth } from '../helpers/auth.ts';
import { logIn } from '../helpers/login.ts';
import type { Variant } from '../../src/engine/spec.ts';
import { FULL, sample } from './plan.ts';
import { HOSTILE_COOKIES, HOSTILE_HEADERS, leakIn, pool } from './support.ts';

// Every page of the site and the admin (the home page, posts, pages, archives, search, feeds,
// sitemaps, robots.txt, the login screen in each of its actions, the admin, the authorization
// page, the API roots, uploads) with hostile cookies and headers, as a visitor and as a logged-in
// administrator whose session cookie comes with the hostile ones. A 5xx, a hang or an answer that
// leaks internal text fails. By default each page gets a sample of the cookie sets and of the header
// sets (a different one per caller); FUZZ_FULL=1 sends every set to every page.
const SAMPLE_COOKIES = 2;
const SAMPLE_HEADERS = 2;
const CONCURRENCY = 6;
const PAGE_TIMEOUT_MS = 30_000;

interface PageCall {
  method: string;
  path: string;
  body?: string;
}

/** The pages named by the site's own sitemaps (a few of each), and the ones no sitemap lists. */
async function sitePages(server: TestServer, post: { link: string; id: number }, page: { link: string }): Promise<PageCall[]> {
  const get = (path: string): PageCall => ({ method: 'GET', path });
  const pathOf = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  const locs = async (path: string) => [...(await (await fetch(server.home + path)).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => pathOf(m[1]));
  const sitemaps = await locs('/wp-sitemap.xml');
  assert.ok(sitemaps.length > 0, 'the sitemap index lists sitemaps');
  const listed = (await Promise.all(sitemaps.map(async (s) => (await locs(s)).slice(0, 3)))).flat();
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  return [
    ...['/', '/index.php', `/?p=${post.id}`, pathOf(post.link), `${pathOf(post.link)}embed/`, `${pathOf(post.link)}feed/`, pathOf(page.link)].map(get),
    ...['/feed/', '/feed/atom/', '/comments/feed/', '/category/uncategorized/feed/', '/page/2/', '/?s=fuzz', '/?s=%E0%A4%A', '/2020/01/', '/author/admin/'].map(get),
    ...['/wp-sitemap.xml', '/sitemap.xml', ...sitemaps, ...listed, '/robots.txt', '/cms-content/themes/default/style.css', '/cms-content/uploads/%E0%A4%A.jpg', '/no-such-page-%E0%A4%A/'].map(get),
    ...['/cms-admin/', '/cms-admin/index.php', '/cms-admin/rest-nonce', '/cms-admin/assets/%E0.js', '/cms-admin/nothing-here'].map(get),
    ...['', '?action=lostpassword', '?action=rp', '?action=resetpass', '?action=logout', '?action=register', '?action=confirmaction', '?checkemail=confirm', '?redirect_to=%E0%A4%A&reauth=1'].map((q) => get(`/cms-admin/login${q}`)),
    ...['/cms-admin/authorize-application?app_name=%E0&success_url=%E0%A4%A', '/.well-known/oauth-authorization-server', '/cms-json/', '/wp-json/', '/?rest_route=/%E0%A4%A'].map(get),
    { method: 'POST', path: '/cms-admin/login', body: form({ log: 'admin', pwd: 'wrong', _token: '%E0' }) },
    { method: 'POST', path: '/cms-admin/login?action=lostpassword', body: form({ user_login: '%E0%A4%A' }) },
    { method: 'POST', path: '/cms-admin/login?action=resetpass', body: form({ rp_key: '%E0', pass1: 'x' }) },
    { method: 'POST', path: '/wp-comments-post.php', body: form({ comment_post_ID: String(post.id), comment: 'x', author: 'a', email: 'a@b.test', _token: 'x.y' }) },
  ];
}

/** Sends one page request; what is wrong with the answer, if anything. */
async function pageProblem(server: TestServer, call: PageCall, headers: Record<string, string>, label: string): Promise<string | null> {
  try {
    const res = await fetch(server.home + call.path, {
      method: call.method,
      headers: { ...headers, ...(call.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: call.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
    });
    const text = await res.text();
    if (res.status >= 500) return `${label}: ${res.status} ${text.slice(0, 300)}`;
    const leak = leakIn(text);
    return leak ? `${label}: ${res.status} leaks internal text (${leak})` : null;
  } catch (e) {
    return `${label}: no answer (${(e as Error).name}: ${(e as Error).message})`;
  }
}

for (const variant of ['A', 'B'] as Variant[]) {
  describe(`fuzz of every page with hostile cookies and headers, variant ${variant}`, () => {
    let server: TestServer;
    let pages: PageCall[];
    let session: string;

    before(async () => {
      server = await startTestServer({ variant });
      const admin = await adminAuth(server);
      const make = async (path: string, json: Record<string, unknown>) => (await server.call(path, { json, auth: admin })).json() as Promise<{ id: number; link: string }>;
      const post = await make('cms/v2/posts', { title: 'Fuzz post', content: '<p>x</p>', status: 'publish' });
      const page = await make('cms/v2/pages', { title: 'Fuzz page', content: 'x', status: 'publish' });
      pages = await sitePages(server, post, page);
      const administrator = await userAuth(server, 'administrator');
      session = (await logIn(server.home, administrator.login, administrator.password)).cookie;
    });
    after(() => server.close());

    it('no page answers a 5xx, hangs or leaks internal text, for a visitor or a logged-in administrator', async (t) => {
      const callers = [
        { name: 'visitor', cookie: '' },
        { name: 'administrator', cookie: session },
      ];
      const requests = callers.flatMap((caller) =>
        pages.flatMap((call) =>
          [...sample(HOSTILE_COOKIES, SAMPLE_COOKIES, `${call.method} ${call.path}|${caller.name}|cookies`), ...sample(HOSTILE_HEADERS, SAMPLE_HEADERS, `${call.method} ${call.path}|${caller.name}`)].map((set) => {
            // the hostile cookies come after the session's, as a browser holding both would send them
            const cookie = [caller.cookie, set.headers.cookie].filter(Boolean).join('; ');
            return { call, headers: { ...set.headers, ...(cookie ? { cookie } : {}) }, label: `${caller.name} ${call.method} ${call.path} with ${set.name}` };
          }),
        ),
      );
      const problems: string[] = [];
      await pool(requests, CONCURRENCY, async (r) => {
        const problem = await pageProblem(server, r.call, r.headers, r.label);
        if (problem) problems.push(problem);
      });
      t.diagnostic(`${requests.length} page requests over ${pages.length} pages${FULL ? ' (FUZZ_FULL)' : ''}`);
      assert.ok(pages.length > 40, `only ${pages.length} pages`);
      assert.deepEqual(problems.slice(0, 25), [], `${problems.length} problems`);
      assert.equal((await fetch(`${server.home}/`)).status, 200, 'the site still answers');
    });
  });
}
