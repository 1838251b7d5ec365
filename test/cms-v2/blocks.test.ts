import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

const server = useServer();

type Obj = Record<string, any>;

const json = (path: string, init: { method?: string; json?: unknown; auth?: string } = {}, status = 200) => server.json(path, init, status);

const error = (path: string, init: { method?: string; json?: unknown; auth?: string | undefined }, status: number, code: string, message: string) => server.error(path, init, status, code, message);

const MARKUP = '<!-- wp:paragraph --><p>Call to action</p><!-- /wp:paragraph -->';

describe('cms/v2 blocks (reusable blocks, WP_REST_Blocks_Controller)', () => {
  let block: Obj;

  it('creates a block, answering its raw markup and never a rendering', async () => {
    block = await json('cms/v2/blocks', { method: 'POST', json: { title: 'CTA', content: MARKUP, status: 'publish' } }, 201);
    assert.deepEqual(Object.keys(block), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'template', '_links']);
    assert.equal(block.type, 'cms_block');
    assert.equal(block.slug, 'cta');
    assert.deepEqual(block.title, { raw: 'CTA' });
    assert.deepEqual(block.content, { raw: MARKUP, protected: false, block_version: 1 });
    assert.equal(block._links.self[0].href, `${server.api}cms/v2/blocks/${block.id}`);
    assert.deepEqual(block._links['version-history'], [{ count: 0, href: `${server.api}cms/v2/blocks/${block.id}/revisions` }]);
  });

  it('shows the raw markup in view context too, and nothing of it embedded', async () => {
    const view = await json(`cms/v2/blocks/${block.id}`);
    assert.deepEqual(Object.keys(view), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'content', 'template', '_links']);
    assert.deepEqual(view.title, { raw: 'CTA' });
    assert.deepEqual(view.content, { raw: MARKUP, protected: false });
    const [embedded] = (await json('cms/v2/blocks?context=embed')) as Obj[];
    assert.deepEqual(Object.keys(embedded), ['id', 'date', 'slug', 'type', 'link', 'title', '_links']);
    assert.deepEqual(embedded.title, []);
  });

  it('is read by those who may edit posts only, published or not', async () => {
    const anonymous = await server.call('cms/v2/blocks');
    assert.equal(anonymous.status, 200);
    assert.deepEqual(await anonymous.json(), []);
    await error(`cms/v2/blocks/${block.id}`, {}, 401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    const subscriber = await userAuth(server, 'subscriber');
    await error(`cms/v2/blocks/${block.id}`, { auth: subscriber.auth }, 403, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    const contributor = await userAuth(server, 'contributor');
    assert.equal((await json(`cms/v2/blocks/${block.id}`, { auth: contributor.auth })).id, block.id);
    assert.deepEqual(((await json('cms/v2/blocks', { auth: contributor.auth })) as Obj[]).map((b) => b.id), [block.id]);
  });

  it('is created by those who may publish posts', async () => {
    const contributor = await userAuth(server, 'contributor');
    await error('cms/v2/blocks', { method: 'POST', json: { title: 'No', content: MARKUP }, auth: contributor.auth }, 403, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
    await error('cms/v2/blocks', { method: 'POST', json: { title: 'No', content: MARKUP } }, 401, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
    const author = await userAuth(server, 'author');
    const mine = await json('cms/v2/blocks', { method: 'POST', json: { title: 'Author block', content: MARKUP, status: 'publish' }, auth: author.auth }, 201);
    assert.equal(mine.status, 'publish');
  });

  it('keeps revisions and autosaves of a block, with its raw title and content in view context', async () => {
    const updated = await json(`cms/v2/blocks/${block.id}`, { method: 'POST', json: { content: MARKUP.replace('Call', 'A call') } });
    assert.equal(updated._links['version-history'][0].count, 1);
    const [revision] = (await json(`cms/v2/blocks/${block.id}/revisions`)) as Obj[];
    assert.deepEqual(Object.keys(revision), ['author', 'date', 'date_gmt', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'guid', 'title', 'content', '_links']);
    assert.deepEqual(revision.title, { raw: 'CTA', rendered: 'CTA' });
    assert.equal(revision.content.raw, MARKUP.replace('Call', 'A call'));
    assert.equal(revision._links.parent[0].href, `${server.api}cms/v2/blocks/${block.id}`);
    const autosave = await json(`cms/v2/blocks/${block.id}/autosaves`, { method: 'POST', json: { content: MARKUP.replace('Call', 'Your call') } });
    assert.equal(autosave.parent, block.id);
    // blocks are not viewable on the site, so there is nothing to preview
    assert.equal(autosave.preview_link, '');
    assert.deepEqual(((await json(`cms/v2/blocks/${block.id}/autosaves`)) as Obj[]).map((a) => a.id), [autosave.id]);
  });

  it('trashes, then deletes', async () => {
    const trashed = await json(`cms/v2/blocks/${block.id}`, { method: 'DELETE' });
    assert.equal(trashed.status, 'trash');
    const deleted = await json(`cms/v2/blocks/${block.id}?force=true`, { method: 'DELETE' });
    assert.equal(deleted.deleted, true);
    await error(`cms/v2/blocks/${block.id}`, { auth: server.admin }, 404, 'rest_post_invalid_id', 'Invalid post ID.');
  });

  it('declares WordPress 6.1’s args', async () => {
    const index = (await json('cms/v2')) as { routes: Record<string, { endpoints: { methods: string[]; args: Obj }[] }> };
    const list = index.routes['/cms/v2/blocks'];
    assert.deepEqual(list.endpoints.map((e) => [e.methods, Object.keys(e.args)]), [
      [['GET'], ['context', 'page', 'per_page', 'search', 'after', 'modified_after', 'before', 'modified_before', 'exclude', 'include', 'offset', 'order', 'orderby', 'slug', 'status']],
      [['POST'], ['date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'template']],
    ]);
    const item = index.routes['/cms/v2/blocks/(?P<id>[\\d]+)'];
    assert.deepEqual(item.endpoints.map((e) => [e.methods, Object.keys(e.args)]), [
      [['GET'], ['id', 'context', 'password']],
      [['POST', 'PUT', 'PATCH'], ['id', 'date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'template']],
      [['DELETE'], ['id', 'force']],
    ]);
  });
});
