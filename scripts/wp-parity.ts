/**
 * `node --import tsx scripts/wp-parity.ts [--wp URL --wp-auth user:app-password] [--cms URL --cms-auth user:app-password] [--only TEXT] [--show-same] [--prefix NAME]`:
 * sends the same client requests (`scripts/wp-parity/requests.ts`) to a real WordPress 6.1's
 * `/wp-json/wp/v2` and to this server's (`serve --wp-compat on`, the default), and lists every
 * difference of status, of the headers a client reads (`Allow`, `Link`, `X-WP-Total`,
 * `X-WP-TotalPages`, `Content-Type`) and of the body, after normalising only what must differ
 * between two sites (`scripts/wp-parity/compare.ts`). Without `--cms`, a cms-spec is started on a
 * fresh database with the plugins WordPress 6.1 does not have deactivated and WordPress's
 * permalink structure. Not part of the test suite: it needs a WordPress; each difference it finds
 * that is ours becomes a test under test/cms-v2/ with WordPress's answer written in it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { deactivateNonWordPressPlugins, ROOT, runCli, startServer, wpApi, type ServerProcess } from './bench/lib.ts';
import { differences, IdRegistry, normalise, normaliseHeader, registerIds, type IdKind, type Site } from './wp-parity/compare.ts';
import { probeRequests, type ProbeRequest } from './wp-parity/requests.ts';

/** The headers a client reads, compared after normalising. */
const COMPARED_HEADERS = ['allow', 'link', 'x-wp-total', 'x-wp-totalpages', 'content-type'];

interface Target extends Site {
  authorization: string;
  saved: Map<string, string>;
}

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** The kind of id each saved name is (the others are posts: posts, pages, media, menu items, navigation, autosaves). */
const SAVED_KINDS: Readonly<Record<string, IdKind>> = { category: 'term', tag: 'term', menu: 'term', user: 'user', comment: 'comment', reply: 'comment' };

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

function fill(text: string, saved: Map<string, string>): string {
  return text.replace(/\{([a-z]+)\}/g, (m, name: string) => saved.get(name) ?? m);
}

/** A JSON body with its `{name}`s filled; a string that is only a saved id becomes that number. */
function fillBody(v: unknown, saved: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => fillBody(x, saved));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fillBody(x, saved)]));
  if (typeof v !== 'string') return v;
  const filled = fill(v, saved);
  return /^\{[a-z]+\}$/.test(v) && /^\d+$/.test(filled) ? Number(filled) : filled;
}

