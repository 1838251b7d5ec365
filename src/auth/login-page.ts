import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { RestError } from '../engine/errors.ts';
import type { UserRow } from '../store/users.ts';
import { esc, formOf, linkExpired, loginScreen, redirectTo } from './login-screen.ts';
import { verifyPassword } from './passwords.ts';
import { BrowserSessions, type ReadSession, type Session } from './session.ts';
import { findAccount } from './users.ts';

/** The login screen's address (wp-login.php), under the admin's. */
export const loginPath = (engine: Engine) => `${engine.site.adminPath}login`;

/** wp_login_url(): the login screen, sending the browser to `redirectTo` afterwards. */
export function loginUrl(engine: Engine, redirect?: string, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams(extra);
  if (redirect) q.set('redirect_to', redirect);
  const qs = q.toString();
  return engine.site.url(loginPath(engine)) + (qs ? `?${qs}` : '');
}

/** wp_logout_url(): a link that logs this session out, carrying its token. */
export const logoutUrl = (engine: Engine, sessions: BrowserSessions, session: Session) => `${engine.site.url(loginPath(engine))}?action=logout&_wpnonce=${sessions.csrf(session, 'log-out')}`;

/**
 * wp_validate_redirect(): only this site's own addresses; anything else (another host, `//host`,
 * a scheme, a backslash trick) falls back to the admin.
 */
