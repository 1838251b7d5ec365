import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { hiddenField, logIn, openLoginScreen, postLogin } from '../helpers/login.ts';
import { startSmtp } from '../helpers/smtp.ts';
import { createResetKey } from '../../src/auth/password-reset.ts';

const smtp = await startSmtp();
after(() => smtp.close());

/** A browser on the login screens: keeps the cookies they set, sends forms with their tokens. */
class Browser {
  cookies = new Map<string, string>();
  constructor(private readonly home: string) {}

  private remember(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair.indexOf('=');
      if (/Max-Age=0/.test(c)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  get cookie() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string): Promise<Response> {
    const res = await fetch(url, { headers: { cookie: this.cookie }, redirect: 'manual' });
    this.remember(res);
    return res;
  }

  async post(url: string, fields: Record<string, string>): Promise<Response> {
    const res = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie: this.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    this.remember(res);
    return res;
  }

  /** Opens a screen and posts its form with the token it carries. */
  async submit(url: string, fields: Record<string, string>): Promise<Response> {
    const html = await (await this.get(url)).text();
    return this.post(url, { _token: hiddenField(html, '_token'), ...fields });
  }
}

const linkIn = (text: string) => /(http:\/\/\S+action=rp\S+)/.exec(text)![1];

describe('the site’s mail through an SMTP server', () => {
  let editor: TestUser;
  const site = useServer({ smtp: smtp.url }, async (s) => {
    editor = await userAuth(s, 'editor');
  });

  test('lost password: the reset mail as WordPress words it, its link sets a new password once, the old one and its sessions stop working', async () => {
    const before = await logIn(site.home, editor.login, editor.password);
    const browser = new Browser(site.home);
    const asked = await browser.submit(`${site.home}/cms-admin/login?action=lostpassword`, { user_login: `${editor.login}@example.test` });
    assert.equal(asked.status, 303);
    assert.equal(asked.headers.get('location'), `${site.home}/cms-admin/login?checkemail=confirm`);
    assert.match(await (await browser.get(asked.headers.get('location')!)).text(), /Check your email for the confirmation link, then visit the <a href="[^"]+">login page<\/a>\./);

    const mail = await smtp.next(`${editor.login}@example.test`);
    assert.equal(mail.subject, '[cms-spec] Password Reset');
    assert.equal(mail.headers.from, '"cms-spec" <wordpress@127.0.0.1>');
    const link = linkIn(mail.text);
    const key = new URL(link).searchParams.get('key')!;
    assert.match(key, /^[A-Za-z0-9]{20}$/);
    assert.equal(
      mail.text,
      'Someone has requested a password reset for the following account:\r\n\r\n' +
        'Site Name: cms-spec\r\n\r\n' +
        `Username: ${editor.login}\r\n\r\n` +
        'If this was a mistake, ignore this email and nothing will happen.\r\n\r\n' +
        'To reset your password, visit the following address:\r\n\r\n' +
        `${site.home}/cms-admin/login?action=rp&key=${key}&login=${editor.login}&wp_lang=en_US\r\n\r\n` +
        'This password reset request originated from the IP address 127.0.0.1.\r\n',
    );

    // the link moves the key into a cookie and drops it from the address
    const opened = await browser.get(link);
    assert.equal(opened.status, 302);
    assert.equal(opened.headers.get('location'), `${site.home}/cms-admin/login?action=rp`);
    const form = await (await browser.get(opened.headers.get('location')!)).text();
    assert.match(form, /Enter your new password below or generate one\./);
    assert.equal(hiddenField(form, 'rp_key'), key);
    const weak = await browser.post(`${site.home}/cms-admin/login?action=resetpass`, { rp_key: key, pass1: '   ' });
    assert.equal(weak.status, 400);
    assert.match(await weak.text(), /<strong>Error:<\/strong> The password cannot be a space or all spaces\./);

    const saved = await browser.post(`${site.home}/cms-admin/login?action=resetpass`, { rp_key: key, pass1: 'correct horse battery staple' });
    assert.equal(saved.status, 303);
    assert.equal(saved.headers.get('location'), `${site.home}/cms-admin/login?password=reset`);
    assert.match(await (await browser.get(saved.headers.get('location')!)).text(), /Your password has been reset\. <a href="[^"]+">Log in<\/a>/);

    const told = await smtp.next('admin@example.com', '[cms-spec] Password Changed');
    assert.equal(told.subject, '[cms-spec] Password Changed');
    assert.equal(told.text, `Password changed for user: ${editor.login}\r\n`);

    await logIn(site.home, editor.login, 'correct horse battery staple');
    assert.equal((await postLogin(site.home, await openLoginScreen(site.home), { log: editor.login, pwd: editor.password })).status, 401, 'the old password is gone');
    assert.equal((await site.call('cms/v2/users/me', { headers: { cookie: before.cookie, 'x-wp-nonce': before.nonce } })).status, 403, 'sessions from before the reset are over');

    // the link works once
    const again = await new Browser(site.home).get(link);
    assert.equal(again.headers.get('location'), `${site.home}/cms-admin/login?action=lostpassword&error=invalidkey`);
    assert.match(await (await fetch(again.headers.get('location')!)).text(), /Your password reset link appears to be invalid\. Please request a new link below\./);
    editor.password = 'correct horse battery staple';
  });

  test('a reset link older than a day has expired; a made-up one is invalid', async () => {
    const user = await userAuth(site, 'author');
    const row = (await site.app.store.users.get(user.userId))!;
    const key = await createResetKey(site.app.store, row, Date.now() - 86_401_000);
    const expired = await new Browser(site.home).get(`${site.home}/cms-admin/login?action=rp&key=${key}&login=${user.login}`);
    assert.equal(expired.headers.get('location'), `${site.home}/cms-admin/login?action=lostpassword&error=expiredkey`);
    assert.match(await (await fetch(expired.headers.get('location')!)).text(), /Your password reset link has expired\. Please request a new link below\./);
    const madeUp = await new Browser(site.home).get(`${site.home}/cms-admin/login?action=rp&key=AAAAAAAAAAAAAAAAAAAA&login=${user.login}`);
    assert.equal(madeUp.headers.get('location'), `${site.home}/cms-admin/login?action=lostpassword&error=invalidkey`);
    // a form posted without the browser's reset cookie finds no key
    const forged = await new Browser(site.home).post(`${site.home}/cms-admin/login?action=resetpass`, { rp_key: key, pass1: 'taken over' });
    assert.equal(forged.headers.get('location'), `${site.home}/cms-admin/login?action=lostpassword&error=invalidkey`);
  });

  test('lost password: no such account, or nothing typed, is said on the form and sends nothing', async () => {
    const count = smtp.received.length;
    const browser = new Browser(site.home);
    const unknown = await browser.submit(`${site.home}/cms-admin/login?action=lostpassword`, { user_login: 'nobody-at-all' });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /<strong>Error:<\/strong> There is no account with that username or email address\./);
    const empty = await browser.submit(`${site.home}/cms-admin/login?action=lostpassword`, { user_login: '' });
    assert.match(await empty.text(), /<strong>Error:<\/strong> Please enter a username or email address\./);
    const forged = await new Browser(site.home).post(`${site.home}/cms-admin/login?action=lostpassword`, { user_login: editor.login, _token: 'x' });
    assert.equal(forged.status, 403);
    assert.equal(smtp.received.length, count);
  });

  test('registration: closed unless the site allows it; then the welcome mail’s link sets the password, and the administrator is told', async () => {
    const closed = await new Browser(site.home).get(`${site.home}/cms-admin/login?action=register`);
    assert.equal(closed.headers.get('location'), `${site.home}/cms-admin/login?registration=disabled`);
    await site.app.store.options.set('users_can_register', '1');

    const browser = new Browser(site.home);
    const taken = await browser.submit(`${site.home}/cms-admin/login?action=register`, { user_login: editor.login, user_email: 'new@example.test' });
    assert.match(await taken.text(), /<strong>Error:<\/strong> This username is already registered\. Please choose another one\./);
    const bad = await browser.submit(`${site.home}/cms-admin/login?action=register`, { user_login: 'newcomer', user_email: 'not an address' });
    assert.match(await bad.text(), /<strong>Error:<\/strong> The email address is not correct\./);

    const done = await browser.submit(`${site.home}/cms-admin/login?action=register`, { user_login: 'newcomer', user_email: 'newcomer@example.test' });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get('location'), `${site.home}/cms-admin/login?checkemail=registered`);
    const admin = await smtp.next('admin@example.com', '[cms-spec] New User Registration');
    assert.equal(admin.subject, '[cms-spec] New User Registration');
    assert.equal(admin.text, 'New user registration on your site cms-spec:\r\n\r\nUsername: newcomer\r\n\r\nEmail: newcomer@example.test\r\n');
    const welcome = await smtp.next('newcomer@example.test');
    assert.equal(welcome.subject, '[cms-spec] Login Details');
    const link = linkIn(welcome.text);
    assert.equal(welcome.text, `Username: newcomer\r\n\r\nTo set your password, visit the following address:\r\n\r\n${link}\r\n\r\n${site.home}/cms-admin/login\r\n`);

    const setting = new Browser(site.home);
    const rp = await setting.get(link);
    const form = await (await setting.get(rp.headers.get('location')!)).text();
    await setting.post(`${site.home}/cms-admin/login?action=resetpass`, { rp_key: hiddenField(form, 'rp_key'), pass1: 'my own password' });
    const { cookie, nonce } = await logIn(site.home, 'newcomer', 'my own password');
    const me = (await (await site.call('cms/v2/users/me?context=edit', { headers: { cookie, 'x-wp-nonce': nonce } })).json()) as { roles: string[] };
    assert.deepEqual(me.roles, ['subscriber']);
  });

