import type { CmsEngine as Engine } from '../../core/context.ts';
import type { PageRequest, PageResponse } from '../../engine/server.ts';
import { RestError } from '../../engine/errors.ts';
import { createAppPassword, chunkAppPassword, isUuid } from '../../auth/app-passwords.ts';
import { esc, formOf, linkExpired, loginScreen as page, redirectTo as redirect, SECURITY_HEADERS } from './login-screen.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { BrowserSessions, type Session } from '../../auth/session.ts';
import { findAccount } from '../../auth/users.ts';
import { approved, denied, readAuthorization, redirectUrlProblem, type Authorization } from '../../auth/oauth.ts';

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

/** add_query_arg() for a URL the caller gave; the args replace any of the same name. */
function withQuery(url: string, args: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(args)) u.searchParams.set(k, v);
  return u.toString();
}

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

function loginForm(engine: Engine, sessions: BrowserSessions, session: Session, r: AuthorizeRequest, error = '', login = ''): PageResponse {
  const intro = r.appName ? `<p>Log in to decide whether <strong>${esc(r.appName)}</strong> may connect to your account on ${esc(engine.site.info.name)}.</p>` : `<p>Log in to ${esc(engine.site.info.name)} to authorize an application.</p>`;
  return page(
    engine,
    error ? 401 : 200,
    'Log In',
    `${intro}${error ? `<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="${esc(selfUrl(engine, r))}">
<input type="hidden" name="action" value="login"><input type="hidden" name="_token" value="${sessions.csrf(session, 'login')}">
<label for="log">Username or Email Address</label><input type="text" name="log" id="log" autocomplete="username" value="${esc(login)}" required>
<label for="pwd">Password</label><input type="password" name="pwd" id="pwd" autocomplete="current-password" required>
<button type="submit" id="wp-submit">Log In</button>
</form>`,
    { 'Set-Cookie': sessions.cookie(session, engine.site.home) },
  );
}

/** Where a redirect goes, as the user can judge it: the origin, or the scheme of an app's own URL (`myapp:`), whose origin is "null". */
function shownAddress(url: string): string {
  const u = new URL(url);
  return u.origin === 'null' ? u.protocol : u.origin;
}

function approvalForm(engine: Engine, sessions: BrowserSessions, session: Session, r: AuthorizeRequest, login: string, error = ''): PageResponse {
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
<input type="hidden" name="_token" value="${sessions.csrf(session, 'authorize')}">
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
  const sessions = await BrowserSessions.of(engine.store);
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

  const existing = await sessions.read(req.headers.cookie);
  const session = existing ?? sessions.anonymous();
  const user = existing?.user;

  if (req.method !== 'POST') return user ? approvalForm(engine, sessions, session, r, user.login) : loginForm(engine, sessions, session, r);

  const form = formOf(req.body);
  const action = form.get('action');
  const expired = () => linkExpired(engine, selfUrl(engine, r));

  if (action === 'login') {
    if (!existing || !sessions.checkCsrf(session, 'login', form.get('_token'))) return expired();
    const login = (form.get('log') ?? '').trim();
    try {
      await sessions.throttle.check(req.ip);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      return page(engine, 429, 'Log In', `<p class="error" role="alert">${esc(e.message)}</p>`, e.headers);
    }
    const account = login ? await findAccount(store, login) : null;
    const row = account && 'row' in account ? account.row : undefined;
    if (!row || !(await verifyPassword(form.get('pwd') ?? '', row.password_hash))) {
      await sessions.throttle.fail(req.ip);
      return loginForm(engine, sessions, session, r, '<strong>Error:</strong> The username, email address or password you entered is incorrect.', login);
    }
    const fresh = await sessions.logIn(row, req.ip, req.headers['user-agent'] ?? '');
    return { status: 303, headers: { ...SECURITY_HEADERS, Location: selfUrl(engine, r), 'Set-Cookie': sessions.cookie(fresh, engine.site.home) }, body: '' };
  }

  if (!user || !sessions.checkCsrf(session, 'authorize', form.get('_token'))) return user ? expired() : loginForm(engine, sessions, session, r);

  if (action === 'reject') {
    if (r.oauth) return redirect(denied(engine, r.oauth));
    const to = r.rejectUrl || r.successUrl;
    return redirect(to ? withQuery(to, { success: 'false' }) : engine.site.url('/'));
  }
  if (action !== 'approve') return approvalForm(engine, sessions, session, r, user.login, 'Choose Approve or Reject.');

  let created;
  try {
    created = await createAppPassword(store, user.id, { name: form.get('app_name') ?? r.appName, appId: r.appId || undefined });
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return approvalForm(engine, sessions, session, r, user.login, e.message);
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
