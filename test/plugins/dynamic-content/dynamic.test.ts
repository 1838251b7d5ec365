import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { assertNamespace, type Arg } from '../../helpers/route-index.ts';

type Obj = Record<string, any>;
const NS = 'kbp-dynamic/v1';
const ids: Record<string, number> = {};

const ARGS: Arg[] = [
  ['context', 'string'], ['page', 'number', 1], ['per_page', 'number', 25], ['search', 'string'], ['origin', 'string', 'core'], ['source', 'string', 'current'], ['group', 'string', 'post'],
  ['field', 'string'], ['custom', 'string'], ['para', 'string'], ['force_string', 'boolean', false], ['ignore_source', 'boolean', false], ['before', 'string'], ['after', 'string'],
  ['fallback', 'string'], ['current', 'string'], ['relcustom', 'string'], ['relate', 'string'], ['useRepeaterContext', 'boolean', false], ['repeaterRow', 'string'],
];
/** The field group these tests read (a site declares its own under spec/fields; this one is the tests'). */
const BOOK_DETAILS = new URL('../../fixtures/fields/book-details.yaml', import.meta.url).pathname;
const GET_ROUTES = ['render', 'image_render', 'image_data', 'gallery_data', 'custom_fields', 'link_label', 'input_label', 'list_data', 'html_data', 'repeaters', 'repeater_data'];

async function seed(site: ServerFixture): Promise<void> {
  const s = site.app.store;
  for (const [key, name, w, h] of [['cover', 'cover.jpg', 1600, 800], ['photo', 'photo.png', 400, 300]] as const) {
    ids[key] = await s.posts.insert({ title: name, type: 'attachment', mime_type: 'image/jpeg', guid: `http://media.test/${name}` });
    await s.posts.meta.set(ids[key], '_wp_attachment_metadata', JSON.stringify({ width: w, height: h, sizes: { thumbnail: { file: `thumb-${name}`, width: 150, height: 150 } } }));
  }
  await s.posts.meta.set(ids.cover, '_wp_attachment_image_alt', 'A "cover"');
  const create = async (json: Obj) => {
    const res = await site.call('cms/v2/pages', { json: { status: 'publish', ...json }, auth: site.admin });
    assert.equal(res.status, 201, await res.clone().text());
    return ((await res.json()) as Obj).id as number;
  };
  ids.sequel = await create({ title: 'The Sequel', meta: { book_subtitle: 'Part two' } });
  ids.book = await create({
    title: 'A <em>Book</em>',
    featured_media: ids.cover,
    meta: {
      book_subtitle: 'Tales & <b>stories</b>',
      book_rating: 4.5,
      book_in_print: true,
      book_cover: ids.cover,
      book_photos: [ids.photo, ids.cover, 999999],
      book_genres: ['fiction', 'poetry'],
      book_review: '<p onclick="steal()">Great <script>alert(1)</script><a href="javascript:alert(1)">read</a></p>',
      book_website: 'https://books.test/a?b=1',
      book_sequel: [ids.sequel],
      book_chapters: [
        { title: 'Opening <i>night</i>', pages: 12, picture: ids.photo, notes: '<b>ok</b><img src=x onerror=alert(1)>' },
        { title: 'Ending', pages: 30 },
      ],
    },
  });
  await s.posts.meta.set(ids.book, 'plain_key', 'plain <value>');
  ids.empty = await create({ title: 'No fields' });
  ids.draft = (await (await site.call('cms/v2/pages', { json: { title: 'Secret draft', meta: { book_subtitle: 'hidden' } }, auth: site.admin })).json() as Obj).id;
}