  test('a held comment: the moderators are asked; an approved one: the post’s author is told', async () => {
    const author = await userAuth(site, 'author');
    await site.app.store.users.update(author.userId, { email: 'the-author@example.test' });
    const post = await (await site.call('cms/v2/posts', { auth: author.auth, json: { title: 'Notes on mail', status: 'publish' } })).json() as { id: number; link: string };
    await site.app.store.options.set('comment_moderation', '1');
    const visitor = new Browser(site.home);
    const page = await (await visitor.get(post.link)).text();
    const posted = await visitor.post(`${site.home}/wp-comments-post.php`, {
      comment_post_ID: String(post.id),
      comment_parent: '0',
      _token: hiddenField(page, '_token'),
      author: 'Ada',
      email: 'ada@example.test',
      url: '',
      comment: 'Held for a moment.',
    });
    assert.equal(posted.status, 302);
    const held = (await site.app.store.comments.query({ posts: [post.id], offset: 0, limit: 10 })).rows[0];
    assert.equal(held.approved, '0');

    const ask = await smtp.next('admin@example.com', '[cms-spec] Please moderate: "Notes on mail"');
    assert.equal(ask.subject, '[cms-spec] Please moderate: "Notes on mail"');
    assert.deepEqual(ask.to, ['admin@example.com', 'the-author@example.test'], 'the site, and the author, who may edit comments on their own post');
    const admin = `${site.home}/cms-admin/?page=comments`;
    assert.equal(
      ask.text,
      `A new comment on the post "Notes on mail" is waiting for your approval\r\n${post.link}\r\n\r\n` +
        'Author: Ada (IP address: 127.0.0.1, 127.0.0.1)\r\nEmail: ada@example.test\r\nURL: \r\n' +
        'Comment: \r\nHeld for a moment.\r\n\r\n' +
        `Approve it: ${admin}&action=approve&c=${held.id}\r\n` +
        `Trash it: ${admin}&action=trash&c=${held.id}\r\n` +
        `Spam it: ${admin}&action=spam&c=${held.id}\r\n` +
        'Currently 1 comment is waiting for approval. Please visit the moderation panel:\r\n' +
        `${admin}&comment_status=moderated\r\n`,
    );

    await site.app.store.options.set('comment_moderation', '0');
    const created = await site.json('cms/v2/comments', { method: 'POST', json: { post: post.id, content: 'Straight through.' } }, 201);
    const told = await smtp.next('the-author@example.test');
    assert.equal(told.subject, '[cms-spec] Comment: "Notes on mail"');
    assert.equal(told.headers['reply-to'], 'admin <admin@example.com>');
    assert.equal(
      told.text,
      'New comment on your post "Notes on mail"\r\n' +
        // the installed administrator's website is the site's address, as wp_install gives it (wp_guess_url)
        `Author: admin (IP address: 127.0.0.1, 127.0.0.1)\r\nEmail: admin@example.com\r\nURL: ${site.home}\r\n` +
        'Comment: \r\nStraight through.\r\n\r\n' +
        `You can see all comments on this post here:\r\n${post.link}#comments\r\n\r\n` +
        `Permalink: ${post.link}#comment-${created.id}\r\n` +
        `Trash it: ${admin}&action=trash&c=${created.id}\r\n` +
        `Spam it: ${admin}&action=spam&c=${created.id}\r\n`,
    );
  });
});

