/**
 * `npm run bench:wp -- --wp URL --wp-auth user:app-password`: this server side by side with any
 * WordPress site, on the requests a WordPress client makes most — the index, the posts list, one
 * post, creating a post, a 404 — so whoever has a WordPress can measure the ratio on their own
 * machine. Both are asked the same paths under `/wp-json/` (which this server answers as WordPress
 * does). Each server is loaded alone, in turn, round after round (medians); the bodies' sizes are
 * printed beside the figures. Without `--cms`, a cms-spec is started on a fresh database holding
 * the WordPress's published posts, with the plugins WordPress 6.1 does not have turned off (startCms).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deactivateNonWordPressPlugins, describeRound, median, QUICK_ROUND, ROOT, runLoad, startServer, wpApi, type ServerProcess } from './bench/lib.ts';

interface Site {
  name: string;
  /** The site's home, without a trailing slash. */
  home: string;
  /** An Authorization header value for the create request. */
  auth: string;
}

interface Request {
  name: string;
  method: string;
  path: (postId: number) => string;
  body?: string;
  /** The status a successful answer has (a 404 is the point of its request). */
  status: number;
  authenticated?: boolean;
}

const REQUESTS: Request[] = [
  { name: 'index', method: 'GET', path: () => '/wp-json/', status: 200 },
  { name: 'posts list', method: 'GET', path: () => '/wp-json/wp/v2/posts', status: 200 },
  { name: 'single post', method: 'GET', path: (id) => `/wp-json/wp/v2/posts/${id}`, status: 200 },
  { name: 'create post', method: 'POST', path: () => '/wp-json/wp/v2/posts', body: JSON.stringify({ title: 'Benchmark draft', content: '<p>Made by bench:wp.</p>', status: 'draft' }), status: 201, authenticated: true },
  { name: '404', method: 'GET', path: () => '/wp-json/wp/v2/no-such-route', status: 404 },
];

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

/** One answer as a client gets it: status, body size, and the first post's id for a list. */
async function probe(site: Site, r: Request, postId: number): Promise<{ status: number; bytes: number; firstId?: number }> {
  const res = await fetch(site.home + r.path(postId), {
    method: r.method,
    headers: { 'content-type': 'application/json', ...(r.authenticated ? { authorization: site.auth } : {}) },
    body: r.body,
  });
  const body = Buffer.from(await res.arrayBuffer());
  const firstId = r.name === 'posts list' && res.ok ? (JSON.parse(body.toString()) as { id: number }[])[0]?.id : undefined;
  return { status: res.status, bytes: body.length, firstId };
}

/**
 * Starts this server on a fresh database holding what the WordPress holds that the requests read:
 * its published posts (the first page: title, content, excerpt, date and slug, copied over REST in
 * place of this site's own first post), with the plugins WordPress 6.1 does not have turned off, so
 * that both answer the same interface about the same content. Its admin application password comes
 * from its first-run output.
 */
