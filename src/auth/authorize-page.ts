import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { RestError } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import { createAppPassword, chunkAppPassword, isUuid } from './app-passwords.ts';
import { verifyPassword } from './passwords.ts';
import { purposeKey, siteSecret } from './secret.ts';
import { checkCsrf, cookieValue, csrfToken, issueSession, readSession, SESSION_COOKIE, SESSION_TTL_S, type Session } from './session.ts';
import { FailureThrottle } from './throttle.ts';
import { findAccount } from './users.ts';
import { approved, denied, readAuthorization, redirectUrlProblem, type Authorization } from './oauth.ts';

/** Per-site state of the page: its keys (read once) and its own failed-login throttle. */
interface PageState {
  sessionKey: Buffer;
  csrfKey: Buffer;
  throttle: FailureThrottle;
}
const states = new WeakMap<Engine, Promise<PageState>>();

function stateOf(engine: Engine): Promise<PageState> {
  let s = states.get(engine);
  if (!s) {
    s = siteSecret(engine.store).then((secret) => ({ sessionKey: purposeKey(secret, 'session'), csrfKey: purposeKey(secret, 'csrf'), throttle: new FailureThrottle(engine.store, 'authorize-page') }));
    s.catch(() => states.delete(engine));
    states.set(engine, s);
  }
  return s;
}

