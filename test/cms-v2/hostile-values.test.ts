import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { adminAuth } from '../helpers/auth.ts';

// Values that once reached SQLite unchecked and answered 500 ("datatype mismatch", "LIKE or GLOB
// pattern too complex"). Each must get the answer WordPress gives.

let server: TestServer;
let admin: string;
type Obj = Record<string, any>;

before(async () => {
  server = await startTestServer();
  admin = await adminAuth(server);
  for (const name of ['Alpha', 'Beta']) assert.equal((await server.call('cms/v2/tags', { json: { name }, auth: admin })).status, 201);
});
after(() => server.close());

const HUGE = ['1e308', String(2n ** 63n)];
const FOUR_HUNDRED_DIGITS = `9${'9'.repeat(399)}`;

const get = async (path: string) => {
  const res = await server.call(path, { auth: admin });
  const body = (await res.json()) as Obj;
  return { res, body };
};

describe('page and offset far past the last row', () => {
  for (const [route, code] of [['posts', 'rest_post_invalid_page_number'], ['pages', 'rest_post_invalid_page_number'], ['search', 'rest_search_invalid_page_number'], ['search?type=term', 'rest_search_invalid_page_number']]) {
    it(`${route}: a huge page is ${code}`, async () => {
      for (const page of HUGE) {
        const { res, body } = await get(`cms/v2/${route}${route.includes('?') ? '&' : '?'}page=${page}`);
        assert.equal(res.status, 400, `page=${page}: ${JSON.stringify(body)}`);
        assert.deepEqual(body, { code, message: 'The page number requested is larger than the number of pages available.', data: { status: 400 } });
      }
    });
  }

  for (const route of ['categories', 'tags', 'users']) {
    it(`${route}: a huge page is an empty list with the totals`, async () => {
      const { res: first } = await get(`cms/v2/${route}`);
      const total = first.headers.get('x-wp-total');
      assert.ok(Number(total) > 0);
      for (const page of HUGE) {
        const { res, body } = await get(`cms/v2/${route}?page=${page}`);
        assert.equal(res.status, 200, `page=${page}: ${JSON.stringify(body)}`);
        assert.deepEqual(body, []);
        assert.equal(res.headers.get('x-wp-total'), total);
        assert.equal(res.headers.get('x-wp-totalpages'), first.headers.get('x-wp-totalpages'));
      }
    });
  }

  // the routes that take an offset (WordPress's categories and search do not)
  for (const route of ['posts', 'pages', 'tags', 'users']) {
    it(`${route}: a huge offset is an empty page with the totals`, async () => {
      const { res: first } = await get(`cms/v2/${route}`);
      for (const offset of HUGE) {
        const { res, body } = await get(`cms/v2/${route}?offset=${offset}`);
        assert.equal(res.status, 200, `offset=${offset}: ${JSON.stringify(body)}`);
        assert.deepEqual(body, []);
        assert.equal(res.headers.get('x-wp-total'), first.headers.get('x-wp-total'));
      }
    });
  }

  it('a 400-digit page or offset, beyond any number, is a WordPress-style 400', async () => {
    for (const route of ['posts', 'pages', 'tags', 'users', 'search']) {
      for (const arg of route === 'search' ? ['page'] : ['page', 'offset']) {
        const { res, body } = await get(`cms/v2/${route}?${arg}=${FOUR_HUNDRED_DIGITS}`);
        assert.equal(res.status, 400, `${route} ${arg}`);
        assert.equal(body.code, 'rest_invalid_param');
        assert.equal(body.data.status, 400);
      }
    }
  });
});

