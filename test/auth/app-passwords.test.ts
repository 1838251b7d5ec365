import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { basicAuth, startTestServer, useServer, type TestServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

const collection = (user: number | 'me') => `cms/v2/users/${user}/application-passwords`;

async function create(server: TestServer, auth: string, body: Record<string, unknown>, user: number | 'me' = 'me') {
  const r = await server.call(collection(user), { method: 'POST', json: body, auth });
  return { status: r.status, location: r.headers.get('location'), body: (await r.json()) as Record<string, any> };
}

describe('application passwords over the REST routes', () => {
  const server = useServer();
  let author: TestUser;
  before(async () => {
    author = await userAuth(server, 'author');
  });

  test('create answers 201 with Location and the password once, chunked; list and read never show it', async () => {
    const made = await create(server, author.auth, { name: 'Phone app', app_id: '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a' });
    assert.equal(made.status, 201);
    assert.match(made.body.password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    assert.equal(made.body.name, 'Phone app');
    assert.equal(made.body.app_id, '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a');
    assert.match(made.body.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    assert.equal(made.body.last_used, null);
    const self = `${server.api}cms/v2/users/${author.userId}/application-passwords/${made.body.uuid}`;
    assert.equal(made.location, self);
    assert.equal(made.body._links.self[0].href, self);

    const list = (await (await server.call(collection('me'), { auth: author.auth })).json()) as Record<string, unknown>[];
    const listed = list.find((p) => p.uuid === made.body.uuid)!;
    assert.deepEqual(Object.keys(listed), ['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', '_links']);
    const one = (await (await server.call(`${collection(author.userId)}/${made.body.uuid}`, { auth: author.auth })).json()) as Record<string, unknown>;
    assert.equal(one.name, 'Phone app');
    assert.equal('password' in one, false);

    // the new password works, with and without its spaces
    for (const password of [made.body.password, made.body.password.replaceAll(' ', '')]) {
      const me = await server.call(`${collection('me')}/introspect`, { auth: basicAuth(author.login, password) });
      assert.equal(me.status, 200);
      assert.equal(((await me.json()) as Record<string, unknown>).uuid, made.body.uuid);
    }
  });

  test('names: required, unique regardless of case, renamed with POST/PUT/PATCH', async () => {
    const empty = await create(server, author.auth, { name: '   ' });
    assert.equal(empty.status, 400);
    const tagsOnly = await create(server, author.auth, { name: '<b></b>' });
    assert.equal(tagsOnly.body.code, 'application_password_empty_name');
    assert.equal(tagsOnly.status, 400);
    const badAppId = await create(server, author.auth, { name: 'x', app_id: 'not-a-uuid' });
    assert.equal(badAppId.status, 400);
    assert.equal(badAppId.body.code, 'rest_invalid_param');

    const first = await create(server, author.auth, { name: 'Desk' });
    const dup = await create(server, author.auth, { name: 'DESK' });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'application_password_duplicate_name');
    assert.equal(dup.body.message, 'Each application name should be unique.');

    const second = await create(server, author.auth, { name: 'Laptop' });
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const r = await server.call(`${collection('me')}/${first.body.uuid}`, { method, json: { name: `Desk ${method}` }, auth: author.auth });
      assert.equal(r.status, 200);
      assert.equal(((await r.json()) as Record<string, unknown>).name, `Desk ${method}`);
    }
    const clash = await server.call(`${collection('me')}/${first.body.uuid}`, { method: 'PATCH', json: { name: 'laptop' }, auth: author.auth });
    assert.equal(clash.status, 409);
    const stored = (await (await server.call(`${collection('me')}/${second.body.uuid}`, { auth: author.auth })).json()) as Record<string, unknown>;
    assert.equal(stored.name, 'Laptop');
  });

  test('a create, rename or delete answers in the edit context whatever `context` asks; a read honours embed; app_id is set on create only', async () => {
    const embedKeys = ['uuid', 'app_id', 'name', '_links'];
    const editKeys = ['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', '_links'];
    const made = await server.call(`${collection('me')}?context=embed`, { method: 'POST', json: { name: 'Context app' }, auth: author.auth });
    assert.deepEqual(Object.keys((await made.json()) as object), ['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', 'password', '_links']);
    const list = (await (await server.call(collection('me'), { auth: author.auth })).json()) as Record<string, any>[];
    const uuid = list.find((p) => p.name === 'Context app')!.uuid;
    const item = `${collection('me')}/${uuid}`;
    assert.deepEqual(Object.keys((await (await server.call(`${item}?context=embed`, { auth: author.auth })).json()) as object), embedKeys);
    const renamed = (await (await server.call(`${item}?context=embed`, { method: 'PATCH', json: { name: 'Context app 2', app_id: '0b1c9d10-3b59-4a8a-9a57-6c0e0f0b5e2a' }, auth: author.auth })).json()) as Record<string, any>;
    assert.deepEqual(Object.keys(renamed), editKeys);
    assert.deepEqual([renamed.name, renamed.app_id], ['Context app 2', '']);
    const deleted = (await (await server.call(`${item}?context=embed`, { method: 'DELETE', auth: author.auth })).json()) as Record<string, any>;
    assert.deepEqual(Object.keys(deleted.previous), ['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip']);
  });

  test('delete one answers with the previous item; a deleted (revoked) password no longer authenticates', async () => {
    const made = await create(server, author.auth, { name: 'Short-lived' });
    const auth = basicAuth(author.login, made.body.password);
    assert.equal((await server.call(`${collection('me')}/introspect`, { auth })).status, 200);

    const del = await server.call(`${collection('me')}/${made.body.uuid}`, { method: 'DELETE', auth: author.auth });
    assert.equal(del.status, 200);
    const body = (await del.json()) as Record<string, any>;
    assert.equal(body.deleted, true);
    assert.equal(body.previous.uuid, made.body.uuid);
    assert.equal(body.previous.name, 'Short-lived');

    const after = await server.call('cms/v2/settings', { auth });
    assert.equal(after.status, 401);
    assert.equal(((await after.json()) as Record<string, unknown>).code, 'incorrect_password');

    const again = await server.call(`${collection('me')}/${made.body.uuid}`, { method: 'DELETE', auth: author.auth });
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as Record<string, unknown>).code, 'rest_application_password_not_found');
  });

  test('delete all answers with the count and revokes every password of that user only', async () => {
    const victim = await userAuth(server, 'contributor');
    await create(server, victim.auth, { name: 'one' });
    const r = await server.call(collection(victim.userId), { method: 'DELETE', auth: server.admin });
    assert.deepEqual(await r.json(), { deleted: true, count: 2 });
    assert.equal((await server.call(collection('me'), { auth: victim.auth })).status, 401);
    assert.equal((await server.call(collection('me'), { auth: author.auth })).status, 200);
  });

  test("who may manage whose passwords: yourself, or a user with edit_users", async () => {
    const editor = await userAuth(server, 'editor');
    const list = await server.call(collection(author.userId), { auth: editor.auth });
    assert.equal(list.status, 403);
    assert.equal(((await list.json()) as Record<string, unknown>).code, 'rest_cannot_list_application_passwords');
    const made = await create(server, editor.auth, { name: 'sneaky' }, author.userId);
    assert.equal(made.status, 403);
    assert.equal(made.body.code, 'rest_cannot_create_application_passwords');

    const byAdmin = await create(server, server.admin, { name: 'made by admin' }, author.userId);
    assert.equal(byAdmin.status, 201);
    assert.equal((await server.call(`${collection('me')}/introspect`, { auth: basicAuth(author.login, byAdmin.body.password) })).status, 200);

    const anonList = await server.call(collection(author.userId));
    assert.equal(anonList.status, 401);
    assert.equal(((await anonList.json()) as Record<string, unknown>).code, 'rest_cannot_list_application_passwords');
    const anonMe = await server.call(collection('me'));
    assert.equal(anonMe.status, 401);
    assert.deepEqual(await anonMe.json(), { code: 'rest_not_logged_in', message: 'You are not currently logged in.', data: { status: 401 } });
    const nobody = await server.call(collection(999999), { auth: server.admin });
    assert.equal(nobody.status, 404);
    assert.equal(((await nobody.json()) as Record<string, unknown>).code, 'rest_user_invalid_id');
  });

  test('introspect: only for yourself, and 404 when the request did not use an application password', async () => {
    const other = await server.call(`${collection(author.userId)}/introspect`, { auth: server.admin });
    assert.equal(other.status, 403);
    assert.equal(((await other.json()) as Record<string, unknown>).code, 'rest_cannot_introspect_app_password_for_non_authenticated_user');
    const anon = await server.call(`${collection('me')}/introspect`);
    assert.equal(anon.status, 401);
  });
});