async function send(target: Target, r: ProbeRequest): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (r.as === 'admin') headers.authorization = target.authorization;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (r.file) {
    headers['content-type'] = r.file.type;
    headers['content-disposition'] = `attachment; filename="${r.file.name}"`;
    body = Uint8Array.from(r.file.bytes);
  } else if (r.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(fillBody(r.body, target.saved));
  }
  const res = await fetch(`${target.origin}/wp-json${fill(r.path, target.saved)}`, { method: r.method ?? 'GET', headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  if (r.save && res.ok && parsed && typeof parsed === 'object') {
    const o = parsed as { id?: number; uuid?: string };
    if (o.uuid !== undefined) target.saved.set(r.save, o.uuid);
    else if (o.id !== undefined) {
      target.saved.set(r.save, String(o.id));
      target.ids.name(SAVED_KINDS[r.save] ?? 'post', o.id, r.save);
    }
  }
  registerIds(parsed, target);
  return { status: res.status, headers: Object.fromEntries(COMPARED_HEADERS.map((h) => [h, normaliseHeader(res.headers.get(h), target)])), body: normalise(parsed, target) };
}

/** What the WordPress's site is that its answers show: its permalinks, its settings, its administrator's address. */
interface WordPressSite {
  permalinks: string;
  title: string;
  description: string;
  email: string;
  adminEmail: string;
}

/** Starts this server on a fresh database, set up as the WordPress it is compared with. */
async function startCms(dir: string, wpSite: WordPressSite): Promise<{ target: Target; server: ServerProcess }> {
  const db = join(dir, 'site.sqlite');
  const server = await startServer('cms-spec', [join(ROOT, 'bin/cms-spec.js'), 'serve', '--port', '0', '--db', db, '--log-format', 'off']);
  const password = /application password: (.+?) {3}\(HTTP Basic/.exec(server.output())?.[1];
  if (!password) throw new Error(`cms-spec printed no application password:\n${server.output()}`);
  const target: Target = { origin: `http://127.0.0.1:${server.port}`, authorization: basic(`admin:${password}`), ids: new IdRegistry(), saved: new Map() };
  await runCli(['option', 'update', 'permalink_structure', wpSite.permalinks, '--db', db]);
  // the site's own words, as the settings answer them
  await runCli(['option', 'update', 'blogname', wpSite.title, '--db', db]);
  await runCli(['option', 'update', 'blogdescription', wpSite.description, '--db', db]);
  await runCli(['option', 'update', 'admin_email', wpSite.email, '--db', db]);
  // the administrator's address as WordPress's, so that their avatar and comments compare
  await wpApi(target.origin, target.authorization, 'users/me', { json: { email: wpSite.adminEmail } });
  await deactivateNonWordPressPlugins(target.origin, target.authorization);
  return { target, server };
}

async function main(): Promise<void> {
  const { values: o } = parseArgs({
    options: {
      wp: { type: 'string', default: 'http://127.0.0.1:8061' },
      'wp-auth': { type: 'string', default: process.env.WP_PARITY_AUTH },
      cms: { type: 'string' },
      'cms-auth': { type: 'string' },
      only: { type: 'string' },
      // what the run's posts, terms and users are named after (letters and digits), so that whoever shares the WordPress knows them
      prefix: { type: 'string', default: 'parity' },
      'show-same': { type: 'boolean', default: false },
    },
  });
  if (!o['wp-auth']) throw new Error('usage: node --import tsx scripts/wp-parity.ts --wp URL --wp-auth user:application-password [--cms URL --cms-auth user:application-password] [--only TEXT] [--show-same] [--prefix NAME]');
  const wp: Target = { origin: o.wp.replace(/\/$/, ''), authorization: basic(o['wp-auth']), ids: new IdRegistry(), saved: new Map() };
  const settings = (await (await fetch(`${wp.origin}/wp-json/`)).json()) as { permalink_structure?: string };
  let dir: string | undefined;
  let server: ServerProcess | undefined;
  let cms: Target;
  if (o.cms) {
    if (!o['cms-auth']) throw new Error('--cms needs --cms-auth user:application-password');
    cms = { origin: o.cms.replace(/\/$/, ''), authorization: basic(o['cms-auth']), ids: new IdRegistry(), saved: new Map() };
  } else {
    dir = mkdtempSync(join(tmpdir(), 'wp-parity-'));
    const admin = await wpApi<{ email: string }>(wp.origin, wp.authorization, 'users/me?context=edit');
    const site = await wpApi<{ title: string; description: string; email: string }>(wp.origin, wp.authorization, 'settings');
    const permalinks = settings.permalink_structure ?? '/%year%/%monthnum%/%day%/%postname%/';
    ({ target: cms, server } = await startCms(dir, { permalinks, title: site.title, description: site.description, email: site.email, adminEmail: admin.email }));
  }
  try {
    const token = `${o.prefix}${Date.now().toString(36)}`;
    const requests = probeRequests(token);
    const answers: [Answer, Answer][] = [];
    for (const r of requests) answers.push([await send(wp, r), await send(cms, r)]);
    let same = 0;
    requests.forEach((r, i) => {
      const [a, b] = answers[i]!;
      const label = `${r.method ?? 'GET'} ${r.path}${r.as === 'admin' ? ' (admin)' : ''}`;
      if (o.only && !label.includes(o.only)) return;
      const found: string[] = [];
      if (a.status !== b.status) found.push(`status: ${a.status} ≠ ${b.status}`);
      for (const h of COMPARED_HEADERS) if (a.headers[h] !== b.headers[h]) found.push(`${h}: ${a.headers[h] ?? '(absent)'} ≠ ${b.headers[h] ?? '(absent)'}`);
      found.push(...differences(a.body, b.body));
      if (found.length === 0) {
        same++;
        if (o['show-same']) console.log(`= ${label}`);
        return;
      }
      console.log(`≠ ${label}  (WordPress ≠ cms-spec)`);
      for (const f of found.slice(0, 40)) console.log(`    ${f}`);
      if (found.length > 40) console.log(`    ... and ${found.length - 40} more`);
    });
    console.log(`\n${same} of ${requests.length} answers the same.`);
  } finally {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