describe('slugs are cut to 200 characters, as WordPress cuts them', () => {
  const create = async (path: string, json: Obj) => {
    const res = await server.call(path, { json, auth: admin });
    const body = (await res.json()) as Obj;
    assert.equal(res.status, 201, JSON.stringify(body).slice(0, 300));
    return body;
  };

  it('a 50,000-character slug, or a title that becomes one, is stored as its first 200 characters', async () => {
    const bySlug = await create('cms/v2/posts', { title: 'Long slug', slug: 'a'.repeat(50_000), status: 'publish' });
    assert.equal(bySlug.slug, 'a'.repeat(200));
    const byTitle = await create('cms/v2/posts', { title: 'b'.repeat(50_000), status: 'publish' });
    assert.equal(byTitle.slug, 'b'.repeat(200));
    const tenThousand = await create('cms/v2/posts', { title: 'Ten thousand', slug: 'c'.repeat(10_000), status: 'publish' });
    assert.equal(tenThousand.slug, 'c'.repeat(200));
    const draft = await create('cms/v2/posts', { title: 'Draft', slug: 'd'.repeat(10_000) });
    assert.equal(draft.slug, 'd'.repeat(200));
  });

  it('a taken 200-character slug gets its suffix within the 200 (wp_unique_post_slug)', async () => {
    const again = await create('cms/v2/posts', { title: 'Again', slug: 'a'.repeat(50_000), status: 'publish' });
    assert.equal(again.slug, `${'a'.repeat(198)}-2`);
    const cut = await create('cms/v2/posts', { title: 'Cut', slug: `${'e'.repeat(199)}-x`, status: 'publish' });
    assert.equal(cut.slug, 'e'.repeat(199), 'no hyphen is left at the end of the cut');
  });

  it('term slugs too', async () => {
    const tag = await create('cms/v2/tags', { name: 'Long', slug: 't'.repeat(50_000) });
    assert.equal(tag.slug, 't'.repeat(200));
    const byName = await create('cms/v2/categories', { name: 'n'.repeat(50_000) });
    assert.equal(byName.slug, 'n'.repeat(200));
  });

  it('a title of 200,000 "<" is stored without stalling the server', async () => {
    // a hang guard, not a speed assertion: stripping tags from it was quadratic (about 40 s)
    const res = await fetch(`${server.api}cms/v2/posts`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '<'.repeat(200_000), status: 'publish' }),
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(res.status, 201);
    const post = (await res.json()) as Obj;
    assert.equal(post.slug, String(post.id));
  });
});

describe('names with markup', () => {
  it('an application password named with 200,000 "<" is created without stalling the server', async () => {
    // a hang guard, not a speed assertion: stripping tags from the name was quadratic (about 40 s)
    const res = await fetch(`${server.api}cms/v2/users/me/application-passwords`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '<'.repeat(200_000) }),
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(res.status, 201);
    assert.equal(((await res.json()) as Obj).name.length, 200_000);
  });
});

describe('search text of any length', () => {
  // a query string cannot be this long, but a JSON body can, with the method overridden to GET
  const search = (path: string, text: string) =>
    server.call(path, { json: { search: text }, headers: { 'x-http-method-override': 'GET' }, auth: admin });
  const long = 'z'.repeat(60_000);

  for (const path of ['cms/v2/posts', 'cms/v2/pages', 'cms/v2/tags', 'cms/v2/users', 'cms/v2/search']) {
    it(`${path}: 60,000 characters find nothing, and say so`, async () => {
      const res = await search(path, long);
      assert.equal(res.status, 200, (await res.clone().text()).slice(0, 300));
      assert.deepEqual(await res.json(), []);
      assert.equal(res.headers.get('x-wp-total'), '0');
    });
  }

  it('a long search text still finds what contains it', async () => {
    const text = `${'q'.repeat(60_000)} needle`;
    const created = (await (await server.call('cms/v2/posts', { json: { title: 'Haystack', content: `<p>${text}</p>`, status: 'publish' }, auth: admin })).json()) as Obj;
    for (const path of ['cms/v2/posts', 'cms/v2/search']) {
      const res = await search(path, text.toUpperCase());
      assert.equal(res.status, 200, path);
      assert.deepEqual(((await res.json()) as Obj[]).map((p) => p.id), [created.id], path);
    }
  });
});
