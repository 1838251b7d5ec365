import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ROOT, useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { ensureAdminBundle } from '../../scripts/build.js';

type Obj = Record<string, any>;

const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// the admin's bundle as the sources are now (npm install builds it; a change since is built here)
await ensureAdminBundle();
const { browser, label }: { browser: Browser; label: string } = await launchBrowser();
after(() => browser.close());

let administrator: TestUser;
let contributor: TestUser;
let subscriber: TestUser;
let news: Obj;
let held: Obj;
const server = useServer({}, async (s) => {
  administrator = await userAuth(s, 'administrator');
  contributor = await userAuth(s, 'contributor');
  subscriber = await userAuth(s, 'subscriber');
  news = await s.json('cms/v2/categories', { method: 'POST', json: { name: 'News' } }, 201);
  const hello = (await s.json('cms/v2/posts?search=Hello'))[0];
  held = await s.json('cms/v2/comments', { method: 'POST', json: { post: hello.id, content: 'Please approve me.', author_name: 'Visitor', author_email: 'visitor@example.test', status: 'hold' } }, 201);
});

/** A logged-in browser: the login screen filled in and sent as a person does. */
async function loggedIn(user: TestUser, viewport = WIDTHS.desktop): Promise<{ context: BrowserContext; page: Page }> {
  // the admin's policy allows no inline script: axe-core is injected past it (the pages' own scripts are held to it)
  const context = await browser.newContext({ viewport, bypassCSP: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`a script failed on ${page.url()}: ${e.message}`));
  await page.goto(`${server.home}/cms-admin/`);
  await page.fill('#user_login', user.login);
  await page.fill('#user_pass', user.password);
  await Promise.all([page.waitForURL(`${server.home}/cms-admin/`), page.click('#wp-submit')]);
  await page.waitForSelector('.cms-admin__menu');
  return { context, page };
}

/**
 * axe-core's serious and critical violations on the page as it is now. One rule is not run on the
 * blocks' own editable elements: @wordpress/block-editor's RichText gives them role=document with
 * aria-multiline, which axe counts as an attribute that role does not take; that markup is
 * WordPress's, not this admin's, and screen readers read it as in WordPress.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = (
    await page.evaluate(() => (window as unknown as { axe: { run(o: object): Promise<{ violations: Obj[] }> } }).axe.run({ resultTypes: ['violations'] }))
  ).violations.filter((v) => !(v.id === 'aria-allowed-attr' && v.nodes.every((n: Obj) => /^#block-[\w-]+$/.test(n.target.join(' ')))));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n: Obj) => n.target.join(' ')).join(', ')})`);
}

/** Inserts a block as a person does: `/` and its name in an empty paragraph, then the first suggestion once it shows. */
async function slashInsert(page: Page, name: string): Promise<void> {
  await page.keyboard.type(`/${name.toLowerCase()}`);
  await page.waitForSelector(`.components-autocomplete__result.is-selected:has-text("${name}")`);
  await page.keyboard.press('Enter');
}

/** The editor on a new post, titled, with the caret in its first block. */
async function newPost(page: Page, title: string): Promise<void> {
  await page.goto(`${server.home}/cms-admin/?page=post-new&post_type=posts`);
  await page.waitForSelector('.block-editor-block-list__layout');
  await page.fill('.cms-editor__title', title);
  await page.click('.block-editor-block-list__layout');
}

/** The media library dialog named `dialog`, with the items of these titles chosen (not yet selected). */
async function chooseInLibrary(page: Page, dialog: string, titles: string[]): Promise<Locator> {
  const library = page.getByRole('dialog', { name: dialog });
  for (const title of titles) await library.getByRole('button', { name: title, exact: true }).click();
  return library;
}

const selectButton = (library: Locator) => library.getByRole('button', { name: 'Select', exact: true });

const SCREENS = ['posts', 'pages', 'media', 'comments', 'menus', 'plugins', 'users', 'import', 'export', 'settings', 'profile', 'post-new'];

