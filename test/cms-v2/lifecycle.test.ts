import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * A post's trash and restore, and the slugs the editor is offered, as WordPress 6.1 answers them:
 * wp_trash_post (the slug freed as `name__trashed`, the name kept in `_wp_desired_post_slug`, the
 * status and time in `_wp_trash_meta_*`, unstuck, the comments `post-trashed`), a trashed post's
 * plain link and permalink_template (wp_force_plain_post_permalink), and a restore through an
 * update of its status (the desired slug back, wp_untrash_post's meta and comments undone).
 */

type Obj = Record<string, any>;

const server = useServer();

async function call(path: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: Obj }> {
  const res = await server.call(path, { ...init, auth: server.admin });
  return { status: res.status, body: (await res.json()) as Obj };
}

async function created(path: string, json: Obj): Promise<Obj> {
  const { status, body } = await call(path, { method: 'POST', json });
  assert.equal(status, 201, JSON.stringify(body));
  return body;
}

const meta = (id: number, key: string) => server.app.store.posts.meta.get(id, key);

/** `/2024/05/06/` of a post's date, as its pretty permalink has it. */
const datePath = (post: Obj) => `/${String(post.date).slice(0, 10).replace(/-/g, '/')}/`;

describe('cms/v2 posts: trash and restore', () => {
  it('trashes a sticky post: slug `…__trashed`, unstuck, plain link and permalink_template, trash meta, comments post-trashed', async () => {
    const post = await created('cms/v2/posts', { title: 'Leaving Soon', status: 'publish', sticky: true });
    assert.equal(post.slug, 'leaving-soon');
    assert.equal(post.sticky, true);
    assert.equal(post.link, `${server.home}${datePath(post)}leaving-soon/`);
    assert.equal(post.permalink_template, `${server.home}${datePath(post)}%postname%/`);
    const approved = await created('cms/v2/comments', { post: post.id, content: 'Nice one' });
    const held = await created('cms/v2/comments', { post: post.id, content: 'Held back', status: 'hold' });
    assert.equal(approved.status, 'approved');
    assert.equal(held.status, 'hold');

    const before = Math.floor(Date.now() / 1000);
    const trashed = await call(`cms/v2/posts/${post.id}`, { method: 'DELETE' });
    assert.equal(trashed.status, 200);
    assert.equal(trashed.body.status, 'trash');
    assert.equal(trashed.body.slug, 'leaving-soon__trashed');
    assert.equal(trashed.body.sticky, false);
    assert.equal(trashed.body.link, `${server.home}/?p=${post.id}`);
    assert.equal(trashed.body.permalink_template, `${server.home}/?p=${post.id}`);
    assert.equal(trashed.body.generated_slug, 'leaving-soon');
    assert.equal(await meta(post.id, '_wp_desired_post_slug'), 'leaving-soon');
    assert.equal(await meta(post.id, '_wp_trash_meta_status'), 'publish');
    assert.ok(Number(await meta(post.id, '_wp_trash_meta_time')) >= before);
    // not among the sticky posts any more
    const sticky = await call('cms/v2/posts?sticky=true&status=any');
    assert.ok(!sticky.body.some((p: Obj) => p.id === post.id));
    for (const c of [approved, held]) assert.equal((await call(`cms/v2/comments/${c.id}?context=edit`)).body.status, 'post-trashed');

    // the freed slug goes to the next post of that name
    const next = await created('cms/v2/posts', { title: 'Leaving Soon', status: 'publish' });
    assert.equal(next.slug, 'leaving-soon');
    await call(`cms/v2/posts/${next.id}?force=true`, { method: 'DELETE' });

    // restored by setting a status: the slug it had, the meta gone, the comments as they were; it stays unstuck as in WordPress
    const restored = await call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { status: 'publish' } });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.status, 'publish');
    assert.equal(restored.body.slug, 'leaving-soon');
    assert.equal(restored.body.sticky, false);
    assert.equal(restored.body.link, `${server.home}${datePath(post)}leaving-soon/`);
    assert.equal(restored.body.permalink_template, `${server.home}${datePath(post)}%postname%/`);
    for (const key of ['_wp_desired_post_slug', '_wp_trash_meta_status', '_wp_trash_meta_time', '_wp_trash_meta_comments_status']) assert.equal(await meta(post.id, key), undefined, key);
    assert.equal((await call(`cms/v2/comments/${approved.id}?context=edit`)).body.status, 'approved');
    assert.equal((await call(`cms/v2/comments/${held.id}?context=edit`)).body.status, 'hold');
  });

  it('restores a post whose kept comment statuses are not readable (PHP’s serialization, from an import; a 500 once)', async () => {
    const post = await created('cms/v2/posts', { title: 'Imported', status: 'publish' });
    await call(`cms/v2/posts/${post.id}`, { method: 'DELETE' });
    await server.app.store.posts.meta.set(post.id, '_wp_trash_meta_comments_status', 'a:1:{i:7;s:1:"1";}');
    const restored = await call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { status: 'publish' } });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.status, 'publish');
  });

  it('gives a restored post a free slug when its old one was taken meanwhile', async () => {
    const post = await created('cms/v2/posts', { title: 'Taken Name', status: 'publish' });
    await call(`cms/v2/posts/${post.id}`, { method: 'DELETE' });
    const other = await created('cms/v2/posts', { title: 'Taken Name', status: 'publish' });
    assert.equal(other.slug, 'taken-name');
    const restored = await call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { status: 'draft' } });
    assert.equal(restored.body.status, 'draft');
    // a draft keeps the slug it is given (wp_unique_post_slug leaves drafts alone)
    assert.equal(restored.body.slug, 'taken-name');
    const published = await call(`cms/v2/posts/${post.id}`, { method: 'POST', json: { status: 'publish' } });
    assert.equal(published.body.slug, 'taken-name-2');
  });

  it('trashes a draft without a slug as `__trashed`, as wp_add_trashed_suffix_to_post_name_for_post does', async () => {
    const draft = await created('cms/v2/posts', { title: 'Unnamed draft' });
    assert.equal(draft.slug, '');
    const trashed = await call(`cms/v2/posts/${draft.id}`, { method: 'DELETE' });
    assert.equal(trashed.body.slug, '__trashed');
    assert.equal(await meta(draft.id, '_wp_desired_post_slug'), '');
    const again = await call(`cms/v2/posts/${draft.id}`, { method: 'DELETE' });
    assert.deepEqual(again, { status: 410, body: { code: 'rest_already_trashed', message: 'The post has already been deleted.', data: { status: 410 } } });
  });

  it('keeps a trashed page pretty in permalink_template (_get_page_link takes a sample as is) but plain in link', async () => {
    const page = await created('cms/v2/pages', { title: 'Old Page', status: 'publish' });
    const trashed = await call(`cms/v2/pages/${page.id}`, { method: 'DELETE' });
    assert.equal(trashed.body.slug, 'old-page__trashed');
    assert.equal(trashed.body.link, `${server.home}/?page_id=${page.id}`);
    assert.equal(trashed.body.permalink_template, `${server.home}/%pagename%/`);
    assert.equal(trashed.body.generated_slug, 'old-page');
  });
});

