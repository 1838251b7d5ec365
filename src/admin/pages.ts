import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { REST_NONCE_ACTION } from '../auth/index.ts';
import { loginPage, loginUrl, logoutUrl } from '../auth/login-page.ts';
import { esc, redirectTo, SECURITY_HEADERS } from '../auth/login-screen.ts';
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

/** auth_redirect(): the admin for a logged-in browser; anyone else is sent to log in and brought back. */
async function adminHome(req: PageRequest, engine: Engine): Promise<PageResponse> {
  const sessions = await BrowserSessions.of(engine.store);
  const session = await sessions.read(req.headers.cookie);
  if (!session?.user) return redirectTo(loginUrl(engine, engine.site.url(req.path), { reauth: '1' }));
  return adminShell(engine, sessions, session);
}

function adminShell(engine: Engine, sessions: BrowserSessions, session: ReadSession): PageResponse {
  const user = session.user!;
  const siteName = esc(engine.site.info.name);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<title>Dashboard &lsaquo; ${siteName}</title>
</head><body class="wp-admin">
<header><a href="${esc(engine.site.url('/'))}">${siteName}</a> <span id="howdy">Howdy, ${esc(user.display_name || user.login)}</span> <a id="logout" href="${esc(logoutUrl(engine, sessions, session))}">Log Out</a></header>
<main id="admin-root"><h1>Dashboard</h1></main>
<script type="application/json" id="cms-admin-settings">${JSON.stringify({ root: engine.site.apiRoot, nonce: sessions.nonce(session, REST_NONCE_ACTION) }).replace(/</g, '\\u003c')}</script>
</body></html>`;
  return { status: 200, headers: { ...SECURITY_HEADERS }, body: html };
}