describe(`the admin in ${label}`, () => {
  for (const [name, viewport] of Object.entries(WIDTHS)) {
    test(`${name} (${viewport.width}px): every screen shows, fits the screen, and has no serious accessibility violation`, async (t) => {
      const { context, page } = await loggedIn(administrator, viewport);
      try {
        for (const screen of SCREENS) {
          await page.goto(`${server.home}/cms-admin/?page=${screen}`);
          await page.waitForSelector(screen === 'post-new' ? '.block-editor-block-list__layout' : '.cms-admin__content h1');
          await page.waitForLoadState('networkidle');
          await screenshot(page, `cms-spec-admin-screenshots/${name}-${screen}.png`, t);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${screen}: ${overflow}px wider than the screen`);
          assert.deepEqual(await seriousViolations(page), [], screen);
        }
        assert.deepEqual(await page.locator('.cms-admin__menu a').allInnerTexts(), ['Posts', 'Pages', 'Media', 'Comments', 'Menus', 'Plugins', 'Users', 'Import', 'Export', 'Settings', 'Profile']);
        // the login screen too
        const anonymous = await browser.newPage({ viewport, bypassCSP: true });
        await anonymous.goto(`${server.home}/cms-admin/login`);
        assert.deepEqual(await seriousViolations(anonymous), [], 'login');
        await anonymous.close();
      } finally {
        await context.close();
      }
    });
  }

  test('write a post in the block editor: heading, paragraph, uploaded image, category; publish; the site shows it as written; edit; restore the earlier revision', async (t) => {
    const { context, page } = await loggedIn(administrator);
    try {
      const opened = Date.now();
      await newPost(page, 'Notes from the field');
      t.diagnostic(`editor interactive after ${Date.now() - opened} ms`);
      await slashInsert(page, 'Heading');
      await page.keyboard.type('What we found');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Three owls and a fox.');
      await page.keyboard.press('Enter');
      await slashInsert(page, 'Image');
      const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 60, b: 40 } } }).png().toBuffer();
      await page.setInputFiles('.wp-block-image input[type=file]', { name: 'owl.png', mimeType: 'image/png', buffer: png });
      await page.waitForSelector('.wp-block-image img[src*="/wp-content/uploads/"], .wp-block-image img[src*="/uploads/"]');
      await page.getByLabel('News').check();
      await page.click('.cms-editor__header button:has-text("Publish")');
      await page.waitForSelector('.components-notice:has-text("Post published.")');
      await screenshot(page, 'cms-spec-admin-screenshots/desktop-editor-published.png');

      const [post] = await server.json('cms/v2/posts?search=owls&context=edit');
      assert.equal(post.status, 'publish');
      assert.deepEqual(post.categories, [news.id]);
      const media = await server.json(`cms/v2/media/${post.content.raw.match(/"id":(\d+)/)[1]}`);
      assert.equal(media.media_details.width, 64);
      assert.equal(
        post.content.raw,
        `<!-- wp:heading -->\n<h2 class="wp-block-heading">What we found</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Three owls and a fox.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:image {"id":${media.id},"sizeSlug":"full","linkDestination":"none"} -->\n<figure class="wp-block-image size-full"><img src="${media.source_url}" alt="" class="wp-image-${media.id}"/></figure>\n<!-- /wp:image -->`,
      );

      // the site shows what was written
      const site = await context.newPage();
      await site.goto(post.link);
      assert.equal(await site.locator('h1.entry-title, .entry-title').first().innerText(), 'Notes from the field');
      assert.equal(await site.locator('.entry-content h2').innerText(), 'What we found');
      assert.equal(await site.locator('.entry-content p').first().innerText(), 'Three owls and a fox.');
      assert.equal(await site.locator(`.entry-content img.wp-image-${media.id}`).count(), 1);
      assert.ok((await site.locator(`a[href*="/category/news/"]`).count()) >= 1, 'the post links its category');

      // edit it, then bring the first version back from its revisions
      await page.locator('.wp-block-paragraph').first().focus();
      await page.keyboard.press('End');
      await page.keyboard.type(' And a badger.');
      await page.click('.cms-editor__header button:has-text("Update")');
      await page.waitForSelector('.components-notice:has-text("Post updated.")');
      assert.match((await server.json(`cms/v2/posts/${post.id}?context=edit`)).content.raw, /Three owls and a fox\. And a badger\./);
      assert.equal(await page.locator('button:has-text("Revisions (2)")').getAttribute('aria-expanded'), 'true');
      await page.locator('.cms-editor__revisions button:has-text("Restore this revision")').last().click();
      await page.waitForSelector('.components-notice:has-text("Restored the revision")');
      assert.equal((await server.json(`cms/v2/posts/${post.id}?context=edit`)).content.raw, post.content.raw);
      await site.reload();
      assert.equal(await site.locator('.entry-content p').first().innerText(), 'Three owls and a fox.');
    } finally {
      await context.close();
    }
  });

  test('edit a post from the Posts screen: a new tag, a featured image, an excerpt, a preview, then Update', async () => {
    const { context, page } = await loggedIn(administrator);
    try {
      const hello = (await server.json('cms/v2/posts?search=Hello'))[0];
      await page.goto(`${server.home}/cms-admin/?page=posts`);
      await Promise.all([page.waitForURL(/page=edit/), page.getByRole('link', { name: 'Edit Hello world!' }).click()]);
      await page.waitForSelector('.wp-block-paragraph');
      assert.equal(await page.locator('.cms-editor__title').inputValue(), 'Hello world!');

      await page.getByLabel('Add New Tag').fill('owls');
      await page.keyboard.press('Enter');
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 160 } } }).png().toBuffer();
      await page.setInputFiles('.cms-editor__sidebar input[type=file]', { name: 'cover.png', mimeType: 'image/png', buffer: png });
      await page.waitForSelector('img.cms-editor__featured');
      await page.getByLabel('Write an excerpt (optional)').fill('A short summary.');

      await page.click('.cms-editor__header button:has-text("Preview")');
      const preview = page.locator('.cms-editor__preview');
      await preview.waitFor();
      assert.match(await preview.innerText(), /^Welcome to WordPress\. This is your first post\./);
      await page.keyboard.press('Escape');

      await page.click('.cms-editor__header button:has-text("Update")');
      await page.waitForSelector('.components-notice:has-text("Post updated.")');
      const saved = await server.json(`cms/v2/posts/${hello.id}?context=edit`);
      const [owls] = await server.json('cms/v2/tags?slug=owls');
      assert.deepEqual(saved.tags, [owls.id]);
      assert.equal(saved.excerpt.raw, 'A short summary.');
      assert.equal((await server.json(`cms/v2/media/${saved.featured_media}`)).media_details.width, 40);
    } finally {
      await context.close();
    }
  });

  test('from the Media Library: an image block and the featured image picked from what was uploaded before; a date a year ahead schedules the post', async () => {
    const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: { r: 30, g: 140, b: 70 } } }).png().toBuffer();
    const heron = await server.json('cms/v2/media', { method: 'POST', body: png, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="heron.png"' } }, 201);
    const { context, page } = await loggedIn(administrator);
    try {
      await newPost(page, 'A heron, next year');
      await slashInsert(page, 'Image');
      await page.click('.wp-block-image button:has-text("Media Library")');
      const library = await chooseInLibrary(page, 'Media Library', ['heron']);
      await screenshot(page, 'cms-spec-admin-screenshots/desktop-media-library.png', undefined, { viewportOnly: true });
      assert.deepEqual(await seriousViolations(page), [], 'the media library');
      await selectButton(library).click();
      await page.waitForSelector(`.wp-block-image img[src="${heron.source_url}"]`);

      await page.click('button:has-text("Choose from the Media Library")');
      await selectButton(await chooseInLibrary(page, 'Featured image', ['heron'])).click();
      await page.waitForSelector(`img.cms-editor__featured[src="${heron.source_url}"]`);

      const year = new Date().getUTCFullYear() + 1;
      await page.click('button:has-text("Publish date")');
      await page.getByLabel('Year').fill(String(year));
      await page.keyboard.press('Tab');
      await page.waitForSelector(`.cms-editor__sidebar p:has-text("Scheduled for ${year}-")`);
      await page.click('.cms-editor__header button:has-text("Schedule")');
      await page.waitForSelector('.components-notice:has-text("Post scheduled.")');

      const [post] = await server.json('cms/v2/posts?search=heron&status=future&context=edit');
      assert.equal(post.status, 'future');
      assert.equal(post.date.slice(0, 5), `${year}-`);
      assert.equal(post.featured_media, heron.id);
      assert.equal(post.content.raw, `<!-- wp:image {"id":${heron.id},"sizeSlug":"full","linkDestination":"none"} -->\n<figure class="wp-block-image size-full"><img src="${heron.source_url}" alt="" class="wp-image-${heron.id}"/></figure>\n<!-- /wp:image -->`);
      assert.equal((await server.call(`cms/v2/posts/${post.id}`)).status, 401, 'not public before its date');
      assert.equal(await page.locator('.cms-editor__header button:has-text("Update")').count(), 1, 'a scheduled post is updated, not published again');
    } finally {
      await context.close();
    }
  });

  test('a gallery of two images chosen together in the Media Library; published, the site shows both', async () => {
    const { context, page } = await loggedIn(administrator);
    try {
      const [heron, owl] = await Promise.all(['heron', 'owl'].map(async (name) => (await server.json(`cms/v2/media?search=${name}&context=edit`))[0]));
      await newPost(page, 'Two birds');
      await slashInsert(page, 'Gallery');
      await page.click('.wp-block-gallery button:has-text("Media Library")');
      const library = await chooseInLibrary(page, 'Media Library', ['heron', 'owl']);
      assert.equal(await library.locator('[aria-pressed="true"]').count(), 2, 'a gallery takes several');
      await selectButton(library).click();
      await page.waitForSelector(`.wp-block-gallery img[src="${owl.source_url}"]`);
      await page.click('.cms-editor__header button:has-text("Publish")');
      await page.waitForSelector('.components-notice:has-text("Post published.")');

      const [post] = await server.json('cms/v2/posts?search=Two%20birds&context=edit');
      assert.match(post.content.raw, /^<!-- wp:gallery /);
      const site = await context.newPage();
      await site.goto(post.link);
      assert.deepEqual(
        await site.locator('.entry-content .wp-block-gallery img').evaluateAll((images) => images.map((i) => i.className)),
        [`wp-image-${heron.id}`, `wp-image-${owl.id}`],
      );
    } finally {
      await context.close();
    }
  });

  test('the Media screen uploads two files at once and lists them', async () => {
    const { context, page } = await loggedIn(administrator);
    try {
      const shapes = await Promise.all([[10, 200], [200, 10]].map(([g, b]) => sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 0, g, b } } }).png().toBuffer()));
      await page.goto(`${server.home}/cms-admin/?page=media`);
      await page.waitForSelector('.cms-admin__content h1');
      await page.setInputFiles('.cms-admin__content input[type=file]', [
        { name: 'moss.png', mimeType: 'image/png', buffer: shapes[0] },
        { name: 'lake.png', mimeType: 'image/png', buffer: shapes[1] },
      ]);
      await page.waitForSelector('.components-notice:has-text("2 files uploaded.")');
      for (const name of ['moss', 'lake']) {
        const [item] = await server.json(`cms/v2/media?search=${name}`);
        assert.equal(item.media_details.width, 24, name);
        await page.waitForSelector(`.cms-admin__media a[href="${item.source_url}"]`);
      }
    } finally {
      await context.close();
    }
  });

  test('approve a comment; deactivate and activate a plugin; change the site title and see the site change', async () => {
    const { context, page } = await loggedIn(administrator, WIDTHS.phone);
    try {
      // the moderation mail's link asks first, then approves
      await page.goto(`${server.home}/cms-admin/?page=comments&action=approve&c=${held.id}`);
      await page.waitForSelector('.components-notice:has-text("Are you sure you want to approve this comment?")');
      assert.equal((await server.json(`cms/v2/comments/${held.id}?context=edit`)).status, 'hold', 'opening the link alone changes nothing');
      await page.click('button:has-text("Approve Comment")');
      await page.waitForSelector('.components-notice:has-text("Comment approved.")');
      assert.equal((await server.json(`cms/v2/comments/${held.id}?context=edit`)).status, 'approved');
      // and from the list of pending comments
      const hello = (await server.json('cms/v2/posts?search=Hello'))[0];
      const another = await server.json('cms/v2/comments', { method: 'POST', json: { post: hello.id, content: 'Me too, please.', author_name: 'Other', author_email: 'other@example.test', status: 'hold' } }, 201);
      await page.goto(`${server.home}/cms-admin/?page=comments&comment_status=moderated`);
      await page.click('button:has-text("Approve the comment by Other")');
      await page.waitForSelector('.components-notice:has-text("Comment approved.")');
      assert.equal((await server.json(`cms/v2/comments/${another.id}?context=edit`)).status, 'approved');

      await page.goto(`${server.home}/cms-admin/?page=plugins`);
      const row = page.locator('tr', { hasText: 'Lottie Animations' });
      await row.locator('button:has-text("Deactivate")').click();
      await page.waitForSelector('.components-notice:has-text("Plugin deactivated.")');
      assert.equal((await server.json('cms/v2/plugins/lottie')).status, 'inactive');
      await row.locator('button:has-text("Activate")').click();
      await page.waitForSelector('.components-notice:has-text("Plugin activated.")');
      assert.equal((await server.json('cms/v2/plugins/lottie')).status, 'active');

      await page.goto(`${server.home}/cms-admin/?page=settings`);
      await page.getByLabel('Site Title').fill('Field Notes');
      await page.click('button:has-text("Save Changes")');
      await page.waitForSelector('.components-notice:has-text("Settings saved.")');
      const home = await context.newPage();
      await home.goto(`${server.home}/`);
      assert.equal(await home.locator('.site-title').first().innerText(), 'Field Notes');
      assert.match(await home.title(), /Field Notes/);
    } finally {
      await context.close();
    }
  });

  test('a contributor can submit a post for review but not publish it; the server refuses a publish all the same', async () => {
    const { context, page } = await loggedIn(contributor);
    try {
      assert.deepEqual(await page.locator('.cms-admin__menu a').allInnerTexts(), ['Posts', 'Profile']);
      await page.goto(`${server.home}/cms-admin/?page=post-new&post_type=posts`);
      await page.waitForSelector('.block-editor-block-list__layout');
      assert.equal(await page.locator('.cms-editor__header button:has-text("Publish")').count(), 0);
      await page.fill('.cms-editor__title', 'For review');
      await page.click('.cms-editor__header button:has-text("Submit for Review")');
      await page.waitForSelector('.components-notice:has-text("Post submitted for review.")');
      const [post] = await server.json('cms/v2/posts?search=For%20review&status=pending&context=edit');
      assert.equal(post.status, 'pending');
      assert.equal(post.author, contributor.userId);
      // as if the page offered a Publish button: the REST permission answers
      const refused = await page.evaluate(async (id) => {
        const settings = JSON.parse(document.getElementById('cms-admin-settings')!.textContent!);
        const res = await fetch(`${settings.root}wp/v2/posts/${id}`, { method: 'POST', headers: { 'X-WP-Nonce': settings.nonce, 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'publish' }) });
        return { status: res.status, body: await res.json() };
      }, post.id);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'rest_cannot_publish');
    } finally {
      await context.close();
    }
  });

  test('keyboard only, on a phone: log in, open Settings from the menu, change the tagline and save', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    const page = await context.newPage();
    try {
      await page.goto(`${server.home}/cms-admin/login`);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.id), 'user_login', 'the first field is the second Tab away (after the site’s name)');
      await page.keyboard.type(administrator.login);
      await page.keyboard.press('Tab');
      await page.keyboard.type(administrator.password);
      await Promise.all([page.waitForURL(`${server.home}/cms-admin/`), page.keyboard.press('Enter')]);
      await page.waitForSelector('.cms-admin__menu');
      for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement?.textContent)) !== 'Settings'; i++) await page.keyboard.press('Tab');
      await Promise.all([page.waitForURL(/page=settings/), page.keyboard.press('Enter')]);
      await page.waitForSelector('input[value="Field Notes"], input');
      await page.getByLabel('Tagline').focus();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Typed without a mouse');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.components-notice:has-text("Settings saved.")');
      assert.equal((await server.json('cms/v2/settings')).description, 'Typed without a mouse');
    } finally {
      await context.close();
    }
  });

  test('Tools → Import: upload a WXR, assign one author to an existing user, see the progress bar reach the end and the report; Tools → Export downloads the file', async () => {
    const { context, page } = await loggedIn(administrator);
    try {
      await page.goto(`${server.home}/cms-admin/?page=import`);
      await page.waitForSelector('.cms-admin__content h1:has-text("Import")');
      await page.setInputFiles('.cms-admin__content input[type=file]', join(ROOT, 'test/fixtures/wxr/small-export.xml'));
      await page.waitForSelector('h2:has-text("Assign Authors")');
      // the file's three authors, as WordPress's form lists them
      assert.deepEqual(await page.locator('.cms-admin__authors > li strong').allInnerTexts(), ['admin (admin)', 'editor (editor)', 'author (author)']);
      const editorLine = page.locator('.cms-admin__authors > li').nth(1);
      await editorLine.getByLabel('or assign posts to an existing user:').selectOption({ label: administrator.login });
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.waitForSelector('text=All done.');
      const bar = page.locator('progress#cms-import-progress');
      assert.equal(await bar.getAttribute('value'), await bar.getAttribute('max'));
      assert.match(await page.locator('.cms-admin__import-report').innerText(), /Imported \d+ users?, \d+ terms, 6 post, 5 page, 0 menu items, 0 attachments, 1 comment; 0 already there, 0 failed\./);
      // the editor's posts are the administrator's now
      const [editorsPost] = await server.json('cms/v2/posts?slug=foo-child&status=publish,private');
      assert.equal(editorsPost?.author, administrator.userId);
      await screenshot(page, 'cms-spec-admin-screenshots/desktop-import-done.png');

      await page.goto(`${server.home}/cms-admin/?page=export`);
      await page.getByLabel('Pages').check();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Export File' }).click()]);
      // export_wp's name: sanitize_key(the site's title), then WordPress.<today>.xml
      const sitename = String((await server.json('cms/v2/settings')).title).toLowerCase().replace(/[^a-z0-9_-]/g, '');
      assert.equal(download.suggestedFilename(), `${sitename}.WordPress.${new Date().toISOString().slice(0, 10)}.xml`);
      const wxr = readFileSync(await download.path(), 'utf8');
      assert.match(wxr, /<wp:wxr_version>1\.2<\/wp:wxr_version>/);
      assert.match(wxr, /<wp:post_type><!\[CDATA\[page\]\]><\/wp:post_type>/);
      assert.doesNotMatch(wxr, /<wp:post_type><!\[CDATA\[post\]\]><\/wp:post_type>/);
    } finally {
      await context.close();
    }
  });

  test('a subscriber sees only their profile, and no editor', async () => {
    const { context, page } = await loggedIn(subscriber, WIDTHS.phone);
    try {
      assert.deepEqual(await page.locator('.cms-admin__menu a').allInnerTexts(), ['Profile']);
      assert.equal(await page.locator('.cms-admin__content h1').innerText(), 'Profile');
      await page.goto(`${server.home}/cms-admin/?page=post-new&post_type=posts`);
      await page.waitForSelector('.components-notice');
      assert.match(await page.locator('.components-notice').innerText(), /Sorry, you are not allowed to edit posts as this user\./);
      assert.equal(await page.locator('.block-editor-block-list__layout').count(), 0);
      await screenshot(page, 'cms-spec-admin-screenshots/phone-subscriber.png');
    } finally {
      await context.close();
    }
  });
});
