/**
 * `node --import tsx scripts/render-parity.ts --wp-auth admin:APP-PASSWORD [--wp URL] [--visitor] [--list] [--only TEXT] [--show-same] [--full] [--dump DIR]`:
 * WordPress's standard test content (test/fixtures/wxr/themeunittestdata.wordpress.xml and
 * 64-block-test-data.xml) rendered by a real WordPress 6.1 and by this server, post by post.
 * A cms-spec is started on a fresh database and both files imported into it with `cms-spec import
 * --no-attachments`, as test/site/test-content-render.test.ts does; the WordPress at --wp (by
 * default http://127.0.0.1:8062, a site of its own: `scripts/wordpress-reference.sh 8062`) must
 * hold the same files imported by scripts/render-parity/wp-import.php, which also gives it this
 * server's theme. For every post and page of the two files, `title.rendered`, `content.rendered`,
 * `excerpt.rendered` and the `content.rendered` of its comments are compared, as an administrator
 * asks for them (drafts and future posts included) or, with --visitor, as a logged-out visitor
 * (published posts only); one post at a time (`GET posts/ID`), or with --list as lists give them
 * (`GET posts?per_page=100`, where WordPress's per-request counters run on from post to post).
 * Only what two sites cannot share is normalised: the site's address. It prints each post that
 * differs, the differences grouped by where they start (the block or element WordPress printed
 * there), and how many of the posts are alike. Not part of the test suite: each difference it
 * finds that is ours becomes a test with WordPress's answer written in it. --dump writes both sides
 * of each difference to DIR (`<id>-<field>.wordpress.html`, `.cms-spec.html`) for a diff tool.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, runCli, startServer, type ServerProcess } from './bench/lib.ts';

const FIXTURES = ['themeunittestdata.wordpress.xml', '64-block-test-data.xml'].map((f) => join(ROOT, 'test/fixtures/wxr', f));
const STATUSES = 'publish,future,draft,pending,private';

interface Rendered {
  id: number;
  type: string;
  slug: string;
  status: string;
  title: { rendered: string };
  content: { rendered: string };
  excerpt: { rendered: string };
}

interface Comment {
  id: number;
  content: { rendered: string };
}

interface Site {
  origin: string;
  /** The site's own address (its home), which imported text names: this server's is where it was installed. */
  home: string;
  /** `Basic …`, or undefined for a logged-out visitor. */
  authorization?: string;
}

/** One field of one post that differs, and what it is about. */
interface Difference {
  post: Rendered;
  field: string;
  wp: string;
  ours: string;
  /** Where the two part: the element WordPress's text opened last before that point. */
  cause: string;
}

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

async function get<T>(site: Site, path: string): Promise<{ body: T; headers: Headers }> {
  const res = await fetch(`${site.origin}/wp-json/wp/v2/${path}`, { headers: site.authorization ? { authorization: site.authorization } : {} });
  if (!res.ok) throw new Error(`${site.origin} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return { body: (await res.json()) as T, headers: res.headers };
}

/** Every item of a list route, page after page. */
async function all<T>(site: Site, path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const { body, headers } = await get<T[]>(site, `${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
    out.push(...body);
    if (page >= Number(headers.get('x-wp-totalpages') ?? 1)) return out;
  }
}

/** The site's address, the only thing of a rendering two sites cannot share. */
const normalise = (text: string, site: Site) => text.split(site.home).join('{home}').split(site.home.replace(/\//g, '\\/')).join('{home}');

/** The site's home, as its REST index names it. */
const homeOf = async (origin: string) => ((await (await fetch(`${origin}/wp-json/`)).json()) as { home: string }).home.replace(/\/$/, '');

/** The element WordPress's text opened last before the two texts part, with its block class when it has one: what the difference is about. */
function causeOf(field: string, wp: string, ours: string): string {
  let at = 0;
  while (at < wp.length && wp[at] === ours[at]) at++;
  const before = wp.slice(0, at);
  const open = [...before.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>?/g)].pop();
  const comment = /<!-- wp:([a-z0-9/-]+)/.exec(wp.slice(Math.max(0, at - 200), at + 40));
  if (!open) return `${field}: ${comment ? `wp:${comment[1]}` : 'text'}`;
  const cls = /class="([^"]*)"/.exec(open[2] ?? '')?.[1].split(/\s+/).find((c) => /^wp-block-|^wp-|^is-|^has-/.test(c));
  return `${field}: <${open[1]}${cls ? ` .${cls}` : ''}>`;
}

