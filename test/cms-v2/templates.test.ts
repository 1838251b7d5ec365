import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

// WP_REST_Templates_Controller (WordPress 6.1) over the theme this server renders (`default`):
// its files (src/site/theme/templates, parts) as source `theme`, a stored edit overriding a file,
// the site's own templates, lookups through the template hierarchy, and the site showing a stored
// footer part.

const server = useServer();

type Json = Record<string, any>;

async function call(path: string, init: { method?: string; json?: unknown; auth?: string | null } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await server.call(path, { method: init.method, json: init.json, auth: init.auth === null ? undefined : (init.auth ?? server.admin) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const TEMPLATE_KEYS = ['id', 'theme', 'content', 'slug', 'source', 'origin', 'type', 'description', 'title', 'status', 'wp_id', 'has_theme_file', 'is_custom', 'author', '_links'];
const PART_KEYS = ['id', 'theme', 'content', 'slug', 'source', 'origin', 'type', 'description', 'title', 'status', 'wp_id', 'has_theme_file', 'author', 'area', '_links'];

describe('cms/v2 templates: permissions', () => {
  it('refuses anyone without edit_theme_options with rest_cannot_manage_templates', async () => {
    const editor = await userAuth(server, 'editor');
    const refusal = (status: number) => ({ code: 'rest_cannot_manage_templates', message: 'Sorry, you are not allowed to access the templates on this site.', data: { status } });
    for (const path of ['cms/v2/templates', 'cms/v2/template-parts', 'cms/v2/templates/default//index', 'cms/v2/template-parts/default//footer', 'cms/v2/templates/lookup?slug=single']) {
      const anon = await call(path, { auth: null });
      assert.equal(anon.status, 401, path);
      assert.deepEqual(anon.body, refusal(401));
      const asEditor = await call(path, { auth: editor.auth });
      assert.equal(asEditor.status, 403, path);
      assert.deepEqual(asEditor.body, refusal(403));
    }
    const write = await call('cms/v2/templates', { method: 'POST', json: { slug: 'nope', title: 'Nope' }, auth: editor.auth });
    assert.equal(write.status, 403);
    assert.equal(write.body.code, 'rest_cannot_manage_templates');
  });
});

describe('cms/v2 templates: the theme files', () => {
  it('lists the theme templates as WordPress builds them from files', async () => {
    const { status, body } = await call('cms/v2/templates');
    assert.equal(status, 200);
    assert.deepEqual(body.map((t: Json) => t.id), ['default//404', 'default//archive', 'default//index', 'default//page', 'default//search', 'default//single']);
    const index = body.find((t: Json) => t.slug === 'index');
    assert.deepEqual(Object.keys(index), TEMPLATE_KEYS);
    assert.deepEqual({ ...index, content: undefined, _links: undefined }, {
      id: 'default//index',
      theme: 'default',
      content: undefined,
      slug: 'index',
      source: 'theme',
      origin: null,
      type: 'cms_template',
      description: 'Displays posts.',
      title: { raw: 'Index', rendered: 'Index' },
      status: 'publish',
      wp_id: 0,
      has_theme_file: true,
      is_custom: false,
      author: 0,
      _links: undefined,
    });
    // the view context has the raw content only; template parts name the theme
    assert.deepEqual(Object.keys(index.content), ['raw']);
    assert.match(index.content.raw, /^<!-- wp:template-part \{"slug":"header","tagName":"header","theme":"default"\} \/-->/);
    assert.equal(body.find((t: Json) => t.slug === 'single').description, 'The default template for displaying any single post or attachment.');
    assert.deepEqual(index._links.self, [{ href: `${server.api}cms/v2/templates/default//index` }]);
    assert.deepEqual(index._links.collection, [{ href: `${server.api}cms/v2/templates` }]);
    assert.deepEqual(index._links.about, [{ href: `${server.api}cms/v2/types/cms_template` }]);
    assert.deepEqual(index._links['wp:action-publish'], [{ href: `${server.api}cms/v2/templates/default//index` }]);
    assert.deepEqual(index._links['wp:action-unfiltered-html'], [{ href: `${server.api}cms/v2/templates/default//index` }]);
  });

  it('lists the theme parts with their theme.json titles and areas', async () => {
    const { body } = await call('cms/v2/template-parts');
    assert.deepEqual(body.map((t: Json) => [t.id, t.title.raw, t.area]), [
      ['default//footer', 'Footer', 'footer'],
      ['default//header', 'Header', 'header'],
      ['default//sidebar', 'Sidebar', 'uncategorized'],
    ]);
    assert.deepEqual(Object.keys(body[0]), PART_KEYS);
    assert.equal(body[0].type, 'cms_template_part');
    assert.equal(body[0].description, '');
    const footers = await call('cms/v2/template-parts?area=footer');
    assert.deepEqual(footers.body.map((t: Json) => t.id), ['default//footer']);
    // a post type asks for custom templates only: the theme has none
    assert.deepEqual((await call('cms/v2/templates?post_type=post')).body, []);
  });

  it('answers one template by its id, with the slash doubled or not, and its block version in the edit context', async () => {
    for (const path of ['cms/v2/templates/default//single', 'cms/v2/templates/default/single', 'cms/v2/templates/default%2F%2Fsingle']) {
      const { status, body } = await call(path);
      assert.equal(status, 200, path);
      assert.equal(body.id, 'default//single');
    }
    const edit = await call('cms/v2/templates/default//single?context=edit');
    assert.deepEqual(Object.keys(edit.body.content), ['raw', 'block_version']);
    assert.equal(edit.body.content.block_version, 1);
    const embed = await call('cms/v2/templates/default//single?context=embed');
    assert.deepEqual(embed.body.content, []);
  });

  it('answers 404 rest_template_not_found for an id that names no template', async () => {
    for (const path of ['cms/v2/templates/single', 'cms/v2/templates/default//nothing', 'cms/v2/templates/other//single', 'cms/v2/template-parts/default//single']) {
      const { status, body } = await call(path);
      assert.equal(status, 404, path);
      assert.deepEqual(body, { code: 'rest_template_not_found', message: 'No templates exist with that id.', data: { status: 404 } });
    }
  });

  it('refuses to delete a theme file', async () => {
    const { status, body } = await call('cms/v2/templates/default//index?force=true', { method: 'DELETE' });
    assert.equal(status, 400);
    assert.deepEqual(body, { code: 'rest_invalid_template', message: "Templates based on theme files can't be removed.", data: { status: 400 } });
  });
});

describe('cms/v2 templates: lookup', () => {
  const lookup = async (query: string) => {
    const { status, body } = await call(`cms/v2/templates/lookup?${query}`);
    assert.equal(status, 200, JSON.stringify(body));
    return body.id as string;
  };

  it('answers the first template of the hierarchy the theme has', async () => {
    assert.equal(await lookup('slug=single-post-hello&template_prefix=single-post'), 'default//single');
    assert.equal(await lookup('slug=single-post-hello'), 'default//index');
    assert.equal(await lookup('slug=page-about&template_prefix=page'), 'default//page');
    assert.equal(await lookup('slug=category-news&template_prefix=category'), 'default//archive');
    assert.equal(await lookup('slug=my-landing&is_custom=true'), 'default//page');
    assert.equal(await lookup('slug=front-page'), 'default//index');
    assert.equal(await lookup('slug=404'), 'default//404');
  });

  it('needs a slug', async () => {
    const { status, body } = await call('cms/v2/templates/lookup');
    assert.equal(status, 400);
    assert.deepEqual(body, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): slug', data: { status: 400, params: ['slug'] } });
  });
});

describe('cms/v2 templates: the site’s own templates', () => {
  it('creates a template with 201 and Location, which then lists, looks up and deletes', async () => {
    const res = await call('cms/v2/templates', { method: 'POST', json: { slug: 'landing', title: 'Landing', description: 'A page without a sidebar.', content: '<!-- wp:paragraph -->\n<p>Hi</p>\n<!-- /wp:paragraph -->' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('location'), `${server.api}cms/v2/templates/default//landing`);
    const t = res.body;
    assert.deepEqual(Object.keys(t), TEMPLATE_KEYS);
    assert.equal(t.id, 'default//landing');
    assert.equal(t.source, 'custom');
    assert.equal(t.has_theme_file, false);
    assert.equal(t.is_custom, true);
    assert.equal(t.status, 'publish');
    assert.equal(t.description, 'A page without a sidebar.');
    assert.deepEqual(t.title, { raw: 'Landing', rendered: 'Landing' });
    assert.ok(t.wp_id > 0);
    const admin = await server.app.store.users.byLogin('admin');
    assert.equal(t.author, admin!.id);
    // stored templates come first; the list by wp_id has it alone
    assert.equal((await call('cms/v2/templates')).body[0].id, 'default//landing');
    assert.deepEqual((await call(`cms/v2/templates?wp_id=${t.wp_id}`)).body.map((x: Json) => x.id), ['default//landing']);
    assert.deepEqual((await call('cms/v2/templates?post_type=page')).body.map((x: Json) => x.id), ['default//landing']);

    // the same slug again gets a unique one
    const again = await call('cms/v2/templates', { method: 'POST', json: { slug: 'landing', title: 'Landing again' } });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, 'default//landing-2');

    const trashed = await call('cms/v2/templates/default//landing-2', { method: 'DELETE' });
    assert.equal(trashed.status, 200);
    assert.equal(trashed.body.status, 'trash');
    assert.equal(trashed.body.id, 'default//landing-2');
    assert.equal((await call('cms/v2/templates/default//landing-2')).status, 404);

    const deleted = await call('cms/v2/templates/default//landing?force=true', { method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.deleted, true);
    assert.equal(deleted.body.previous.id, 'default//landing');
    assert.equal(deleted.body.previous.content.block_version, 1);
    assert.equal((await call('cms/v2/templates/default//landing')).status, 404);
    assert.equal(await server.app.store.posts.get(t.wp_id), undefined);
  });

  it('answers WordPress’s errors for a bad create', async () => {
    const empty = await call('cms/v2/templates', { method: 'POST', json: { slug: 'blank' } });
    assert.equal(empty.status, 400);
    assert.deepEqual(empty.body, { code: 'empty_content', message: 'Content, title, and excerpt are empty.', data: { status: 400 } });
    const noSlug = await call('cms/v2/templates', { method: 'POST', json: { title: 'No slug' } });
    assert.equal(noSlug.status, 400);
    assert.deepEqual(noSlug.body, { code: 'rest_missing_callback_param', message: 'Missing parameter(s): slug', data: { status: 400, params: ['slug'] } });
    const author = await call('cms/v2/templates', { method: 'POST', json: { slug: 'orphan', title: 'Orphan', author: 987654 } });
    assert.equal(author.status, 400);
    assert.deepEqual(author.body, { code: 'rest_invalid_author', message: 'Invalid author ID.', data: { status: 400 } });
    assert.equal((await call('cms/v2/templates/default//orphan')).status, 404);
  });
});

describe('cms/v2 templates: naming a template made for one page, post, term or author', () => {
  it('titles and describes it after what it is for, as WordPress 6.1 does when it has neither', async () => {
    const made = async (slug: string, extra: Json = {}) => {
      const res = await call('cms/v2/templates', { method: 'POST', json: { slug, content: '<p>x</p>', ...extra } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return [res.body.title.raw, res.body.description];
    };
    assert.deepEqual(await made('page-sample-page'), ['Page: Sample Page', 'Template for Sample Page']);
    assert.deepEqual(await made('single-post-hello-world'), ['Post: Hello world!', 'Template for Hello world!']);
    assert.deepEqual(await made('category-uncategorized'), ['Category: Uncategorized', 'Template for Uncategorized']);
    assert.deepEqual(await made('author-admin'), ['Author: admin', 'Template for admin']);
    assert.deepEqual(await made('tag-nothing'), ['Not found: Tag (nothing)', '']);
    assert.deepEqual(await made('page-gone'), ['Not found: Page (gone)', '']);
    assert.deepEqual(await made('author-ghost'), ['Deleted author: ghost', '']);
    // a title or a description of its own is kept
    assert.deepEqual(await made('page-about-us', { title: 'About' }), ['About', '']);
    // two published pages of the same title: the slug tells them apart
    const page = await call('cms/v2/pages', { method: 'POST', json: { title: 'Sample Page', slug: 'sample-page-copy', status: 'publish' } });
    assert.equal(page.status, 201);
    assert.deepEqual((await call('cms/v2/templates/default//page-sample-page')).body.title.raw, 'Page: Sample Page (sample-page)');
  });
});

describe('cms/v2 template parts: editing the theme’s footer', () => {
  it('stores an edit over the file, shows it on the site, and reverts by deleting it', async () => {
    const before = await (await fetch(`${server.home}/`)).text();
    assert.match(before, /<footer class="site-footer">/);

    const edited = await call('cms/v2/template-parts/default//footer', { method: 'POST', json: { content: '<!-- wp:paragraph -->\n<p>Made with care &amp; coffee.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:site-title {"level":0} /-->' } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const part = edited.body;
    assert.deepEqual(Object.keys(part), PART_KEYS);
    assert.equal(part.id, 'default//footer');
    assert.equal(part.source, 'custom');
    assert.equal(part.has_theme_file, true);
    assert.equal(part.area, 'footer');
    // the file's title comes along; the response is in the edit context
    assert.deepEqual(part.title, { raw: 'Footer', rendered: 'Footer' });
    assert.deepEqual(Object.keys(part.content), ['raw', 'block_version']);
    assert.ok(part.wp_id > 0);

    const listed = (await call('cms/v2/template-parts')).body;
    assert.deepEqual(listed.map((t: Json) => [t.id, t.source]), [['default//footer', 'custom'], ['default//header', 'theme'], ['default//sidebar', 'theme']]);
    // the theme's file is still there behind it
    const file = await call('cms/v2/template-parts/default//footer?source=theme');
    assert.equal(file.body.source, 'theme');

    const page = await (await fetch(`${server.home}/`)).text();
    // do_blocks keeps the newlines around the serialised paragraph and the blank line before the next block
    assert.match(page, /<footer class="wp-block-template-part site-footer">\n\n<p>Made with care &amp; coffee.<\/p>\n\n\n<p class="wp-block-site-title"><a href="[^"]+" target="_self" rel="home">[^<]+<\/a><\/p>/);
    assert.doesNotMatch(page, /<footer class="site-footer">/);

    // a second edit updates the same post
    const again = await call('cms/v2/template-parts/default//footer', { method: 'PUT', json: { title: 'Site footer', area: 'nowhere' } });
    assert.equal(again.body.wp_id, part.wp_id);
    assert.deepEqual(again.body.title, { raw: 'Site footer', rendered: 'Site footer' });
    assert.equal(again.body.area, 'uncategorized');
    assert.match(again.body.content.raw, /Made with care/);
    // that update of the stored part kept a revision of it (its first edit made the post: none then)
    const revisions = await call(`cms/v2/template-parts/${part.wp_id}/revisions`);
    assert.equal(revisions.status, 200, JSON.stringify(revisions.body));
    assert.deepEqual(revisions.body.map((r: Json) => r.parent), [part.wp_id]);

    const trashed = await call('cms/v2/template-parts/default//footer', { method: 'DELETE' });
    assert.equal(trashed.status, 200);
    assert.equal(trashed.body.status, 'trash');
    const reverted = await call('cms/v2/template-parts/default//footer');
    assert.equal(reverted.body.source, 'theme');
    assert.equal(reverted.body.wp_id, 0);
    assert.match(await (await fetch(`${server.home}/`)).text(), /<footer class="site-footer">/);
  });

  it('reverts to the theme file with source=theme', async () => {
    const edited = await call('cms/v2/template-parts/default//header', { method: 'POST', json: { content: '<p>Custom header</p>' } });
    assert.equal(edited.body.source, 'custom');
    const reverted = await call('cms/v2/template-parts/default//header', { method: 'POST', json: { source: 'theme' } });
    assert.equal(reverted.status, 200);
    assert.equal(reverted.body.source, 'theme');
    assert.equal(await server.app.store.posts.get(edited.body.wp_id), undefined);
  });

  it('creates a part in the uncategorized area unless told, and only known areas', async () => {
    const plain = await call('cms/v2/template-parts', { method: 'POST', json: { slug: 'promo', title: 'Promo', content: '<p>Sale</p>' } });
    assert.equal(plain.status, 201);
    assert.equal(plain.body.area, 'uncategorized');
    const header = await call('cms/v2/template-parts', { method: 'POST', json: { slug: 'top-bar', title: 'Top bar', content: '<p>Top</p>', area: 'header' } });
    assert.equal(header.body.area, 'header');
    assert.deepEqual((await call('cms/v2/template-parts?area=header')).body.map((t: Json) => t.id), ['default//top-bar', 'default//header']);
    const bad = await call('cms/v2/template-parts', { method: 'POST', json: { slug: 'no way', title: 'x' } });
    assert.equal(bad.status, 201, 'the slug pattern is unanchored, as in WordPress');
  });
});

describe('cms/v2 templates: hostile values', () => {
  it('answers a 4xx or a stored edit for strange field values, never a 5xx', async () => {
    const values: unknown[] = ['', 'a'.repeat(200_000), '\u0000', null, [], {}, { raw: 5 }, { raw: '' }, 1e308, -1, true, '<script>alert(1)</script>'];
    for (const field of ['content', 'title', 'description', 'area', 'author', 'theme', 'status', 'slug', 'source']) {
      for (const value of values) {
        for (const path of ['cms/v2/template-parts/default//sidebar', 'cms/v2/template-parts']) {
          const json: Record<string, unknown> = { [field]: value };
          if (path.endsWith('parts')) json.slug ??= 'hostile';
          const res = await server.call(path, { json, auth: server.admin });
          assert.ok(res.status < 500, `${field}=${JSON.stringify(value)?.slice(0, 40)} on ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
        }
      }
    }
  });
});