/** The request's query args, as authorize-application.php reads them; or an OAuth authorization request (oauth.ts). */
interface AuthorizeRequest {
  appName: string;
  appId: string;
  successUrl: string;
  rejectUrl: string;
  oauth: Authorization | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function readRequest(query: Record<string, unknown>): { request: AuthorizeRequest; problems: string[] } {
  const request: AuthorizeRequest = { appName: str(query.app_name), appId: str(query.app_id), successUrl: str(query.success_url), rejectUrl: str(query.reject_url), oauth: null };
  const problems: string[] = [];
  if (request.appId && !isUuid(request.appId)) problems.push('The application ID must be a UUID.');
  for (const url of [request.successUrl, request.rejectUrl]) {
    const p = redirectUrlProblem(url);
    if (p) problems.push(p);
  }
  return { request, problems };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** add_query_arg() for a URL the caller gave; the args replace any of the same name. */
function withQuery(url: string, args: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(args)) u.searchParams.set(k, v);
  return u.toString();
}

const SECURITY_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'Cache-Control': 'no-cache, no-store, private',
  // the approval buttons must never be clickable inside someone else's frame
  'X-Frame-Options': 'DENY',
  // no form-action: Chromium applies it to the redirect to success_url after the form is posted
  'Content-Security-Policy': "frame-ancestors 'none'; default-src 'self'; style-src 'unsafe-inline'",
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * WordPress's login screen (wp-login.php): the site's name above a centred card of 320 px (so a
 * phone keeps a margin either side), the form's fields full width, a visible focus ring, and the
 * way back to the site below.
 */
const LOGIN_STYLE = `body{margin:0;background:#f0f0f1;color:#3c434a;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Oxygen-Sans,Ubuntu,Cantarell,"Helvetica Neue",sans-serif;font-size:13px;line-height:1.4}
#login{width:320px;max-width:calc(100% - 2rem);margin:auto;padding:8% 0 2rem}
.site-name{margin:0 0 1.5rem;text-align:center;font-size:1.6rem;font-weight:600;line-height:1.3}
.site-name a{color:#3c434a;text-decoration:none}
.login-card{padding:26px 24px;background:#fff;border:1px solid #c3c4c7;box-shadow:0 1px 3px rgba(0,0,0,.04);overflow-wrap:anywhere}
.login-card h1{margin:0 0 1rem;font-size:1.25rem;font-weight:600}
label{display:block;margin:0 0 3px;font-size:14px}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;min-height:40px;margin:0 0 16px;padding:0 8px;font-size:20px;line-height:1.33;background:#fff;border:1px solid #8c8f94;border-radius:4px;color:#2c3338}
input:focus{border-color:#2271b1;box-shadow:0 0 0 1px #2271b1;outline:2px solid transparent}
button{min-height:32px;margin:.25rem .5rem .25rem 0;padding:0 12px;font-size:13px;line-height:2.15;border:1px solid #2271b1;border-radius:3px;background:#f6f7f7;color:#2271b1;cursor:pointer}
button#wp-submit,button#approve{background:#2271b1;color:#fff}
button:focus-visible,a:focus-visible{outline:2px solid transparent;box-shadow:0 0 0 1px #fff,0 0 0 3px #2271b1}
.error{margin:0 0 16px;padding:12px;border-left:4px solid #d63638;background:#fff;box-shadow:0 1px 1px rgba(0,0,0,.04)}
code{font-size:1.2em}
.back-to-site{margin:24px 0 0;padding:0 24px}
.back-to-site a{color:#50575e;text-decoration:none}`;

function page(engine: Engine, status: number, title: string, body: string, extra: Record<string, string> = {}): PageResponse {
  const home = esc(engine.site.url('/'));
  const siteName = esc(engine.site.info.name);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<title>${esc(title)} &lsaquo; ${siteName}</title>
<style>${LOGIN_STYLE}</style>
</head><body class="login"><div id="login">
<p class="site-name"><a href="${home}">${siteName}</a></p>
<main class="login-card">
<h1>${esc(title)}</h1>
${body}
</main>
<p class="back-to-site"><a href="${home}">&larr; Go to ${siteName}</a></p>
</div></body></html>`;
  return { status, headers: { ...SECURITY_HEADERS, ...extra }, body: html };
}

const redirect = (to: string, extra: Record<string, string> = {}): PageResponse => ({ status: 302, headers: { ...SECURITY_HEADERS, Location: to, ...extra }, body: '' });

function sessionCookie(engine: Engine, session: Session): string {
  const secure = engine.site.home.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${session.value}; Path=${engine.site.authPath}; Max-Age=${SESSION_TTL_S}; HttpOnly; SameSite=Lax${secure}`;
}

const passwordHashOf = (store: Store) => async (userId: number) => (userId === 0 ? '' : (await store.users.get(userId))?.password_hash);

/** The form's own address: the page with the request's query args, so every step keeps them. */
function selfUrl(engine: Engine, r: AuthorizeRequest): string {
  if (r.oauth) return `${engine.site.authPath}?${new URLSearchParams(r.oauth.query)}`;
  const q = new URLSearchParams();
  if (r.appName) q.set('app_name', r.appName);
  if (r.appId) q.set('app_id', r.appId);
  if (r.successUrl) q.set('success_url', r.successUrl);
  if (r.rejectUrl) q.set('reject_url', r.rejectUrl);
  const qs = q.toString();
  return engine.site.authPath + (qs ? `?${qs}` : '');
}

function loginForm(engine: Engine, keys: PageState, session: Session, r: AuthorizeRequest, error = '', login = ''): PageResponse {
  const intro = r.appName ? `<p>Log in to decide whether <strong>${esc(r.appName)}</strong> may connect to your account on ${esc(engine.site.info.name)}.</p>` : `<p>Log in to ${esc(engine.site.info.name)} to authorize an application.</p>`;
  return page(
    engine,
    error ? 401 : 200,
    'Log In',
    `${intro}${error ? `<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${esc(selfUrl(engine, r))}">
<input type="hidden" name="action" value="login"><input type="hidden" name="_token" value="${csrfToken(keys.csrfKey, session, 'login')}">
<label for="log">Username or Email Address</label><input type="text" name="log" id="log" autocomplete="username" value="${esc(login)}" required>
<label for="pwd">Password</label><input type="password" name="pwd" id="pwd" autocomplete="current-password" required>
<button type="submit" id="wp-submit">Log In</button>
</form>`,
    { 'Set-Cookie': sessionCookie(engine, session) },
  );
}

/** Where a redirect goes, as the user can judge it: the origin, or the scheme of an app's own URL (`myapp:`), whose origin is "null". */
function shownAddress(url: string): string {
  const u = new URL(url);
  return u.origin === 'null' ? u.protocol : u.origin;
}

function approvalForm(engine: Engine, keys: PageState, session: Session, r: AuthorizeRequest, login: string, error = ''): PageResponse {
  const who = r.appName ? `<strong>${esc(r.appName)}</strong>` : 'an application';
  const where = r.oauth
    ? `<p>You will be sent back to <code>${esc(shownAddress(r.oauth.redirectUri))}</code> afterwards; the application gets a token that acts as the new application password, until you revoke it.</p>`
    : r.successUrl
      ? `<p>You will be sent to <code>${esc(shownAddress(r.successUrl))}</code> afterwards, with the new password.</p>`
      : '<p>The new password will be shown on the next screen.</p>';
  return page(
    engine,
    error ? 400 : 200,
    'Authorize Application',
    `<p>Howdy, <strong>${esc(login)}</strong>. Would you like to give ${who} access to your account? You should only do this if you trust the app in question.</p>
${where}${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${esc(selfUrl(engine, r))}">
<input type="hidden" name="_token" value="${csrfToken(keys.csrfKey, session, 'authorize')}">
<label for="app_name">New Application Password Name</label><input type="text" name="app_name" id="app_name" value="${esc(r.appName)}" required>
<button type="submit" name="action" value="approve" id="approve">Yes, I approve of this connection</button>
<button type="submit" name="action" value="reject" id="reject" formnovalidate>No, I do not approve of this connection</button>
</form>`,
  );
}

/**
 * The application-authorization page (wp-admin/authorize-application.php): log in with the
 * account password, then approve (a new application password, handed to `success_url`) or reject.
 * Every POST carries a CSRF token bound to the browser's signed session cookie.
 */
export async function authorizePage(req: PageRequest, engine: Engine): Promise<PageResponse> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return page(engine, 405, 'Method Not Allowed', '<p>Use GET or POST.</p>', { Allow: 'GET, HEAD, POST' });
  const keys = await stateOf(engine);
  const { store } = engine;
  const { request: r, problems } = readRequest(req.query);
  // an OAuth client's authorization request (RFC 6749 §4.1.1): the same page, answered with a code on the client's redirect URI
  if (req.query.response_type !== undefined || req.query.client_id !== undefined) {
    const read = await readAuthorization(engine, req.query);
    if ('redirect' in read) return redirect(read.redirect);
    if ('problem' in read) problems.push(read.problem);
    else Object.assign(r, { oauth: read.ok, appName: read.ok.clientName });
  }
  if (problems.length)
    return page(engine, 400, 'Cannot Authorize Application', `<p>The Authorize Application request is not allowed.</p><ul>${problems.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`);

  const existing = await readSession(keys.sessionKey, cookieValue(req.headers.cookie, SESSION_COOKIE), passwordHashOf(store));
  const session = existing ?? issueSession(keys.sessionKey, 0, '');
  const user = session.userId ? await store.users.get(session.userId) : undefined;

  if (req.method !== 'POST') return user ? approvalForm(engine, keys, session, r, user.login) : loginForm(engine, keys, session, r);

  const form = new URLSearchParams(req.body.toString('utf8'));
  const action = form.get('action');
  const expired = () => page(engine, 403, 'Something went wrong', `<p>The link you followed has expired. <a href="${esc(selfUrl(engine, r))}">Please try again.</a></p>`);

  if (action === 'login') {
    if (!existing || !checkCsrf(keys.csrfKey, session, 'login', form.get('_token'))) return expired();
    const login = (form.get('log') ?? '').trim();
    try {
      await keys.throttle.check(req.ip);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return page(engine, 429, 'Log In', `<p class="error" role="alert">${esc(e.message)}</p>`, e.headers);
    }
    const account = login ? await findAccount(store, login) : null;
    const row = account && 'row' in account ? account.row : undefined;
    if (!row || !(await verifyPassword(form.get('pwd') ?? '', row.password_hash))) {
      await keys.throttle.fail(req.ip);
      return loginForm(engine, keys, session, r, '<strong>Error:</strong> The username, email address or password you entered is incorrect.', login);
    }
    // a new nonce on login: a session planted before it cannot be ridden afterwards
    const fresh = issueSession(keys.sessionKey, row.id, row.password_hash);
    return { status: 303, headers: { ...SECURITY_HEADERS, Location: selfUrl(engine, r), 'Set-Cookie': sessionCookie(engine, fresh) }, body: '' };
  }

  if (!user || !checkCsrf(keys.csrfKey, session, 'authorize', form.get('_token'))) return user ? expired() : loginForm(engine, keys, session, r);

  if (action === 'reject') {
    if (r.oauth) return redirect(denied(engine, r.oauth));
    const to = r.rejectUrl || r.successUrl;
    return redirect(to ? withQuery(to, { success: 'false' }) : engine.site.url('/'));
  }
  if (action !== 'approve') return approvalForm(engine, keys, session, r, user.login, 'Choose Approve or Reject.');

  let created;
  try {
    created = await createAppPassword(store, user.id, { name: form.get('app_name') ?? r.appName, appId: r.appId || undefined });
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return approvalForm(engine, keys, session, r, user.login, e.message);
  }
  if (r.oauth) return redirect(await approved(engine, r.oauth, user.id, created.row.uuid));
  if (r.successUrl) return redirect(withQuery(r.successUrl, { site_url: engine.site.info.url, user_login: user.login, password: created.password }));
  return page(
    engine,
    200,
    'Authorize Application',
    `<p>Your new password for <strong>${esc(created.row.name)}</strong> is:</p><p><code id="new-application-password">${esc(chunkAppPassword(created.password))}</code></p><p>Be sure to save this in a safe location. You will not be able to retrieve it.</p>`,
  );
}
