import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { extname, join } from 'node:path';
import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { REST_NONCE_ACTION } from '../auth/index.ts';
import { loginPage, loginUrl, logoutUrl } from '../site/sign-in/login-page.ts';
import { esc, redirectTo, SECURITY_HEADERS } from '../site/sign-in/login-screen.ts';
import { BrowserSessions, type ReadSession } from '../auth/session.ts';

/**
 * The admin's pages under `{adminPath}` (WordPress's /wp-admin/ and wp-login.php): the login
 * screen, the REST nonce for a logged-in browser (admin-ajax.php?action=rest-nonce, where
 * api-fetch asks for a new one), and the admin itself, which needs a login. Null for any other
 * path under it (the site answers its 404).
 */
export async function adminPage(req: PageRequest, engine: Engine): Promise<PageResponse | null> {
  const rest = req.path.slice(engine.site.adminPath.length);
  if (rest === 'login') return loginPage(req, engine);
  if (rest === 'rest-nonce') return restNonce(req, engine);
  if (rest.startsWith('assets/')) return asset(rest.slice('assets/'.length), req);
  if (rest === '' || rest === 'index.php') return adminHome(req, engine);
  return null;
}

const TEXT = { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=UTF-8' };

/** wp_ajax_rest_nonce: the session's REST nonce as text; `0` with 400 when nobody is logged in, as admin-ajax.php answers. */
async function restNonce(req: PageRequest, engine: Engine): Promise<PageResponse> {
  const sessions = await BrowserSessions.of(engine.store);
  const session = await sessions.read(req.headers.cookie);
  if (!session?.user) return { status: 400, headers: TEXT, body: '0' };
  return { status: 200, headers: TEXT, body: sessions.nonce(session, REST_NONCE_ACTION) };
}

/** Where `npm install` (scripts/build.js) puts the admin's bundle: dist/admin-app of this package, from src/ and dist/ alike. */
const BUNDLE = join(import.meta.dirname, '../../dist/admin-app');
const ASSET_NAME = /^(?:chunks\/)?[\w.-]+\.(?:js|css)$/;
const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=UTF-8', '.css': 'text/css; charset=UTF-8' };

/** The bundle's files as served: read and gzipped once per build (by the file's modification time). */
const served = new Map<string, { mtimeMs: number; raw: Buffer; gzip: Buffer }>();

/**
 * A file of the bundle, gzipped for a browser that takes it (made once, not per request: the
 * editor's files are megabytes), with an ETag for revalidation (304). Chunks are named by their
 * content's hash and kept a year; the entry files keep their names between builds, so they are revalidated.
 */
function asset(name: string, req: PageRequest): PageResponse | null {
  if (!ASSET_NAME.test(name)) return null;
  const file = join(BUNDLE, name);
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    return null;
  }
  let kept = served.get(name);
  if (kept?.mtimeMs !== mtimeMs) {
    const raw = readFileSync(file);
    served.set(name, (kept = { mtimeMs, raw, gzip: gzipSync(raw) }));
  }
  const etag = `"${kept.raw.length.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  const headers: Record<string, string> = {
    'Content-Type': TYPES[extname(name)],
    'Cache-Control': name.startsWith('chunks/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    ETag: etag,
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
  };
  if (req.headers['if-none-match'] === etag) return { status: 304, headers, body: '' };
  if (gzip) headers['Content-Encoding'] = 'gzip';
  return { status: 200, headers, body: gzip ? kept.gzip : kept.raw };
}

/** auth_redirect(): the admin for a logged-in browser; anyone else is sent to log in and brought back. */
async function adminHome(req: PageRequest, engine: Engine): Promise<PageResponse> {
  const sessions = await BrowserSessions.of(engine.store);
  const session = await sessions.read(req.headers.cookie);
  if (!session?.user) return redirectTo(loginUrl(engine, engine.site.url(req.path), { reauth: '1' }));
  return adminShell(engine, sessions, session);
}

/** The admin page: the bundle's scripts, and what they need to know (the API, the session's nonce), as JSON they read. */
function adminShell(engine: Engine, sessions: BrowserSessions, session: ReadSession): PageResponse {
  const { site } = engine;
  const user = session.user!;
  const assets = site.url(`${site.adminPath}assets/`);
  const settings = {
    root: site.url('/wp-json/'),
    nonce: sessions.nonce(session, REST_NONCE_ACTION),
    nonceEndpoint: site.url(`${site.adminPath}rest-nonce`),
    adminUrl: site.url(site.adminPath),
    siteUrl: site.url('/'),
    logoutUrl: logoutUrl(engine, sessions, session),
    siteName: site.info.name,
  };
  const built = existsSync(join(BUNDLE, 'admin.js'));
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<title>Dashboard &lsaquo; ${esc(site.info.name)}</title>
<link rel="stylesheet" href="${esc(assets)}admin.css">
</head><body class="wp-admin">
<div id="admin-root">${built ? '' : `<p>Howdy, ${esc(user.display_name || user.login)}. The admin's scripts are not built: run <code>npm run build</code> (an install without development dependencies has no admin). <a id="logout" href="${esc(settings.logoutUrl)}">Log Out</a></p>`}</div>
<noscript><p>The admin needs JavaScript. <a href="${esc(settings.logoutUrl)}">Log Out</a></p></noscript>
<script type="application/json" id="cms-admin-settings">${JSON.stringify(settings).replace(/</g, '\\u003c')}</script>
<script type="module" src="${esc(assets)}admin.js"></script>
</body></html>`;
  // the admin's scripts and styles come from here alone; the editor's canvas is an iframe of this page's own
  return { status: 200, headers: { ...SECURITY_HEADERS, 'Content-Security-Policy': "frame-ancestors 'none'; default-src 'self'; img-src 'self' data: blob: https: http:; style-src 'self' 'unsafe-inline'; media-src 'self' blob: https: http:; frame-src 'self' blob: https:", 'Cache-Control': 'no-cache, no-store, private' }, body: html };
}