/** The two texts around where they part. */
function excerptAt(wp: string, ours: string, width = 160): [string, string] {
  let at = 0;
  while (at < wp.length && wp[at] === ours[at]) at++;
  const from = Math.max(0, at - 60);
  return [wp.slice(from, from + width), ours.slice(from, from + width)];
}

/** Starts this server on a fresh database and imports the two files into it, as the test does. */
async function startCms(dir: string, wp: Site): Promise<{ site: Site; server: ServerProcess }> {
  const db = join(dir, 'site.sqlite');
  const serve = ['bin/cms-spec.js', 'serve', '--port', '0', '--db', db, '--log-format', 'off'].map((a, i) => (i === 0 ? join(ROOT, a) : a));
  const installing = await startServer('cms-spec', serve);
  const password = /application password: (.+?) {3}\(HTTP Basic/.exec(installing.output())?.[1];
  await installing.stop();
  if (!password) throw new Error(`cms-spec printed no application password:\n${installing.output()}`);
  // the settings WordPress's site has that a rendering shows
  const index = (await (await fetch(`${wp.origin}/wp-json/`)).json()) as { name: string; description: string; permalink_structure?: string };
  await runCli(['option', 'update', 'permalink_structure', index.permalink_structure ?? '/%year%/%monthnum%/%day%/%postname%/', '--db', db]);
  await runCli(['option', 'update', 'blogname', index.name, '--db', db]);
  await runCli(['option', 'update', 'blogdescription', index.description, '--db', db]);
  for (const file of FIXTURES) await runCli(['import', file, '--db', db, '--no-attachments']);
  const server = await startServer('cms-spec', serve);
  const origin = `http://127.0.0.1:${server.port}`;
  const site: Site = { origin, home: await homeOf(origin), authorization: basic(`admin:${password}`) };
  // each site's "Hello world!" is dated when it was installed, which lists and loops show: this one takes WordPress's date
  const hello = (await get<{ date: string }>(wp, 'posts/1')).body;
  const dated = await fetch(`${origin}/wp-json/wp/v2/posts/1`, { method: 'POST', headers: { authorization: site.authorization!, 'content-type': 'application/json' }, body: JSON.stringify({ date: hello.date }) });
  if (!dated.ok) throw new Error(`dating Hello world!: ${dated.status} ${await dated.text()}`);
  return { site, server };
}

/** Each post and page of both sites, by id: one at a time, or as the lists give them. */
async function renderings(site: Site, ids: Map<number, string>, asList: boolean): Promise<Map<number, Rendered>> {
  const out = new Map<number, Rendered>();
  const status = site.authorization ? `&status=${STATUSES}` : '';
  if (asList) {
    for (const type of ['posts', 'pages']) for (const p of await all<Rendered>(site, `${type}?orderby=id&order=asc${status}`)) out.set(p.id, p);
  } else {
    for (const [id, type] of ids) out.set(id, (await get<Rendered>(site, `${type}/${id}`)).body);
  }
  return out;
}

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      wp: { type: 'string', default: 'http://127.0.0.1:8062' },
      'wp-auth': { type: 'string', default: process.env.RENDER_PARITY_AUTH },
      visitor: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      only: { type: 'string' },
      'show-same': { type: 'boolean', default: false },
      full: { type: 'boolean', default: false },
      dump: { type: 'string' },
    },
  });
  if (!o['wp-auth']) throw new Error('usage: node --import tsx scripts/render-parity.ts --wp-auth admin:application-password [--wp URL] [--visitor] [--list] [--only TEXT] [--show-same] [--full] [--dump DIR]');
  const wpOrigin = o.wp.replace(/\/$/, '');
  const wpAdmin: Site = { origin: wpOrigin, home: await homeOf(wpOrigin), authorization: basic(o['wp-auth']) };
  const wp: Site = o.visitor ? { origin: wpAdmin.origin, home: wpAdmin.home } : wpAdmin;
  const dir = mkdtempSync(join(tmpdir(), 'render-parity-'));
  const { site: cmsAdmin, server } = await startCms(dir, wpAdmin);
  const cms: Site = o.visitor ? { origin: cmsAdmin.origin, home: cmsAdmin.home } : cmsAdmin;
  try {
    // the posts and pages of the two files: WordPress's, but for its own two (Hello world!, Sample Page)
    const ids = new Map<number, string>();
    for (const type of ['posts', 'pages']) {
      for (const p of await all<Rendered>(wp, `${type}?orderby=id&order=asc&_fields=id${wp.authorization ? `&status=${STATUSES}` : ''}`)) if (p.id > 2) ids.set(p.id, type);
    }
    const [wpPosts, cmsPosts] = await Promise.all([renderings(wp, ids, o.list), renderings(cms, ids, o.list)]);
    const differences: Difference[] = [];
    const missing: string[] = [];
    let same = 0;
    for (const [id] of ids) {
      const a = wpPosts.get(id)!;
      const b = cmsPosts.get(id);
      if (o.only && !`${id} ${a.title.rendered}`.includes(o.only)) continue;
      if (!b || b.slug !== a.slug) {
        missing.push(`${id} “${a.title.rendered}” (${a.slug}): ${b ? `here it is ${b.slug}` : 'not here'}`);
        continue;
      }
      const found: Difference[] = [];
      for (const field of ['title', 'content', 'excerpt'] as const) {
        const x = normalise(a[field].rendered, wp);
        const y = normalise(b[field].rendered, cms);
        if (x !== y) found.push({ post: a, field, wp: x, ours: y, cause: causeOf(field, x, y) });
      }
      // a refusal (a post behind a password, for a visitor) is compared as what it says
      const comments = (site: Site) => all<Comment>(site, `comments?post=${id}&orderby=id&order=asc`).catch((e: Error) => [{ id: 0, content: { rendered: `(refused: ${e.message.replace(/^\S+ \S+: /, '')})` } }]);
      const [wc, cc] = await Promise.all([comments(wp), comments(cms)]);
      if (wc.length !== cc.length) found.push({ post: a, field: 'comments', wp: `${wc.length} comments`, ours: `${cc.length} comments`, cause: 'comments: count' });
      wc.forEach((c, i) => {
        const x = normalise(c.content.rendered, wp);
        const y = normalise(cc[i]?.content.rendered ?? '', cms);
        if (x !== y) found.push({ post: a, field: `comment ${i + 1}`, wp: x, ours: y, cause: causeOf('comment', x, y) });
      });
      if (!found.length) {
        same++;
        if (o['show-same']) console.log(`= ${id} ${a.title.rendered}`);
        continue;
      }
      differences.push(...found);
      if (o.dump) {
        mkdirSync(o.dump, { recursive: true });
        for (const f of found) {
          const name = join(o.dump, `${id}-${f.field.replace(/\s+/g, '-')}`);
          writeFileSync(`${name}.wordpress.html`, f.wp);
          writeFileSync(`${name}.cms-spec.html`, f.ours);
        }
      }
      console.log(`≠ ${id} ${a.type} “${a.title.rendered}” (${a.status}): ${found.map((f) => f.field).join(', ')}`);
      for (const f of found) {
        const [x, y] = o.full ? [f.wp, f.ours] : excerptAt(f.wp, f.ours);
        console.log(`    ${f.field}  WordPress: ${JSON.stringify(x)}\n    ${' '.repeat(f.field.length)}  cms-spec:  ${JSON.stringify(y)}`);
      }
    }
    for (const m of missing) console.log(`? ${m}`);
    const groups = new Map<string, Difference[]>();
    for (const d of differences) groups.set(d.cause, [...(groups.get(d.cause) ?? []), d]);
    console.log('\nDifferences by where they start (WordPress’s element there):');
    for (const [cause, list] of [...groups].sort((x, y) => y[1].length - x[1].length)) {
      console.log(`  ${String(list.length).padStart(3)}  ${cause}: ${[...new Set(list.map((d) => d.post.id))].join(' ')}`);
    }
    console.log(`\n${same} of ${ids.size} posts and pages alike${o.visitor ? ' (as a logged-out visitor)' : ' (as an administrator)'}${o.list ? ', as lists give them' : ', one at a time'}.`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