async function startCms(wordpress: Site, dir: string, responseCache: string): Promise<{ site: Site; server: ServerProcess }> {
  const db = join(dir, 'site.sqlite');
  const server = await startServer('cms-spec', [join(ROOT, 'bin/cms-spec.js'), 'serve', '--port', '0', '--db', db, '--log-format', 'off', '--response-cache', responseCache]);
  const password = /application password: (.+?) {3}\(HTTP Basic/.exec(server.output())?.[1];
  if (!password) throw new Error(`cms-spec printed no application password:\n${server.output()}`);
  const site: Site = { name: 'cms-spec', home: `http://127.0.0.1:${server.port}`, auth: basic(`admin:${password}`) };
  await deactivateNonWordPressPlugins(site.home, site.auth);
  for (const own of await wpApi<{ id: number }[]>(site.home, site.auth, 'posts?status=any&per_page=100')) await wpApi(site.home, site.auth, `posts/${own.id}?force=true`, { method: 'DELETE' });
  const posts = await wpApi<{ title: { raw: string }; content: { raw: string }; excerpt: { raw: string }; date: string; slug: string }[]>(wordpress.home, wordpress.auth, 'posts?context=edit&per_page=10');
  for (const p of posts.reverse()) await wpApi(site.home, site.auth, 'posts', { json: { title: p.title.raw, content: p.content.raw, excerpt: p.excerpt.raw, date: p.date, slug: p.slug, status: 'publish' } });
  return { site, server };
}

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      wp: { type: 'string' },
      'wp-auth': { type: 'string' },
      cms: { type: 'string' },
      'cms-auth': { type: 'string' },
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '8' },
      connections: { type: 'string', default: '10' },
      // off: every answer is made afresh, as for an authenticated client or the first read after a write
      'response-cache': { type: 'string', default: 'on' },
      quick: { type: 'boolean', default: false },
    },
  });
  if (!o.wp || !o['wp-auth']) throw new Error('usage: npm run bench:wp -- --wp https://wordpress.example --wp-auth user:application-password [--cms URL --cms-auth user:password] [--rounds 5] [--duration 8] [--connections 10] [--response-cache on|off] [--quick]');
  const rounds = o.quick ? 1 : Number(o.rounds);
  const length = o.quick ? QUICK_ROUND : { seconds: Number(o.duration) };
  const connections = Number(o.connections);
  const wordpress: Site = { name: 'WordPress', home: o.wp.replace(/\/$/, ''), auth: basic(o['wp-auth']) };
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-bench-wp-'));
  let started: ServerProcess | undefined;
  try {
    let cms: Site;
    if (o.cms) cms = { name: 'cms-spec', home: o.cms.replace(/\/$/, ''), auth: basic(o['cms-auth'] ?? '') };
    else ({ site: cms, server: started } = await startCms(wordpress, dir, o['response-cache']!));
    const sites = [wordpress, cms];
    // each site's own first post, for its single-post request
    const firstIds = new Map<Site, number>();
    for (const site of sites) firstIds.set(site, (await probe(site, REQUESTS[1], 0)).firstId ?? 1);

    const rows: string[] = [];
    for (const r of REQUESTS) {
      const figures = new Map<Site, { perSec: number[]; bytes: number; failures: number }>();
      for (const site of sites) {
        const answer = await probe(site, r, firstIds.get(site)!);
        if (answer.status !== r.status) throw new Error(`${site.name} answered ${r.name} (${r.method} ${r.path(firstIds.get(site)!)}) with ${answer.status}, not ${r.status}`);
        figures.set(site, { perSec: [], bytes: answer.bytes, failures: 0 });
      }
      for (let round = 0; round < rounds; round++) {
        // one server loaded at a time, in turn, so drift of the machine falls on both
        for (const site of sites) {
          const f = figures.get(site)!;
          const load = await runLoad({
            url: site.home + r.path(firstIds.get(site)!),
            method: r.method,
            body: r.body,
            connections,
            length,
            headers: { 'content-type': 'application/json', ...(r.authenticated ? { authorization: site.auth } : {}) },
          });
          f.perSec.push(load.requestsPerSec);
          // a 404 request's answers are all non-2xx by design
          if (r.status < 300) f.failures += load.failures;
        }
      }
      const wp = figures.get(wordpress)!;
      const ours = figures.get(cms)!;
      const ratio = median(ours.perSec) / median(wp.perSec);
      const flag = wp.failures + ours.failures ? ` (failures: WordPress ${wp.failures}, cms-spec ${ours.failures})` : '';
      rows.push(`| ${r.name} | ${median(wp.perSec).toFixed(0)} | ${median(ours.perSec).toFixed(0)} | ${ratio.toFixed(1)}× | ${wp.bytes} | ${ours.bytes} |${flag}`);
    }
    console.log(`${connections} connections, ${describeRound(length)} × ${rounds} rounds per server, medians; each server loaded alone\n`);
    console.log('| request | WordPress req/s | cms-spec req/s | ratio | WordPress bytes | cms-spec bytes |');
    console.log('|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await started?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