describe('HTTP Basic with application passwords', () => {
  const server = useServer();
  let editor: TestUser;
  let password: string;
  before(async () => {
    editor = await userAuth(server, 'editor');
    password = (await create(server, editor.auth, { name: 'formats' })).body.password as string;
  });

  const whoAmI = async (auth: string) => {
    const r = await server.call(`${collection('me')}/introspect`, { auth });
    return { status: r.status, cache: r.headers.get('cache-control'), body: (await r.json()) as Record<string, any> };
  };

  test('login or email, with or without spaces and other separators', async () => {
    const email = `${editor.login}@example.test`;
    for (const [user, pw] of [
      [editor.login, password],
      [editor.login, password.replaceAll(' ', '')],
      [editor.login, password.replaceAll(' ', '-')],
      [email, password],
    ]) {
      const r = await whoAmI(basicAuth(user, pw));
      assert.equal(r.status, 200, `${user} / ${pw}`);
      assert.equal(r.body.name, 'formats');
      // wp_get_nocache_headers, sent to a logged-in user (WordPress 6.1)
      assert.equal(r.cache, 'no-cache, must-revalidate, max-age=0');
    }
  });

  test("WordPress's errors for a wrong login, email or password; the account password is not an application password", async () => {
    const cases: [string, string, string][] = [
      ['no-such-user', password, 'invalid_username'],
      ['nobody@example.test', password, 'invalid_email'],
      [editor.login, password.toLowerCase(), 'incorrect_password'],
      [editor.login, editor.password, 'incorrect_password'],
    ];
    for (const [user, pw, code] of cases) {
      const r = await whoAmI(basicAuth(user, pw));
      assert.equal(r.status, 401, code);
      assert.equal(r.body.code, code);
      assert.equal(r.body.data.status, 401);
      // no one is logged in: rest_send_nocache_headers is false
      assert.equal(r.cache, null);
    }
    assert.equal((await whoAmI(basicAuth(editor.login, 'wrong'))).body.message, 'The provided password is an invalid application password.');
  });
});

