import type { CmsEngine as Engine } from '../../core/context.ts';
import type { PageRequest, PageResponse } from '../../engine/server.ts';
import { RestError } from '../../engine/errors.ts';
import { newUserMessages, passwordChangedMessage, passwordResetMessage, sendMail } from '../../core/notices.ts';
import { sanitizeSlug } from '../../store/transact.ts';
import type { UserRow } from '../../store/users.ts';
import { esc, formOf, linkExpired, loginScreen, redirectTo } from './login-screen.ts';
import { checkResetKey, createResetKey, resetPassword } from '../../auth/password-reset.ts';
import { generatePassword, hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { BrowserSessions, type ReadSession, type Session } from '../../auth/session.ts';
import { isRole } from '../../auth/roles.ts';
import { FailureThrottle } from '../../auth/throttle.ts';
import { findAccount, isValidUsername, LOGIN_MAX, NICENAME_MAX, passwordProblem, uniqueNicename } from '../../auth/users.ts';
import { decodePercent } from '../../engine/url-decoding.ts';

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

/** The messages the login screen shows on arrival, by query arg (wp-login.php's `loggedout`, `checkemail`...), as HTML. */
const arrivalMessages = (login: string): Record<string, Record<string, string>> => ({
  loggedout: { true: 'You are now logged out.' },
  reauth: { '1': 'Please log in to continue.' },
  checkemail: {
    confirm: `Check your email for the confirmation link, then visit the <a href="${esc(login)}">login page</a>.`,
    registered: `Registration complete. Please check your email, then visit the <a href="${esc(login)}">login page</a>.`,
  },
  registration: { disabled: 'User registration is currently not allowed.' },
  password: { reset: `Your password has been reset. <a href="${esc(login)}">Log in</a>` },
});

interface FormState {
  /** HTML. */
  error?: string;
  /** HTML. */
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
  if (action === 'lostpassword' || action === 'retrievepassword') return lostPassword(req, engine, sessions, session, existing);
  if (action === 'rp' || action === 'resetpass') return resetPasswordScreen(req, engine, sessions, session);
  if (action === 'register') return register(req, engine, sessions, session, existing);
  const redirect = typeof req.query.redirect_to === 'string' ? req.query.redirect_to : '';
  if (req.method !== 'POST') {
    const message = Object.entries(arrivalMessages(loginUrl(engine)))
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

/** The notice above a form: an error (role=alert) or a message (role=status). */
const notice = (state: FormState) =>
  state.error ? `<div id="login_error" class="error" role="alert"><p>${state.error}</p></div>` : state.message ? `<p class="message" role="status">${state.message}</p>` : '';

/** The links below the card: the screens this one is not. */
function navLinks(engine: Engine, registration: boolean, except: 'login' | 'lostpassword' | 'register'): string {
  const links = [
    except !== 'login' ? `<a href="${esc(loginUrl(engine))}">Log in</a>` : '',
    registration && except !== 'register' ? `<a href="${esc(`${engine.site.url(loginPath(engine))}?action=register`)}">Register</a>` : '',
    except !== 'lostpassword' ? `<a href="${esc(lostPasswordUrl(engine))}">Lost your password?</a>` : '',
  ].filter(Boolean);
  return `<p class="nav" id="nav">${links.join(' | ')}</p>\n`;
}

function loginForm(engine: Engine, sessions: BrowserSessions, session: Session, redirect: string, state: FormState, extra: Record<string, string> = {}): PageResponse {
  return loginScreen(
    engine,
    state.status ?? 200,
    'Log In',
    `${notice(state)}<form name="loginform" id="loginform" method="post" action="${esc(engine.site.url(loginPath(engine)))}">
<input type="hidden" name="_token" value="${sessions.csrf(session, 'login')}">
<input type="hidden" name="redirect_to" value="${esc(redirect)}">
<label for="user_login">Username or Email Address</label><input type="text" name="log" id="user_login" autocomplete="username" value="${esc(state.login ?? '')}" required>
<label for="user_pass">Password</label><input type="password" name="pwd" id="user_pass" autocomplete="current-password" required>
<p><label><input name="rememberme" type="checkbox" id="rememberme" value="forever"> Remember Me</label></p>
<button type="submit" id="wp-submit">Log In</button>
</form>`,
    { 'Set-Cookie': sessions.cookie(session, engine.site.home), ...extra },
    navLinks(engine, false, 'login'),
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

/** How many reset links one address may ask for in a minute: each one is a mail to someone's inbox. */
const RESET_REQUESTS = 5;
const resetRequestThrottles = new WeakMap<object, FailureThrottle>();
const resetRequestThrottle = (engine: Engine) => {
  let t = resetRequestThrottles.get(engine.store);
  if (!t) resetRequestThrottles.set(engine.store, (t = new FailureThrottle(engine.store, 'lost-password', RESET_REQUESTS)));
  return t;
};

/** The error a reset link that does not work sends the visitor back with (wp-login.php's `error` arg). */
const KEY_ERRORS: Record<string, string> = {
  invalidkey: 'Your password reset link appears to be invalid. Please request a new link below.',
  expiredkey: 'Your password reset link has expired. Please request a new link below.',
};

function lostPasswordForm(engine: Engine, sessions: BrowserSessions, session: Session, state: FormState, registration: boolean, extra: Record<string, string> = {}): PageResponse {
  const intro = state.error ? '' : '<p class="message" role="status">Please enter your username or email address. You will receive an email message with instructions on how to reset your password.</p>';
  return loginScreen(
    engine,
    state.status ?? 200,
    'Lost Password',
    `${notice(state)}${intro}<form name="lostpasswordform" id="lostpasswordform" method="post" action="${esc(lostPasswordUrl(engine))}">
<input type="hidden" name="_token" value="${sessions.csrf(session, 'lostpassword')}">
<label for="user_login">Username or Email Address</label><input type="text" name="user_login" id="user_login" autocomplete="username" value="${esc(state.login ?? '')}" required>
<button type="submit" id="wp-submit">Get New Password</button>
</form>`,
    { 'Set-Cookie': sessions.cookie(session, engine.site.home), ...extra },
    navLinks(engine, registration, 'lostpassword'),
  );
}

const registrationOpen = async (engine: Engine) => ((await engine.store.options.get('users_can_register')) ?? '0') === '1';

/**
 * action=lostpassword (retrieve_password): a username or email address; the account's owner is
 * mailed a link with a new one-time key. Who asks learns only that it was sent, or that there is
 * no such account (as WordPress says). Requests are limited per address.
 */
async function lostPassword(req: PageRequest, engine: Engine, sessions: BrowserSessions, session: Session, existing: ReadSession | null): Promise<PageResponse> {
  const registration = await registrationOpen(engine);
  if (req.method !== 'POST') {
    const error = typeof req.query.error === 'string' ? KEY_ERRORS[req.query.error] : undefined;
    return lostPasswordForm(engine, sessions, session, { error }, registration);
  }
  const form = formOf(req.body);
  if (!existing || !sessions.checkCsrf(session, 'lostpassword', form.get('_token'))) return linkExpired(engine, lostPasswordUrl(engine));
  const login = (form.get('user_login') ?? '').trim();
  if (!login) return lostPasswordForm(engine, sessions, session, { status: 400, error: '<strong>Error:</strong> Please enter a username or email address.' }, registration);
  const throttle = resetRequestThrottle(engine);
  try {
    await throttle.check(req.ip);
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    return lostPasswordForm(engine, sessions, session, { status: 429, error: `<strong>Error:</strong> ${esc(e.message)}`, login }, registration, e.headers);
  }
  await throttle.fail(req.ip);
  const account = await findAccount(engine.store, login);
  if ('error' in account) return lostPasswordForm(engine, sessions, session, { status: 400, error: '<strong>Error:</strong> There is no account with that username or email address.', login }, registration);
  const key = await createResetKey(engine.store, account.row);
  // the requester's address is told to the owner only when nobody logged in asked (retrieve_password)
  const sent = await sendMail(engine.site, passwordResetMessage(engine.site, account.row, key, existing.user ? null : req.ip));
  if (!sent)
    return lostPasswordForm(engine, sessions, session, { status: 500, error: '<strong>Error:</strong> The email could not be sent. Your site may not be correctly configured to send emails.', login }, registration);
  return redirectTo(loginUrl(engine, undefined, { checkemail: 'confirm' }), {}, 303);
}

const RESET_COOKIE = 'cms_resetpass';

/** The reset cookie: the login and key, readable only by the login screen, for this browser session. */
function resetCookie(engine: Engine, value: string | null): string {
  const secure = engine.site.home.startsWith('https:') ? '; Secure' : '';
  const path = new URL(engine.site.url(loginPath(engine))).pathname;
  return value === null ? `${RESET_COOKIE}=; Path=${path}; HttpOnly; SameSite=Lax${secure}; Max-Age=0` : `${RESET_COOKIE}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * action=rp and resetpass: the link from the mail (key and login in its query) is checked, its
 * key moved into a cookie and the browser sent to the same screen without it, so the key never
 * reaches another site in a Referer; the form then sets the new password, which uses the key up,
 * ends the account's sessions and tells the administrator (wp_password_change_notification).
 */
async function resetPasswordScreen(req: PageRequest, engine: Engine, sessions: BrowserSessions, session: Session): Promise<PageResponse> {
  const { store, site } = engine;
  const back = (code: 'invalid_key' | 'expired_key') =>
    redirectTo(`${lostPasswordUrl(engine)}&error=${code === 'expired_key' ? 'expiredkey' : 'invalidkey'}`, { 'Set-Cookie': resetCookie(engine, null) });
  const here = `${site.url(loginPath(engine))}?action=rp`;
  if (req.method !== 'POST' && typeof req.query.key === 'string' && typeof req.query.login === 'string') {
    const checked = await checkResetKey(store, req.query.key, req.query.login);
    if (typeof checked === 'string') return back(checked);
    return redirectTo(here, { 'Set-Cookie': resetCookie(engine, `${checked.login}:${req.query.key}`) });
  }
  const cookie = req.headers.cookie?.split(';').map((c) => c.trim()).find((c) => c.startsWith(`${RESET_COOKIE}=`));
  // PHP decodes a cookie whatever its escapes; one that cannot be decoded names no reset key
  const value = (cookie && decodePercent(cookie.slice(RESET_COOKIE.length + 1))) || '';
  const colon = value.lastIndexOf(':');
  if (colon <= 0) return back('invalid_key');
  const [login, key] = [value.slice(0, colon), value.slice(colon + 1)];
  const checked = await checkResetKey(store, key, login);
  if (typeof checked === 'string') return back(checked);

  const form = (error = '', status = 200) =>
    loginScreen(
      engine,
      status,
      'Reset Password',
      `${notice({ error })}<p class="message" role="status">Enter your new password below or generate one.</p>
<form name="resetpassform" id="resetpassform" method="post" action="${esc(`${site.url(loginPath(engine))}?action=resetpass`)}" autocomplete="off">
<input type="hidden" name="rp_key" value="${esc(key)}">
<label for="pass1">New password</label><input type="password" name="pass1" id="pass1" autocomplete="new-password" value="${esc(generatePassword(24))}" required>
<p class="description">Hint: The password should be at least twelve characters long. To make it stronger, use upper and lower case letters, numbers, and symbols like ! " ? $ % ^ &amp; ).</p>
<button type="submit" id="wp-submit">Save Password</button>
</form>`,
      { 'Set-Cookie': sessions.cookie(session, site.home) },
      navLinks(engine, false, 'lostpassword'),
    );
  if (req.method !== 'POST') return form();
  const fields = formOf(req.body);
  // the key in the form must be the cookie's: a form posted from elsewhere cannot know it
  if (fields.get('rp_key') !== key) return back('invalid_key');
  const password = fields.get('pass1') ?? '';
  if (password.trim() === '') return form('<strong>Error:</strong> The password cannot be a space or all spaces.', 400);
  const problem = passwordProblem(password);
  if (problem) return form(`<strong>Error:</strong> ${esc(problem)}`, 400);
  await resetPassword(store, checked, password);
  const changed = await passwordChangedMessage(store, site, checked);
  if (changed) await sendMail(site, changed);
  return redirectTo(loginUrl(engine, undefined, { password: 'reset' }), { 'Set-Cookie': resetCookie(engine, null) }, 303);
}

/**
 * action=register (register_new_user), when the site lets visitors register (users_can_register):
 * a username and an email address make an account of the default role with a random password;
 * the new user is mailed a link to set their own, and the administrator is told
 * (wp_new_user_notification).
 */
async function register(req: PageRequest, engine: Engine, sessions: BrowserSessions, session: Session, existing: ReadSession | null): Promise<PageResponse> {
  const { store, site } = engine;
  if (!(await registrationOpen(engine))) return redirectTo(loginUrl(engine, undefined, { registration: 'disabled' }));
  const action = `${site.url(loginPath(engine))}?action=register`;
  const screen = (state: FormState & { email?: string }) =>
    loginScreen(
      engine,
      state.status ?? 200,
      'Registration Form',
      `${notice(state)}<p class="message" role="status">Register For This Site</p>
<form name="registerform" id="registerform" method="post" action="${esc(action)}" novalidate>
<input type="hidden" name="_token" value="${sessions.csrf(session, 'register')}">
<label for="user_login">Username</label><input type="text" name="user_login" id="user_login" autocomplete="username" value="${esc(state.login ?? '')}" required>
<label for="user_email">Email</label><input type="email" name="user_email" id="user_email" autocomplete="email" value="${esc(state.email ?? '')}" required>
<p id="reg_passmail">Registration confirmation will be emailed to you.</p>
<button type="submit" id="wp-submit">Register</button>
</form>`,
      { 'Set-Cookie': sessions.cookie(session, site.home) },
      navLinks(engine, true, 'register'),
    );
  if (req.method !== 'POST') return screen({});
  const form = formOf(req.body);
  if (!existing || !sessions.checkCsrf(session, 'register', form.get('_token'))) return linkExpired(engine, action);
  const login = (form.get('user_login') ?? '').trim();
  const email = (form.get('user_email') ?? '').trim();
  const refuse = (error: string) => screen({ status: 400, error: `<strong>Error:</strong> ${error}`, login, email });
  if (!login) return refuse('Please enter a username.');
  if (!isValidUsername(login) || [...login].length > LOGIN_MAX) return refuse('This username is invalid because it uses illegal characters. Please enter a valid username.');
  if (await store.users.byLogin(login)) return refuse('This username is already registered. Please choose another one.');
  if (!email) return refuse('Please type your email address.');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) return refuse('The email address is not correct.');
  if (await store.users.byEmail(email)) return refuse('This email is already registered. Please choose another one.');
  const wanted = (await store.options.get('default_role')) ?? '';
  const role = isRole(wanted) ? wanted : 'subscriber';
  const passwordHash = await hashPassword(generatePassword(24));
  const userId = await store.transaction(async (s) => {
    const nicename = await uniqueNicename(s, sanitizeSlug([...login].slice(0, NICENAME_MAX).join('')), login);
    const id = await s.users.insert({ login, email, display_name: login, nicename, role, password_hash: passwordHash });
    await s.users.meta.set(id, 'nickname', login);
    return id;
  });
  const user = (await store.users.get(userId))!;
  const key = await createResetKey(store, user);
  for (const m of await newUserMessages(store, site, user, key)) await sendMail(site, m);
  return redirectTo(loginUrl(engine, undefined, { checkemail: 'registered' }), {}, 303);
}