describe('without an SMTP server, mail is written to the server log, and doctor says so', () => {
  const site = useServer();

  test('a reset link asked for lands in the log, whole', async () => {
    const user = await userAuth(site, 'editor');
    const browser = new Browser(site.home);
    const asked = await browser.submit(`${site.home}/cms-admin/login?action=lostpassword`, { user_login: user.login });
    assert.equal(asked.status, 303);
    const logged = site.infos.find((m) => m.includes('Subject: [cms-spec] Password Reset'));
    assert.ok(logged, site.infos.join('\n'));
    assert.match(logged, /^mail \(no SMTP server configured, so it is written here instead of sent\)\nFrom: cms-spec <wordpress@127\.0\.0\.1>\nTo: editor-[\w-]+@example\.test\n/);
    assert.match(logged, new RegExp(`${site.home.replace(/[.]/g, '\\.')}/cms-admin/login\\?action=rp&key=[A-Za-z0-9]{20}&login=${user.login}&wp_lang=en_US`));
  });

  test('cms-spec doctor: the mail check says where mail goes', async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [join(ROOT, 'bin/cms-spec.js'), 'doctor', '--offline', '--format', 'json', '--db', site.dbPath], { cwd: ROOT, env: { ...process.env, ...env } });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.on('close', (status) => resolve({ status, stdout }));
      });
    const mailOf = (stdout: string) => (JSON.parse(stdout) as { tests: { test: string; status: string; label: string }[] }).tests.find((t) => t.test === 'mail');
    const none = await run({ CMS_SPEC_SMTP_URL: '' });
    assert.deepEqual(
      { status: mailOf(none.stdout)?.status, label: mailOf(none.stdout)?.label },
      { status: 'recommended', label: 'No SMTP server is configured: mail is written to the server log' },
    );
    const configured = await run({ CMS_SPEC_SMTP_URL: 'smtp://mailer:secret@mail.example.test:2525' });
    assert.deepEqual({ status: mailOf(configured.stdout)?.status, label: mailOf(configured.stdout)?.label }, { status: 'good', label: 'Mail is sent through smtp://mail.example.test:2525' });
  });
});