describe('a password recognised after its first check is checked again once anything it was checked against is written', () => {
  const server = useServer();
  const roles = async (auth: string) => {
    const r = await server.call('cms/v2/users/me?context=edit', { auth });
    return { status: r.status, body: (await r.json()) as { roles?: string[]; code?: string } };
  };

  test("a role changed is the next request's: what REST says the user is and what they may do", async () => {
    const user = await userAuth(server, 'subscriber');
    const draft = () => server.call('cms/v2/posts', { method: 'POST', json: { title: 'Recognised' }, auth: user.auth });
    assert.deepEqual((await roles(user.auth)).body.roles, ['subscriber']);
    assert.equal((await draft()).status, 403);
    assert.equal((await server.call(`cms/v2/users/${user.userId}`, { method: 'POST', json: { roles: ['author'] }, auth: server.admin })).status, 200);
    assert.deepEqual((await roles(user.auth)).body.roles, ['author']);
    assert.equal((await draft()).status, 201);
    assert.equal((await server.call(`cms/v2/users/${user.userId}`, { method: 'POST', json: { roles: ['subscriber'] }, auth: server.admin })).status, 200);
    assert.equal((await draft()).status, 403);
  });

  test('a deleted user is unknown at the next request', async () => {
    const user = await userAuth(server, 'author');
    assert.equal((await roles(user.auth)).status, 200);
    assert.equal((await server.call(`cms/v2/users/${user.userId}?force=true&reassign=1`, { method: 'DELETE', auth: server.admin })).status, 200);
    const gone = await roles(user.auth);
    assert.equal(gone.status, 401);
    assert.equal(gone.body.code, 'invalid_username');
  });

  test('one revoked password of a user is refused at the next request, the other still recognised', async () => {
    const user = await userAuth(server, 'editor');
    const second = await create(server, user.auth, { name: 'second' });
    const secondAuth = basicAuth(user.login, second.body.password);
    assert.equal((await roles(secondAuth)).status, 200);
    assert.equal((await roles(user.auth)).status, 200);
    assert.equal((await server.call(`${collection(user.userId)}/${second.body.uuid}`, { method: 'DELETE', auth: server.admin })).status, 200);
    const refused = await roles(secondAuth);
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'incorrect_password');
    assert.deepEqual((await roles(user.auth)).body.roles, ['editor']);
  });
});

