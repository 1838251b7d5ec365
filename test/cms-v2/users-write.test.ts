import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { verifyPassword } from '../../src/auth/passwords.ts';

type Obj = Record<string, any>;

// WordPress's fields, then the active SEO plugin's (register_rest_field appends them, as Yoast SEO's)
const EDIT_KEYS = ['id', 'username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'link', 'locale', 'nickname', 'slug', 'roles', 'registered_date', 'capabilities', 'extra_capabilities', 'avatar_urls', 'meta', 'yoast_head', 'yoast_head_json', '_links'];

describe('cms/v2/users: creating, editing and deleting accounts (WP_REST_Users_Controller)', () => {
  const site = useServer();
  const post = (path: string, json: unknown, auth?: string) => site.call(path, { method: 'POST', json, auth });
  const del = (path: string, auth?: string) => site.call(path, { method: 'DELETE', auth });
  const error = async (res: Response) => ({ status: res.status, body: (await res.json()) as Obj });
  const errorOf = (code: string, message: string, status: number) => ({ status, body: { code, message, data: { status } } });

  it('lists the write endpoints in the index with WordPress 6.1 args', async () => {
    const index = (await (await site.call('cms/v2')).json()) as Obj;
    const users = index.routes['/cms/v2/users'];
    assert.deepEqual(users.methods, ['GET', 'POST']);
    const create = users.endpoints[1].args;
    assert.deepEqual(Object.keys(create), ['username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'locale', 'nickname', 'slug', 'roles', 'password', 'meta']);
    assert.deepEqual(create.username, { description: 'Login name for the user.', type: 'string', required: true });
    assert.deepEqual(create.email, { description: 'The email address for the user.', type: 'string', format: 'email', required: true });
    assert.deepEqual(create.password, { description: 'Password for the user (never included).', type: 'string', required: true });
    assert.deepEqual(create.locale, { description: 'Locale for the user.', type: 'string', enum: ['', 'en_US'], required: false });
    assert.deepEqual(create.meta.properties.persisted_preferences.properties._modified, {
      description: 'The date and time the preferences were updated.', type: 'string', format: 'date-time', readonly: false,
    });
    const item = index.routes['/cms/v2/users/(?P<id>[\\d]+)'];
    assert.deepEqual(item.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(item.endpoints[1].args.username.required, false);
    assert.deepEqual(item.endpoints[2].args, {
      id: { description: 'Unique identifier for the user.', type: 'integer', required: false },
      force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.', required: false },
      reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true },
    });
    const me = index.routes['/cms/v2/users/me'];
    assert.deepEqual(me.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.deepEqual(Object.keys(me.endpoints[2].args), ['force', 'reassign']);
  });

  it('creates a user: 201, Location, the edit context, display name from first and last name, the password hashed', async () => {
    const res = await post('cms/v2/users', { username: 'jane.doe', email: 'Jane@Example.test', password: 'correct horse', first_name: 'Jane', last_name: 'Doe', roles: ['author'], url: 'https://jane.example/', description: 'Writes <b>things</b>' }, site.admin);
    assert.equal(res.status, 201);
    const body = (await res.json()) as Obj;
    assert.equal(res.headers.get('location'), `${site.api}cms/v2/users/${body.id}`);
    assert.deepEqual(Object.keys(body), EDIT_KEYS);
    assert.equal(body.username, 'jane.doe');
    assert.equal(body.name, 'Jane Doe');
    assert.equal(body.first_name, 'Jane');
    assert.equal(body.last_name, 'Doe');
    assert.equal(body.nickname, 'jane.doe');
    assert.equal(body.slug, 'jane-doe');
    assert.equal(body.email, 'Jane@Example.test');
    assert.equal(body.url, 'https://jane.example/');
    assert.equal(body.description, 'Writes <b>things</b>');
    assert.deepEqual(body.roles, ['author']);
    assert.equal(body.capabilities.publish_posts, true);
    assert.deepEqual(body.extra_capabilities, { author: true });
    assert.deepEqual(body.meta, { persisted_preferences: [] });
    assert.deepEqual(body._links, { self: [{ href: `${site.api}cms/v2/users/${body.id}` }], collection: [{ href: `${site.api}cms/v2/users` }] });
    const row = (await site.app.store.users.get(body.id))!;
    assert.notEqual(row.password_hash, 'correct horse');
    assert.equal(await verifyPassword('correct horse', row.password_hash), true);
  });

  it("gives a new user the site's default role, the login as display name, and a free slug", async () => {
    const first = (await (await post('cms/v2/users', { username: 'Sam Smith', email: 'sam1@example.test', password: 'pw' }, site.admin)).json()) as Obj;
    assert.deepEqual([first.name, first.slug, first.roles], ['Sam Smith', 'sam-smith', ['subscriber']]);
    const second = (await (await post('cms/v2/users', { username: 'sam2', email: 'sam2@example.test', password: 'pw', slug: 'Sam Smith', name: '  Sammy  <i>Two</i> ' }, site.admin)).json()) as Obj;
    assert.deepEqual([second.name, second.slug], ['Sammy Two', 'sam-smith-2']);
  });

  it('refuses callers without create_users', async () => {
    const args = { username: 'nobody', email: 'nobody@example.test', password: 'pw' };
    assert.deepEqual(await error(await post('cms/v2/users', args)), errorOf('rest_cannot_create_user', 'Sorry, you are not allowed to create new users.', 401));
    const editor = await userAuth(site, 'editor');
    assert.deepEqual(await error(await post('cms/v2/users', args, editor.auth)), errorOf('rest_cannot_create_user', 'Sorry, you are not allowed to create new users.', 403));
    assert.equal(await site.app.store.users.byLogin('nobody'), undefined);
  });

  it("answers WordPress's errors for a bad username, password, role, or a login or email already taken", async () => {
    assert.deepEqual(await error(await post('cms/v2/users', {}, site.admin)), {
      status: 400,
      body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): username, email, password', data: { status: 400, params: ['username', 'email', 'password'] } },
    });
    const invalid = await error(await post('cms/v2/users', { username: 'bad<name>', email: 'bad@example.test', password: 'back\\slash' }, site.admin));
    assert.deepEqual(invalid, {
      status: 400,
      body: {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): username, password',
        data: {
          status: 400,
          params: { username: 'This username is invalid because it uses illegal characters. Please enter a valid username.', password: 'Passwords cannot contain the "\\" character.' },
          details: {
            username: { code: 'rest_user_invalid_username', message: 'This username is invalid because it uses illegal characters. Please enter a valid username.', data: { status: 400 } },
            password: { code: 'rest_user_invalid_password', message: 'Passwords cannot contain the "\\" character.', data: { status: 400 } },
          },
        },
      },
    });
    const empty = await error(await post('cms/v2/users', { username: 'okname', email: 'ok@example.test', password: '' }, site.admin));
    assert.equal(empty.body.data.params.password, 'Passwords cannot be empty.');
    assert.deepEqual(await error(await post('cms/v2/users', { username: 'okname', email: 'ok@example.test', password: 'pw', roles: ['bogus'] }, site.admin)), errorOf('rest_user_invalid_role', 'The role bogus does not exist.', 400));
    assert.deepEqual(await error(await post('cms/v2/users', { username: 'admin', email: 'other@example.test', password: 'pw' }, site.admin)), errorOf('existing_user_login', 'Sorry, that username already exists!', 400));
    assert.deepEqual(await error(await post('cms/v2/users', { username: 'newname', email: 'JANE@example.TEST', password: 'pw' }, site.admin)), errorOf('existing_user_email', 'Sorry, that email address is already used!', 400));
    assert.deepEqual(await error(await post('cms/v2/users', { username: 'x'.repeat(61), email: 'long@example.test', password: 'pw' }, site.admin)), errorOf('user_login_too_long', 'Username may not be longer than 60 characters.', 400));
    assert.deepEqual(await error(await post('cms/v2/users', { username: 'longslug', email: 'longslug@example.test', password: 'pw', slug: 'a'.repeat(51) }, site.admin)), errorOf('user_nicename_too_long', 'Nicename may not be longer than 50 characters.', 400));
    assert.equal(await site.app.store.users.byLogin('okname'), undefined);
    assert.equal(await site.app.store.users.byLogin('longslug'), undefined);
  });

  it('creates one account when several clients ask for the same login at once; the others are told it exists', async () => {
    // on PostgreSQL the look for the login and the insert are two statements: a concurrent create
    // slips between them now and then (a round in five here), and the loser must still get
    // WordPress's 400, not a 500; rounds make the race near certain to happen
    for (let round = 0; round < 15; round++) {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post('cms/v2/users', { username: `racer${round}`, email: `racer${round}-${i}@example.test`, password: 'pw' }, site.admin)));
      assert.deepEqual(answers.map((r) => r.status).sort(), [201, 400, 400, 400, 400, 400], `round ${round}`);
      for (const r of answers.filter((a) => a.status === 400)) assert.equal(((await r.json()) as Obj).code, 'existing_user_login');
    }
  });

  describe('editing', () => {
    let subscriber: TestUser;
    let editor: TestUser;

    it('lets anyone edit their own account through users/me, and keeps their application passwords when the password changes', async () => {
      subscriber = await userAuth(site, 'subscriber');
      editor = await userAuth(site, 'editor');
      const res = await post('cms/v2/users/me', { name: 'Sub Scriber', description: 'Hi <script>alert(1)</script><strong>there</strong>', password: 'new secret', meta: { persisted_preferences: { core: { fixedToolbar: true } } } }, subscriber.auth);
      assert.equal(res.status, 200);
      const body = (await res.json()) as Obj;
      assert.equal(body.id, subscriber.userId);
      assert.equal(body.name, 'Sub Scriber');
      // kses for a user without unfiltered_html
      assert.equal(body.description, 'Hi alert(1)<strong>there</strong>');
      assert.deepEqual(body.meta, { persisted_preferences: { core: { fixedToolbar: true } } });
      assert.equal(await verifyPassword('new secret', (await site.app.store.users.get(subscriber.userId))!.password_hash), true);
      // the application password this request signed in with still works
      assert.equal((await site.call('cms/v2/users/me', { auth: subscriber.auth })).status, 200);
      // and the same through users/{id}, with PUT
      const put = await site.call(`cms/v2/users/${subscriber.userId}`, { method: 'PUT', json: { first_name: 'Sub' }, auth: subscriber.auth });
      assert.equal(put.status, 200);
      assert.equal(((await put.json()) as Obj).first_name, 'Sub');
    });

    it("refuses edits of someone else's account, and role changes, without the capabilities", async () => {
      assert.deepEqual(await error(await post(`cms/v2/users/${editor.userId}`, { name: 'Hacked' }, subscriber.auth)), errorOf('rest_cannot_edit', 'Sorry, you are not allowed to edit this user.', 403));
      assert.deepEqual(await error(await post('cms/v2/users/me', { roles: ['administrator'] }, subscriber.auth)), errorOf('rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', 403));
      assert.deepEqual(await error(await post('cms/v2/users/me', { roles: [] }, subscriber.auth)), errorOf('rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', 403));
      assert.deepEqual(await error(await post(`cms/v2/users/${editor.userId}`, { name: 'Hacked' })), errorOf('rest_cannot_edit', 'Sorry, you are not allowed to edit this user.', 401));
      // update_current_item_permissions_check looks up user get_current_user_id(), 0 for a visitor (WordPress 6.1: 404)
      assert.deepEqual(await error(await post('cms/v2/users/me', { name: 'Nobody' })), errorOf('rest_user_invalid_id', 'Invalid user ID.', 404));
      const put = await site.call('cms/v2/users/me', { method: 'PUT', json: { name: 'Nobody' } });
      assert.deepEqual(await error(put), errorOf('rest_user_invalid_id', 'Invalid user ID.', 404));
      const row = (await site.app.store.users.get(editor.userId))!;
      assert.equal(row.display_name, editor.login);
      assert.equal((await site.app.store.users.get(subscriber.userId))!.role, 'subscriber');
    });

    it('lets an administrator change roles, and answers WordPress errors for the username, email, slug and unknown ids', async () => {
      const res = await post(`cms/v2/users/${editor.userId}`, { roles: ['author'] }, site.admin);
      assert.equal(res.status, 200);
      assert.deepEqual(((await res.json()) as Obj).roles, ['author']);
      assert.deepEqual(await error(await post(`cms/v2/users/${editor.userId}`, { username: 'renamed' }, site.admin)), errorOf('rest_user_invalid_argument', 'Username is not editable.', 400));
      assert.deepEqual(await error(await post(`cms/v2/users/${editor.userId}`, { email: 'ADMIN@example.com' }, site.admin)), errorOf('rest_user_invalid_email', 'Invalid email address.', 400));
      assert.deepEqual(await error(await post(`cms/v2/users/${editor.userId}`, { slug: 'admin' }, site.admin)), errorOf('rest_user_invalid_slug', 'Invalid slug.', 400));
      assert.deepEqual(await error(await post('cms/v2/users/999999', { name: 'Ghost' }, site.admin)), errorOf('rest_user_invalid_id', 'Invalid user ID.', 404));
      const moved = await post(`cms/v2/users/${editor.userId}`, { username: editor.login, email: 'moved@example.test', slug: 'Moved Editor', url: 'https://moved.example/' }, site.admin);
      assert.equal(moved.status, 200);
      const body = (await moved.json()) as Obj;
      assert.deepEqual([body.email, body.slug, body.url, body.link], ['moved@example.test', 'moved-editor', 'https://moved.example/', `${site.home}/author/moved-editor/`]);
      // an empty display name or nickname becomes the login, as wp_insert_user makes them
      const emptied = (await (await post(`cms/v2/users/${editor.userId}`, { name: '', nickname: ' ' }, site.admin)).json()) as Obj;
      assert.deepEqual([emptied.name, emptied.nickname], [editor.login, editor.login]);
    });

    it('keeps an administrator from demoting themselves, and the site from losing its last administrator', async () => {
      assert.deepEqual(await error(await post('cms/v2/users/me', { roles: ['editor'] }, site.admin)), errorOf('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403));
      assert.deepEqual(await error(await post('cms/v2/users/me', { roles: [] }, site.admin)), errorOf('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403));
      assert.deepEqual(await error(await del('cms/v2/users/me?force=true&reassign=0', site.admin)), errorOf('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', 403));
      assert.equal((await site.app.store.users.byLogin('admin'))!.role, 'administrator');
      // with a second administrator, one may demote the other
      const second = await userAuth(site, 'administrator');
      const demoted = await post(`cms/v2/users/${second.userId}`, { roles: ['editor'] }, site.admin);
      assert.equal(demoted.status, 200);
      assert.deepEqual(((await demoted.json()) as Obj).roles, ['editor']);
    });
  });

  it('filters the list by capability for callers with list_users (WordPress 6.1 capabilities arg)', async () => {
    const index = (await (await site.call('cms/v2')).json()) as Obj;
    assert.deepEqual(index.routes['/cms/v2/users'].endpoints[0].args.capabilities, {
      description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.',
      type: 'array', items: { type: 'string' }, required: false,
    });
    const roles = async (query: string) => ((await (await site.call(`cms/v2/users?context=edit&per_page=100&${query}`, { auth: site.admin })).json()) as Obj[]).map((u) => u.roles[0]);
    assert.deepEqual([...new Set(await roles('capabilities=manage_options'))], ['administrator']);
    const publishers = new Set(await roles('capabilities=publish_posts'));
    assert.ok(publishers.has('author') && publishers.has('administrator') && !publishers.has('subscriber'), [...publishers].join());
    assert.deepEqual(await roles('capabilities=manage_options&roles=author'), []);
    assert.deepEqual(await roles('capabilities=no_such_capability'), []);
    const subscriber = await userAuth(site, 'subscriber');
    const refused = await site.call('cms/v2/users?capabilities=read', { auth: subscriber.auth });
    assert.deepEqual(await error(refused), errorOf('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.', 403));
  });

  describe('deleting', () => {
    const makePost = async (auth: string, title: string) => ((await (await post('cms/v2/posts', { title, status: 'publish' }, auth)).json()) as Obj).id as number;

    it('needs force and reassign, and a reassign target that exists and is not the user', async () => {
      const author = await userAuth(site, 'author');
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?reassign=1`, site.admin)), errorOf('rest_trash_not_supported', "Users do not support trashing. Set 'force=true' to delete.", 501));
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?force=true`, site.admin)), {
        status: 400,
        body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): reassign', data: { status: 400, params: ['reassign'] } },
      });
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?force=true&reassign=${author.userId}`, site.admin)), errorOf('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400));
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?force=true&reassign=999999`, site.admin)), errorOf('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400));
      assert.deepEqual(await error(await del('cms/v2/users/999999?force=true&reassign=1', site.admin)), errorOf('rest_user_invalid_id', 'Invalid user ID.', 404));
      const editor = await userAuth(site, 'editor');
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?force=true&reassign=1`, editor.auth)), errorOf('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', 403));
      assert.deepEqual(await error(await del(`cms/v2/users/${author.userId}?force=true&reassign=1`)), errorOf('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', 401));
      assert.ok(await site.app.store.users.get(author.userId));
    });

    it("takes reassign=false, deleting the user's posts with them, as check_reassign sanitises it (WordPress 6.1: 200)", async () => {
      const author = await userAuth(site, 'author');
      const postId = await makePost(author.auth, 'Leaves with its author');
      const res = await del(`cms/v2/users/${author.userId}?force=true&reassign=false`, site.admin);
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(((await res.json()) as Obj).deleted, true);
      assert.equal((await site.call(`cms/v2/posts/${postId}`, { auth: site.admin })).status, 404);
      const other = await userAuth(site, 'author');
      const body = (await error(await del(`cms/v2/users/${other.userId}?force=true&reassign=nobody`, site.admin))) as Obj;
      assert.equal(body.status, 400);
      assert.equal(body.body.code, 'rest_invalid_param');
      assert.deepEqual(body.body.data.params, { reassign: 'Invalid user parameter(s).' });
    });

    it("moves the user's posts to the reassign user and answers {deleted, previous}", async () => {
      const author = await userAuth(site, 'author');
      const heir = await userAuth(site, 'editor');
      const postId = await makePost(author.auth, 'Inherited post');
      const res = await del(`cms/v2/users/${author.userId}?force=true&reassign=${heir.userId}`, site.admin);
      assert.equal(res.status, 200);
      const body = (await res.json()) as Obj;
      assert.deepEqual(Object.keys(body), ['deleted', 'previous']);
      assert.equal(body.deleted, true);
      // the prepared response's get_data(): no links
      assert.deepEqual(Object.keys(body.previous), EDIT_KEYS.filter((k) => k !== '_links'));
      assert.equal(body.previous.username, author.login);
      assert.equal(await site.app.store.users.get(author.userId), undefined);
      const moved = (await (await site.call(`cms/v2/posts/${postId}`)).json()) as Obj;
      assert.equal(moved.author, heir.userId);
      assert.equal((await site.call(`cms/v2/users/${author.userId}`, { auth: site.admin })).status, 404);
    });

    it("deletes the user's posts with them when reassign is 0, and lets a user delete themselves through users/me", async () => {
      const author = await userAuth(site, 'author');
      const postId = await makePost(author.auth, 'Doomed post');
      assert.equal((await del(`cms/v2/users/${author.userId}?force=true&reassign=0`, site.admin)).status, 200);
      assert.equal((await site.call(`cms/v2/posts/${postId}`, { auth: site.admin })).status, 404);
      const other = await userAuth(site, 'administrator');
      const gone = await del('cms/v2/users/me?force=true&reassign=1', other.auth);
      assert.equal(gone.status, 200);
      assert.equal(((await gone.json()) as Obj).previous.id, other.userId);
      assert.equal(await site.app.store.users.get(other.userId), undefined);
    });
  });
});