export function safeRedirect(engine: Engine, to: string | null | undefined): string {
  const fallback = engine.site.url(engine.site.adminPath);
  if (!to || /[\\\s]/.test(to)) return fallback;
  try {
    const home = new URL(engine.site.home || 'http://localhost/');
    const url = new URL(to, home);
    return url.origin === home.origin ? url.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** wp-login.php's messages for a failed login (wp_authenticate_username_password, wp_authenticate_email_password). */
function loginError(kind: 'empty_username' | 'empty_password' | 'invalid_username' | 'invalid_email' | 'incorrect_password', login: string, lostPassword: string, byEmail: boolean): string {
  switch (kind) {
    case 'empty_username':
      return '<strong>Error:</strong> The username field is empty.';
    case 'empty_password':
      return '<strong>Error:</strong> The password field is empty.';
    case 'invalid_username':
      return `<strong>Error:</strong> The username <strong>${esc(login)}</strong> is not registered on this site. If you are unsure of your username, try your email address instead.`;
    case 'invalid_email':
      return '<strong>Error:</strong> Unknown email address. Check again or try your username.';
    case 'incorrect_password':
      return `<strong>Error:</strong> The password you entered for the ${byEmail ? 'email address' : 'username'} <strong>${esc(login)}</strong> is incorrect. <a href="${esc(lostPassword)}">Lost your password?</a>`;
  }
}

/** The messages the login screen shows on arrival, by query arg (wp-login.php's `loggedout`, `checkemail`...). */
const ARRIVAL_MESSAGES: Record<string, Record<string, string>> = {
  loggedout: { true: 'You are now logged out.' },
  reauth: { '1': 'Please log in to continue.' },
};

interface FormState {
  error?: string;
  message?: string;
  login?: string;
  status?: number;
}

/**
 * The admin's login screen, WordPress's wp-login.php: log in with a username or email address
 * and the account password (throttled per address with the authorization page, see session.ts),
 * and log out (a link carrying a token, so another site cannot log a visitor out). Every form
 * posts a CSRF token bound to the browser's session cookie; a login gives the browser a new
 * session, recorded on the server so that logging out ends it everywhere.
 */
export async function loginPage(req: PageRequest, engine: Engine): Promise<PageResponse> {
  if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'POST') return loginScreen(engine, 405, 'Method Not Allowed', '<p>Use GET or POST.</p>', { Allow: 'GET, HEAD, POST' });
  const sessions = await BrowserSessions.of(engine.store);
  const existing = await sessions.read(req.headers.cookie);
  const action = typeof req.query.action === 'string' ? req.query.action : 'login';
  if (action === 'logout') return logout(req, engine, sessions, existing);
  const session = existing ?? sessions.anonymous();
  const redirect = typeof req.query.redirect_to === 'string' ? req.query.redirect_to : '';
  if (req.method !== 'POST') {
    const message = Object.entries(ARRIVAL_MESSAGES)
      .map(([arg, texts]) => (typeof req.query[arg] === 'string' ? texts[req.query[arg] as string] : undefined))
      .find(Boolean);
    return loginForm(engine, sessions, session, redirect, { message });
  }

  const form = formOf(req.body);
  const redirectAfter = form.get('redirect_to') ?? redirect;
  // the form's token rides on the cookie the form was served with: none back means the browser keeps no cookies
  if (!existing) return loginForm(engine, sessions, session, redirectAfter, { status: 400, error: '<strong>Error:</strong> Cookies are blocked or not supported by your browser. You must enable cookies to log in.' });
  if (!sessions.checkCsrf(session, 'login', form.get('_token'))) return linkExpired(engine, loginUrl(engine, redirectAfter || undefined));
  const login = (form.get('log') ?? '').trim();
  const password = form.get('pwd') ?? '';
  try {
    await sessions.throttle.check(req.ip);
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return loginForm(engine, sessions, session, redirectAfter, { status: 429, error: `<strong>Error:</strong> ${esc(e.message)}`, login }, e.headers);
  }
  const problem = await checkLogin(engine, login, password);
  if (typeof problem === 'string') {
    // an empty field is a slip, not a guess: only wrong credentials count against the address
    if (!problem.includes('field is empty')) await sessions.throttle.fail(req.ip);
    return loginForm(engine, sessions, session, redirectAfter, { status: 401, error: problem, login });
  }
  const fresh = await sessions.logIn(problem, req.ip, req.headers['user-agent'] ?? '', form.get('rememberme') === 'forever');
  return redirectTo(safeRedirect(engine, redirectAfter), { 'Set-Cookie': sessions.cookie(fresh, engine.site.home) }, 303);
}

/** The account a login and password open, or the login screen's error for why none does. */
async function checkLogin(engine: Engine, login: string, password: string): Promise<UserRow | string> {
  const lost = lostPasswordUrl(engine);
  if (!login) return loginError('empty_username', login, lost, false);
  if (!password) return loginError('empty_password', login, lost, false);
  const account = await findAccount(engine.store, login);
  if ('error' in account) return loginError(account.error, login, lost, false);
  if (!(await verifyPassword(password, account.row.password_hash))) return loginError('incorrect_password', login, lost, account.row.login !== login);
  return account.row;
}

/** wp_lostpassword_url(). */
export const lostPasswordUrl = (engine: Engine) => `${engine.site.url(loginPath(engine))}?action=lostpassword`;

function loginForm(engine: Engine, sessions: BrowserSessions, session: Session, redirect: string, state: FormState, extra: Record<string, string> = {}): PageResponse {
  const notice = state.error ? `<div id="login_error" class="error" role="alert"><p>${state.error}</p></div>` : state.message ? `<p class="message" role="status">${esc(state.message)}</p>` : '';
  return loginScreen(
    engine,
    state.status ?? 200,
    'Log In',
    `${notice}<form name="loginform" id="loginform" method="post" action="${esc(engine.site.url(loginPath(engine)))}">
<input type="hidden" name="_token" value="${sessions.csrf(session, 'login')}">
<input type="hidden" name="redirect_to" value="${esc(redirect)}">
<label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login" autocomplete="username" value="${esc(state.login ?? '')}" required>
<label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" required>
<p><label><input name="rememberme" type="checkbox" id="rememberme" value="forever"> Remember Me</label></p>
<button type="submit" id="wp-submit">Log In</button>
</form>`,
    { 'Set-Cookie': sessions.cookie(session, engine.site.home), ...extra },
    `<p class="nav" id="nav"><a href="${esc(lostPasswordUrl(engine))}">Lost your password?</a></p>\n`,
  );
}

/**
 * action=logout: with this session's token the session is ended (on the server too) and the
 * cookie removed; without it, nothing happens and the visitor is asked to confirm (wp_nonce_ays).
 */
async function logout(req: PageRequest, engine: Engine, sessions: BrowserSessions, session: ReadSession | null): Promise<PageResponse> {
  const token = req.query._wpnonce;
  if (!session?.user) return redirectTo(loginUrl(engine, undefined, { loggedout: 'true' }), { 'Set-Cookie': sessions.clearedCookie(engine.site.home) });
  if (!sessions.checkCsrf(session, 'log-out', token)) {
    const name = esc(engine.site.info.name);
    return loginScreen(engine, 403, 'Something went wrong', `<p>You are attempting to log out of ${name}</p><p>Do you really want to <a href="${esc(logoutUrl(engine, sessions, session))}">log out</a>?</p>`);
  }
  await sessions.logOut(session);
  return redirectTo(loginUrl(engine, undefined, { loggedout: 'true' }), { 'Set-Cookie': sessions.clearedCookie(engine.site.home) });
}
