import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';

type Obj = Record<string, any>;

const { browser, label } = await launchBrowser();
after(() => browser.close());

let post: Obj;
let first: Obj;

const server = useServer({}, async (s) => {
  post = (await (await s.call('cms/v2/posts', { json: { title: 'A post to discuss', content: 'What do you think?', status: 'publish' }, auth: s.admin })).json()) as Obj;
  // from another address than the visitor's (127.0.0.1), or the visitor's reply would be a flood
  first = (await (await s.call('cms/v2/comments', { json: { post: post.id, content: 'I think it is fine.', author_ip: '192.0.2.10' }, auth: s.admin })).json()) as Obj;
});

describe(`commenting on the site in ${label}`, () => {
  test('a visitor replies, sees it awaiting moderation, an editor approves it over REST, and it shows threaded', async (t) => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(post.link);
      assert.equal(await page.locator('#comments .comment-list > li').count(), 1);

      // reply to the first comment through its Reply link, as a visitor
      await page.click(`#comment-${first.id} .comment-reply-link`);
      assert.equal(await page.locator('#reply-title').innerText(), 'Leave a Reply to admin Cancel reply');
      await page.fill('#comment', 'I disagree, politely.');
      await page.fill('#author', 'Grace Visitor');
      await page.fill('#email', 'grace@example.com');
      await page.fill('#url', 'https://grace.example');
      await Promise.all([page.waitForURL(/unapproved=\d+/), page.click('#submit')]);

      const id = Number(new URL(page.url()).searchParams.get('unapproved'));
      const held = page.locator(`#comment-${id}`);
      assert.equal(await held.locator('.comment-awaiting-moderation').innerText(), 'Your comment is awaiting moderation. This is a preview; your comment will be visible after it has been approved.');
      assert.equal(await held.locator('.comment-content').innerText(), 'I disagree, politely.');
      // anyone else (a fresh browser) does not see it yet
      const stranger = await browser.newContext();
      const other = await stranger.newPage();
      await other.goto(post.link);
      assert.equal(await other.locator(`#comment-${id}`).count(), 0);
      await stranger.close();

      // an editor approves it over REST
      const editor = await userAuth(server, 'editor');
      const res = await server.call(`cms/v2/comments/${id}`, { method: 'POST', json: { status: 'approved' }, auth: editor.auth });
      assert.equal(res.status, 200);
      const approved = (await res.json()) as Obj;
      assert.equal(approved.status, 'approved');
      assert.equal(approved.parent, first.id);
      assert.equal(approved.author_name, 'Grace Visitor');

      // now everyone sees it, as a reply under the first comment, without the moderation note
      await page.goto(post.link);
      const reply = page.locator(`#comment-${first.id} > ol.children > li#comment-${id}`);
      assert.equal(await reply.count(), 1);
      assert.equal(await reply.locator('.comment-awaiting-moderation').count(), 0);
      assert.equal(await reply.locator('.comment-author .fn').innerText(), 'Grace Visitor');
      assert.equal(await reply.locator('.comment-author .fn a').getAttribute('href'), 'https://grace.example');
      assert.equal(await page.locator('.comments-title').innerText(), '2 thoughts on “A post to discuss”');
      assert.equal((await server.app.store.posts.get(post.id))!.comment_count, 2);
      // for a person to look at: the thread as the visitor sees it now
      await screenshot(page, 'cms-spec-comments-thread.png', t);
    } finally {
      await context.close();
    }
  });
});
