import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { missingProperties, routeSchema, schemaProblems } from '../helpers/response-schema.ts';

// The schema each core route answers OPTIONS with is the one its answers are shaped by: in each
// context, an answer has every property the schema shows there, none it does not, and each of
// the type the schema says (WordPress's get_item_schema and prepare_item_for_response agree).
// The core alone, no plugin active: a plugin's own fields (the SEO plugin's yoast_head, the field
// group's meta keys on pages) are not in the schemas OPTIONS serves.

const POST_STATUSES = '["publish","future","draft","pending","private"]';
/** Where an answer differs from its schema on purpose, by resource: the exact problems, and why. */
const KNOWN: Record<string, string[]> = {
  // as WordPress 6.1: the attachment schema keeps the posts controller's status enum and an integer
  // `post`, while an attachment answers status inherit and post null when it is attached to none
  media: [`$.status: "inherit" is not one of ${POST_STATUSES}`, '$.post: null is not of type integer'],
};

describe('cms/v2 answers match the schema OPTIONS gives for their route', () => {
  const ids: Record<string, number> = {};
  const site = useServer({ compose: { plugins: [] } }, async (s) => {
    const json = (path: string, body: unknown) => s.json(path, { method: 'POST', json: body }, 201);
    ids.category = (await json('cms/v2/categories', { name: 'Travel', description: 'Places.' })).id;
    ids.tag = (await json('cms/v2/tags', { name: 'Summer' })).id;
    ids.post = (await json('cms/v2/posts', { title: 'Schema post', content: '<p>Body</p>', excerpt: 'Short', status: 'publish', categories: [ids.category], tags: [ids.tag] })).id;
    ids.page = (await json('cms/v2/pages', { title: 'Schema page', content: '<p>About</p>', status: 'publish' })).id;
    ids.comment = (await json('cms/v2/comments', { post: ids.post, content: 'Nice post.' })).id;
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const upload = await s.call('cms/v2/media', { method: 'POST', body: png as unknown as string, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="dot.png"' }, auth: s.admin });
    assert.equal(upload.status, 201);
    ids.media = (await upload.json()).id;
    ids.user = (await s.json('cms/v2/users/me')).id;
  });

  const RESOURCES = [
    { name: 'posts', collection: 'cms/v2/posts', item: () => `cms/v2/posts/${ids.post}` },
    { name: 'pages', collection: 'cms/v2/pages', item: () => `cms/v2/pages/${ids.page}` },
    { name: 'users', collection: 'cms/v2/users', item: () => `cms/v2/users/${ids.user}` },
    { name: 'comments', collection: 'cms/v2/comments', item: () => `cms/v2/comments/${ids.comment}` },
    { name: 'categories', collection: 'cms/v2/categories', item: () => `cms/v2/categories/${ids.category}` },
    { name: 'tags', collection: 'cms/v2/tags', item: () => `cms/v2/tags/${ids.tag}` },
    { name: 'media', collection: 'cms/v2/media', item: () => `cms/v2/media/${ids.media}` },
  ];

  for (const r of RESOURCES)
    for (const context of ['view', 'edit']) {
      test(`${r.name}, ${context} context: the item and every item of the collection`, async () => {
        const schema = await routeSchema(site, r.collection);
        const item = await site.json(`${r.item()}?context=${context}`);
        const list = (await site.json(`${r.collection}?context=${context}`)) as Record<string, unknown>[];
        assert.ok(list.length > 0, `${r.collection} lists nothing`);
        for (const [where, answer] of [['item', item], ...list.map((a, i) => [`collection[${i}]`, a])] as [string, Record<string, unknown>][]) {
          assert.deepEqual(schemaProblems(answer, schema, context), KNOWN[r.name] ?? [], `${r.name} ${where} (${context})`);
          assert.deepEqual(missingProperties(answer, schema, context), [], `${r.name} ${where} (${context}) lacks properties its schema shows`);
        }
      });
    }

  test('the helper catches what it names: a field outside its context, a wrong type, an undeclared field, a missing one', async () => {
    const schema = await routeSchema(site, 'cms/v2/tags');
    const tag = await site.json(`cms/v2/tags/${ids.tag}?context=view`);
    assert.deepEqual(schemaProblems({ ...tag, id: '7', surprise: 1 }, schema, 'embed'), [
      '$.id: "7" is not of type integer',
      '$.count: present, but the schema shows it only in view, edit',
      '$.description: present, but the schema shows it only in view, edit',
      '$.meta: present, but the schema shows it only in view, edit',
      '$.surprise: not declared in the schema',
    ]);
    const { name: _, ...nameless } = tag;
    assert.deepEqual(missingProperties(nameless, schema, 'view'), ['name']);
  });
});