describe('kbp-dynamic/v1 on posts with fields and repeaters', () => {
  const site = useServer({ compose: { fields: [BOOK_DETAILS] } }, seed);
  const get = async (route: string, params: Obj, auth: string = site.admin) => {
    const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
    const res = await site.call(`${NS}/${route}?${qs}`, { auth });
    return { status: res.status, body: (await res.json()) as any };
  };
  const body = async (route: string, params: Obj, auth?: string) => {
    const r = await get(route, params, auth);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };

  test('the fields are registered post meta: typed in cms/v2, validated on write', async () => {
    const post = (await (await site.call(`cms/v2/pages/${ids.book}`)).json()) as Obj;
    assert.equal(post.meta.book_rating, 4.5);
    assert.equal(post.meta.book_in_print, true);
    assert.deepEqual(post.meta.book_genres, ['fiction', 'poetry']);
    assert.equal(post.meta.book_chapters[1].title, 'Ending');
    const bad = await site.call(`cms/v2/pages/${ids.book}`, { json: { meta: { book_genres: ['cooking'], book_cover: 'x' } }, auth: site.admin });
    assert.equal(bad.status, 400);
    assert.equal(((await bad.json()) as Obj).code, 'rest_invalid_param');
  });

  test('render: core post fields, custom fields, author, site, user; fallbacks', async () => {
    const r = (params: Obj) => body('render', { source: ids.book, ...params });
    assert.equal(await r({ field: 'post|post_title' }), 'A <em>Book</em>');
    assert.equal(await r({ field: 'post|post_id' }), ids.book);
    assert.equal(await r({ field: 'post|post_type' }), 'page');
    assert.match(await r({ field: 'post|post_url' }), /\/a-book\/$/);
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_subtitle' }), 'Tales &amp; &lt;b&gt;stories&lt;/b&gt;', 'text is escaped');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'kb_custom_input', custom: 'book_rating' }), 4.5);
    assert.equal(await r({ field: 'post|post_custom_field', para: 'plain_key' }), 'plain &lt;value&gt;');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_genres' }), 'fiction, poetry');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_in_print' }), '1');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_review' }), '<p>Great <a>read</a></p>', 'HTML fields are sanitized, nothing runs');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', before: '<strong>', after: ' <script>x</script>!' }), '<strong></strong>Tales &amp; &lt;b&gt;stories&lt;/b&gt; !');
    assert.equal(await r({ field: 'post|post_title', source: 'current', current: String(ids.sequel) }), 'The Sequel', 'current names the post being edited');
    assert.equal(await r({ field: 'author|author_name' }), 'admin');
    assert.match(await r({ field: 'author|author_url' }), /\/author\/admin\/$/);
    assert.equal(await r({ field: 'site|site_title' }), 'cms-spec');
    assert.equal(await r({ field: 'user|username' }), 'admin');
    assert.equal(await r({ field: 'relationship|post_title', relate: 'acf_meta|book_sequel' }), 'The Sequel');
    // fallbacks
    assert.equal(await body('render', {}), 'No Content');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', source: ids.empty }), 'No Content');
    assert.equal(await r({ field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', source: ids.empty, fallback: 'None yet' }), 'None yet');
    assert.equal(await r({ field: 'post|post_title', source: 'current' }), 'No Content', 'no current post in a REST request');
    assert.equal(await r({ field: 'post|nonsense' }), 'No Content');
  });

  test('repeater context: a row of a repeater', async () => {
    const row = (field: string, repeaterRow: number, route = 'render') => body(route, { source: `${ids.book}|acf_repeater|book_chapters`, field, useRepeaterContext: true, repeaterRow });
    assert.equal(await row('acf_repeater|title', 0), 'Opening &lt;i&gt;night&lt;/i&gt;');
    assert.equal(await row('acf_repeater|pages', 1), 30);
    assert.equal(await row('acf_repeater|notes', 0, 'html_data'), '<b>ok</b><img src="x" />');
    assert.deepEqual(await row('acf_repeater|picture', 0, 'image_data'), ['http://media.test/photo.png', 400, 300, false, '', ids.photo]);
    assert.equal(await row('acf_repeater|title', 5), 'No Content');
  });

  test('images, backgrounds, galleries and lists', async () => {
    assert.deepEqual(await body('image_data', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_cover' }), ['http://media.test/cover.jpg', 1600, 800, false, 'A "cover"', ids.cover]);
    assert.deepEqual(await body('image_data', { source: ids.book, field: 'post|post_featured_image', before: 'thumbnail' }), ['http://media.test/thumb-cover.jpg', 150, 150, true, 'A "cover"', ids.cover], '`before` names the size');
    assert.equal(await body('image_data', { source: ids.empty, field: 'post|post_featured_image' }), '');
    assert.equal(await body('image_render', { source: ids.book, field: 'post|post_featured_image_url' }), 'http://media.test/cover.jpg');
    assert.equal(await body('image_render', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_photos' }), 'http://media.test/photo.png', 'the first image');
    assert.equal(await body('image_render', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_website' }), 'https://books.test/a?b=1');
    assert.equal(await body('image_render', { source: ids.empty, field: 'post|post_featured_image_url' }), '');
    const gallery = await body('gallery_data', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_photos' });
    assert.deepEqual(gallery.map((g: unknown[]) => g[5]), [ids.photo, ids.cover], 'a missing attachment is left out');
    assert.equal(await body('gallery_data', { source: ids.empty, field: 'post|post_custom_field', para: 'acf_meta|book_photos' }), '');
    assert.deepEqual(await body('list_data', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_genres' }), ['fiction', 'poetry']);
    assert.equal(await body('list_data', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_subtitle' }), '');
    assert.equal(await body('render', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_photos', force_string: true }), `${ids.photo}, ${ids.cover}, 999999`);
  });

  test('a stored URL with malformed percent-encoding is printed as esc_url prints it (a 500 once)', async () => {
    // esc_url: spaces become %20, a % stays as it is
    await site.app.store.posts.meta.set(ids.empty, 'book_website', 'https://books.test/%E0%A4%A.jpg?x=a b');
    try {
      assert.equal(await body('image_render', { source: ids.empty, field: 'post|post_custom_field', para: 'acf_meta|book_website' }), 'https://books.test/%E0%A4%A.jpg?x=a%20b');
    } finally {
      await site.app.store.posts.meta.delete(ids.empty, 'book_website');
    }
  });

  test('html_data: sanitized HTML, and the post content marker', async () => {
    assert.equal(await body('html_data', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_review' }), '<p>Great <a>read</a></p>');
    assert.deepEqual(await body('html_data', { source: ids.book, field: 'post|post_content' }), { content: 'post_content', post_id: ids.book, post_type: 'page' });
    assert.equal(await body('html_data', {}), '');
  });

  test('labels: link_label and input_label', async () => {
    assert.equal(await body('link_label', { source: ids.book, field: 'post|post_url' }), 'Post URL | A &lt;em&gt;Book&lt;/em&gt;');
    assert.equal(await body('link_label', { source: ids.book, field: 'post|post_url', current: 'current' }), 'Post URL | Current Post');
    assert.equal(await body('link_label', { source: ids.book, field: 'post|post_custom_field', para: 'acf_meta|book_website', current: 'current' }), 'Website | Current Post');
    assert.equal(await body('link_label', { field: 'site|site_url' }), 'Site URL');
    assert.equal(await body('link_label', {}), 'No Link');
    assert.equal(await body('input_label', { source: ids.sequel, field: 'post|post_custom_field', para: 'acf_meta|book_rating' }), 'The Sequel | Rating');
    assert.equal(await body('input_label', { field: 'user|email' }), 'User Info | Email');
    assert.equal(await body('input_label', { field: 'post_title' }), 'No Content');
  });

  test('custom_fields, repeaters and repeater_data', async () => {
    const text = await body('custom_fields', { source: ids.book, field: 'post|post_custom_field' });
    assert.deepEqual(text.map((g: Obj) => g.label), ['Book details', 'Custom Fields', 'Manual']);
    assert.deepEqual(text[0].options.map((o: Obj) => o.value), ['acf_meta|book_subtitle', 'acf_meta|book_rating', 'acf_meta|book_in_print', 'acf_meta|book_genres', 'acf_meta|book_review', 'acf_meta|book_website']);
    assert.deepEqual(text[1].options, [{ value: 'plain_key', label: 'plain_key' }]);
    assert.deepEqual(text.at(-1), { label: 'Manual', options: [{ value: 'kb_custom_input', label: 'Custom Input' }] });
    await site.app.store.posts.meta.set(ids.sequel, 'sequel_note', 'to be continued');
    const related = await body('custom_fields', { source: ids.book, field: 'relationship|post_custom_field', relate: 'acf_meta|book_sequel' });
    assert.deepEqual(related[1], { label: 'Custom Fields', options: [{ value: 'sequel_note', label: 'sequel_note' }] }, "a relationship offers the related post's fields");
    const byKey = await body('custom_fields', { source: ids.book, field: 'relationship|post_custom_field', relate: 'kb_custom_input', relcustom: 'book_sequel' });
    assert.deepEqual(byKey[1].options, [{ value: 'sequel_note', label: 'sequel_note' }], 'or those of the post a meta key names');
    const images = await body('custom_fields', { source: ids.book, type: 'image' });
    assert.deepEqual(images[0].options.map((o: Obj) => o.value), ['acf_meta|book_cover']);
    const subs = await body('custom_fields', { source: `${ids.book}|acf_repeater|book_chapters`, useRepeaterContext: true, type: 'image' });
    assert.deepEqual(subs, [{ label: 'Sub Fields', options: [{ value: 'acf_repeater|picture', label: 'Picture', type: 'image' }] }]);
    const reps = await body('repeaters', { source: ids.book });
    assert.deepEqual(reps, [{ label: 'Book details', options: [{ value: 'acf_repeater|book_chapters', label: 'Chapters', options: [
      { value: 'acf_repeater|title', label: 'Chapter title', type: 'text' }, { value: 'acf_repeater|pages', label: 'Pages', type: 'number' },
      { value: 'acf_repeater|picture', label: 'Picture', type: 'image' }, { value: 'acf_repeater|notes', label: 'Notes', type: 'wysiwyg' },
    ] }] }]);
    const rows = await body('repeater_data', { source: ids.book, field: 'acf_repeater|book_chapters' });
    assert.deepEqual(rows.map((r: Obj) => r.pages), [12, 30]);
    assert.equal(await body('repeater_data', { source: ids.empty, field: 'acf_repeater|book_chapters' }), '');
    assert.equal(await body('repeater_data', { source: ids.book, field: 'acf_repeater|book_subtitle' }), '');
  });

  test('batch: many requests in one call, keyed, with errors per item', async () => {
    const res = await site.call(`${NS}/batch`, {
      json: {
        title: { field: 'post|post_title', source: ids.book },
        cover: { type: 'image', field: 'post|post_custom_field', para: 'acf_meta|book_cover', source: ids.book },
        list: { type: 'list', field: 'post|post_custom_field', para: 'acf_meta|book_genres', source: ids.book },
        fields: { type: 'custom_fields', source: ids.book, type_unused: true },
        terms: { type: 'term_query', tax_type: 'category', source: 'all' },
        broken: 'not an object',
      },
      auth: site.admin,
    });
    assert.equal(res.status, 200);
    const out = (await res.json()) as Obj;
    assert.equal(out.title, 'A <em>Book</em>');
    assert.equal(out.cover[5], ids.cover);
    assert.deepEqual(out.list, ['fiction', 'poetry']);
    assert.ok(Array.isArray(out.fields));
    assert.deepEqual(out.terms, [{ value: 1, label: 'Uncategorized' }]);
    assert.deepEqual(out.broken.error, true);
    const list = (await (await site.call(`${NS}/batch`, { json: [{ field: 'post|post_id', source: ids.book }, {}], auth: site.admin })).json()) as unknown[];
    assert.deepEqual(list, [ids.book, 'No Content'], 'a list in, a list out');
    const empty = await site.call(`${NS}/batch`, { json: {}, auth: site.admin });
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as Obj).code, 'invalid_request');
  });

  test('batch: a draft source and a site option answer per item what each caller may see', async () => {
    await site.app.store.options.set('kb_opening_hours', 'Open <b>late</b>');
    const subtitle = { field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', source: ids.draft };
    const option = { field: 'site|custom_setting', para: 'kb_custom_input', custom: 'kb_opening_hours' };
    const items = {
      draft: subtitle,
      draftHtml: { ...subtitle, type: 'html' },
      draftStatus: { field: 'post|post_status', source: ids.draft },
      option,
      optionHtml: { ...option, type: 'html' },
    };
    const batch = async (auth?: string) => {
      const res = await site.call(`${NS}/batch`, { json: items, auth });
      return { status: res.status, body: (await res.json()) as Obj };
    };

    assert.deepEqual(await batch(), { status: 401, body: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } } });

    const refused = 'User does not have capability to view site settings.';
    const contributor = await userAuth(site, 'contributor');
    assert.deepEqual(await batch(contributor.auth), {
      status: 200,
      body: { draft: 'No Content', draftHtml: '', draftStatus: 'No Content', option: refused, optionHtml: refused },
    }, "another's draft is hidden from a contributor, a site option from all but managers of options");

    const editor = await userAuth(site, 'editor');
    assert.deepEqual(await batch(editor.auth), {
      status: 200,
      body: { draft: 'hidden', draftHtml: 'hidden', draftStatus: 'draft', option: refused, optionHtml: refused },
    }, 'an editor reads the draft (edit_others_pages), and has no manage_options');

    assert.deepEqual(await batch(site.admin), {
      status: 200,
      body: { draft: 'hidden', draftHtml: 'hidden', draftStatus: 'draft', option: 'Open &lt;b&gt;late&lt;/b&gt;', optionHtml: 'Open <b>late</b>' },
    });
  });

  test("permissions: edit_posts; a source the caller may not read, or a site option without manage_options, yields nothing", async () => {
    for (const route of GET_ROUTES) assert.equal((await site.call(`${NS}/${route}`)).status, 401, route);
    assert.equal((await site.call(`${NS}/batch`, { json: { a: {} } })).status, 401);
    const subscriber = await userAuth(site, 'subscriber');
    assert.equal((await get('render', { field: 'post|post_title', source: ids.book }, subscriber.auth)).status, 403);
    const contributor = await userAuth(site, 'contributor');
    assert.equal(await body('render', { field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', source: ids.draft }, contributor.auth), 'No Content');
    assert.equal(await body('render', { field: 'post|post_custom_field', para: 'acf_meta|book_subtitle', source: ids.draft }), 'hidden', 'the draft is readable by its editor');
    assert.equal(await body('render', { field: 'site|custom_setting', para: 'kb_custom_input', custom: 'admin_email' }, contributor.auth), 'User does not have capability to view site settings.');
    assert.equal(await body('image_render', { field: 'site|custom_setting', para: 'kb_custom_input', custom: 'admin_email' }, contributor.auth), '');
    assert.match(await body('render', { field: 'site|custom_setting', para: 'kb_custom_input', custom: 'blogname' }), /cms-spec/);
  });
});

describe('kbp-dynamic/v1 in the route index', () => {
  describe('Variant A', () => {
    const site = useServer();
    test('eleven GET routes with the interface args, and POST batch without args', async () => {
      const routes = Object.fromEntries([...GET_ROUTES.map((r) => [`/${r}`, ARGS]), ['/batch', []]]);
      await assertNamespace(site, NS, routes, { '/batch': 'POST' });
      const { namespaces } = (await (await site.call('')).json()) as Obj;
      assert.ok(namespaces.indexOf('kbpp/v1') < namespaces.indexOf(NS));
    });
  });
  describe('Variant B', () => {
    const site = useServer({ variant: 'B' });
    test('absent', async () => {
      assert.ok(!((await (await site.call('')).json()) as Obj).namespaces.includes(NS));
      assert.equal((await site.call(`${NS}/render`, { auth: site.admin })).status, 404);
    });
  });
});
