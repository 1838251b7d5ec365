import assert from 'node:assert/strict';

/** The session cookie's `name=value` from an answer's Set-Cookie, or undefined when it sets none. */
export function sessionCookieOf(res: Response): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('cms_auth_session='));
  return set?.split(';')[0];
}

/** The value of a hidden form field on a page. */
export function hiddenField(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  assert.ok(m, `no field ${name} in ${html.slice(0, 400)}`);
  return m[1].replace(/&amp;/g, '&');
}

/** The login screen as a browser sees it first: its anonymous session cookie and the form's token. */
export async function openLoginScreen(home: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(`${home}/cms-admin/login`);
  assert.equal(res.status, 200);
  return { cookie: sessionCookieOf(res)!, token: hiddenField(await res.text(), '_token') };
}

/** Posts the login form as a browser does (with the cookie and token the screen gave it). */
export async function postLogin(home: string, screen: { cookie: string; token: string }, fields: Record<string, string>): Promise<Response> {
  return fetch(`${home}/cms-admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: screen.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _token: screen.token, ...fields }).toString(),
  });
}

export interface BrowserLogin {
  /** The `cms_auth_session=...` Cookie header value of the logged-in session. */
  cookie: string;
  /** The session's REST nonce, as the admin page hands it to its scripts. */
  nonce: string;
}

/** Logs in through the login screen, then reads the REST nonce the admin page carries. */
export async function logIn(home: string, login: string, password: string): Promise<BrowserLogin> {
  const res = await postLogin(home, await openLoginScreen(home), { log: login, pwd: password });
  assert.equal(res.status, 303, await res.text());
  const cookie = sessionCookieOf(res)!;
  const nonce = await (await fetch(`${home}/cms-admin/rest-nonce`, { headers: { cookie } })).text();
  assert.match(nonce, /^[0-9a-f]{10}$/);
  return { cookie, nonce };
}