describe('cms/v2 posts: generated_slug follows the title (get_sample_permalink)', () => {
  it('is the title sanitized, whatever the slug, made unique among the other posts', async () => {
    const first = await created('cms/v2/posts', { title: 'Same Title', status: 'publish' });
    assert.equal(first.generated_slug, 'same-title');
    const custom = await created('cms/v2/posts', { title: 'Same Title', slug: 'my-own-slug', status: 'publish' });
    assert.equal(custom.slug, 'my-own-slug');
    assert.equal(custom.generated_slug, 'same-title-2');
    const draft = await created('cms/v2/posts', { title: 'Déjà Vu: Part_2' });
    assert.equal(draft.slug, '');
    assert.equal(draft.generated_slug, 'deja-vu-part_2');
    const renamed = await call(`cms/v2/posts/${draft.id}`, { method: 'POST', json: { title: 'Now Called This' } });
    assert.equal(renamed.body.generated_slug, 'now-called-this');
    assert.equal(renamed.body.slug, '');
  });

  it('keeps underscores in slugs, as sanitize_title does', async () => {
    const post = await created('cms/v2/posts', { title: 'Snake', slug: 'snake_case_slug', status: 'publish' });
    assert.equal(post.slug, 'snake_case_slug');
    const titled = await created('cms/v2/posts', { title: 'under_score  and   spaces', status: 'publish' });
    assert.equal(titled.slug, 'under_score-and-spaces');
  });
});

describe('cms/v2 pages: trashing the front page (_reset_front_page_settings_for_post)', () => {
  it('turns the front page back to the latest posts, and the posts page to none', async () => {
    const front = await created('cms/v2/pages', { title: 'Welcome', status: 'publish' });
    const blog = await created('cms/v2/pages', { title: 'Blog', status: 'publish' });
    const set = await call('cms/v2/settings', { method: 'POST', json: { show_on_front: 'page', page_on_front: front.id, page_for_posts: blog.id } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await call(`cms/v2/pages/${front.id}?context=edit`)).body.link, `${server.home}/`);
    await call(`cms/v2/pages/${front.id}`, { method: 'DELETE' });
    let settings = (await call('cms/v2/settings')).body;
    assert.deepEqual([settings.show_on_front, settings.page_on_front, settings.page_for_posts], ['posts', 0, blog.id]);
    await call(`cms/v2/pages/${blog.id}?force=true`, { method: 'DELETE' });
    settings = (await call('cms/v2/settings')).body;
    assert.deepEqual([settings.show_on_front, settings.page_on_front, settings.page_for_posts], ['posts', 0, 0]);
  });
});