describe('repeated failures from one address', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => {
    mock.timers.reset();
    return server.close();
  });

  test('after 5 failures within 60 s every attempt gets 429 with Retry-After until the window has passed', async () => {
    const user = await userAuth(server, 'subscriber');
    // recognised before the failures: a credential known to be good is held back all the same
    assert.equal((await server.call(`${collection('me')}/introspect`, { auth: user.auth })).status, 200);
    const now = Date.now();
    mock.timers.enable({ apis: ['Date'], now });
    const wrong = basicAuth(user.login, 'AAAA BBBB CCCC DDDD EEEE FFFF');
    for (let i = 0; i < 5; i++) assert.equal((await server.call('cms/v2/settings', { auth: wrong })).status, 401);

    for (const auth of [wrong, user.auth]) {
      const r = await server.call(`${collection('me')}/introspect`, { auth });
      assert.equal(r.status, 429);
      assert.equal(r.headers.get('retry-after'), '60');
      assert.equal(((await r.json()) as Record<string, unknown>).code, 'too_many_failed_logins');
    }
    // anonymous requests are not held back
    assert.notEqual((await server.call('')).status, 429);

    mock.timers.setTime(now + 59_000);
    const almost = await server.call(`${collection('me')}/introspect`, { auth: user.auth });
    assert.equal(almost.status, 429);
    assert.equal(almost.headers.get('retry-after'), '1');
    mock.timers.setTime(now + 60_001);
    assert.equal((await server.call(`${collection('me')}/introspect`, { auth: user.auth })).status, 200);
  });
});

describe('last_used and last_ip', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => {
    mock.timers.reset();
    return server.close();
  });

  test('written on first use, then at most once a day', async () => {
    const user = await userAuth(server, 'subscriber');
    const read = async () => {
      const r = await server.call(`${collection('me')}/introspect`, { auth: user.auth });
      assert.equal(r.status, 200);
      return (await r.json()) as { last_used: string | null; last_ip: string | null };
    };
    const first = await read();
    assert.ok(first.last_used);
    assert.equal(first.last_ip, '127.0.0.1');
    const firstUse = Date.parse(`${first.last_used}Z`);

    mock.timers.enable({ apis: ['Date'], now: firstUse + 23 * 3600_000 });
    assert.equal((await read()).last_used, first.last_used);

    mock.timers.setTime(firstUse + 24 * 3600_000 + 5000);
    const next = await read();
    assert.equal(next.last_used, new Date(firstUse + 24 * 3600_000 + 5000).toISOString().slice(0, 19));
  });
});
