import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, useServer } from '../helpers/server.ts';
import { DATED_PERMALINKS, setOptions } from '../site/content.ts';

// The differences `scripts/wp-parity.ts` found between this server's /wp-json/wp/v2 and a real
// WordPress 6.1.9's (Debian's package, permalinks /%year%/%monthnum%/%day%/%postname%/), each with
// WordPress's answer written in it.

type Obj = Record<string, any>;

const server = useServer({}, async (s) => {
  await setOptions(s, { permalink_structure: DATED_PERMALINKS });
});

const wp = (path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${server.home}/wp-json/${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { authorization: server.admin, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
const created = async (path: string, json: Obj): Promise<Obj> => {
  const res = await wp(path, { json });
  assert.equal(res.status, 201, await res.clone().text());
  return res.json();
};
/** `/YYYY/MM/DD/` of a post's site-local date, as the dated permalink structure writes it. */
const day = (post: Obj) => String(post.date).slice(0, 10).replaceAll('-', '/');

describe('the differences from WordPress 6.1.9 that the side-by-side probe found', () => {
  it('points an answer under /wp-json/ at /wp-json/ in its Link header, as WordPress points at the root it answers under', async () => {
    // WordPress 6.1.9, `curl -I /wp-json/wp/v2/types`: Link: <http://127.0.0.1:8061/wp-json/>; rel="https://api.w.org/"
    for (const path of ['wp/v2/types', 'wp/v2/posts/999999', '']) {
      const res = await fetch(`${server.home}/wp-json/${path}`);
      assert.equal(res.headers.get('link'), `<${server.home}/wp-json/>; rel="https://api.w.org/"`, path);
    }
    // twice: the second anonymous GET is answered from the headers kept for the route
    for (let i = 0; i < 2; i++) assert.equal((await fetch(`${server.api}cms/v2/types`)).headers.get('link'), `<${server.api}>; rel="https://api.w.org/"`);
    assert.equal((await wp('wp/v2/users/me')).headers.get('link'), `<${server.home}/wp-json/>; rel="https://api.w.org/"`);
  });

  it('gives a post published as it is created its permalink as guid, as wp_insert_post does; a draft keeps ?p=ID', async () => {
    // WordPress 6.1.9, POST wp/v2/posts {"title":"fidelity guid published","status":"publish"}:
    // guid {"rendered":"http://127.0.0.1:8061/2026/11/28/fidelity-guid-published/","raw":<the same>}, the link too
    const published = await created('wp/v2/posts', { title: 'fidelity guid published', status: 'publish' });
    const link = `${server.home}/${day(published)}/fidelity-guid-published/`;
    assert.equal(published.link, link);
    assert.deepEqual(published.guid, { rendered: link, raw: link });
    // … and keeps it once its slug changes, as a guid never changes
    const renamed = await (await wp(`wp/v2/posts/${published.id}`, { json: { slug: 'renamed' } })).json();
    assert.deepEqual(renamed.guid, { rendered: link, raw: link });
    // {"title":"fidelity guid draft","status":"draft"}: guid http://127.0.0.1:8061/?p=38, as its link
    const draft = await created('wp/v2/posts', { title: 'fidelity guid draft', status: 'draft' });
    assert.deepEqual(draft.guid, { rendered: `${server.home}/?p=${draft.id}`, raw: `${server.home}/?p=${draft.id}` });
    // POST wp/v2/pages {"title":"fidelity guid page","status":"publish"}: guid http://127.0.0.1:8061/fidelity-guid-page/
    const page = await created('wp/v2/pages', { title: 'fidelity guid page', status: 'publish' });
    assert.deepEqual(page.guid, { rendered: `${server.home}/fidelity-guid-page/`, raw: `${server.home}/fidelity-guid-page/` });
    const child = await created('wp/v2/pages', { title: 'fidelity child', status: 'publish', parent: page.id });
    assert.equal(child.guid.raw, `${server.home}/fidelity-guid-page/fidelity-child/`);
  });

  it("links a navigation post by the permalink structure, as get_permalink links WordPress's built-in wp_navigation", async () => {
    // WordPress 6.1.9, POST wp/v2/navigation {"title":"fidelity navigation","status":"publish","content":""}:
    // link and guid http://127.0.0.1:8061/2026/11/28/fidelity-navigation/; a draft's http://127.0.0.1:8061/?p=41
    const navigation = await created('wp/v2/navigation', { title: 'fidelity navigation', status: 'publish', content: '' });
    const link = `${server.home}/${day(navigation)}/fidelity-navigation/`;
    assert.equal(navigation.link, link);
    assert.deepEqual(navigation.guid, { rendered: link, raw: link });
    assert.equal((await (await wp(`wp/v2/navigation/${navigation.id}`)).json()).link, link);
    const draft = await created('wp/v2/navigation', { title: 'fidelity navigation draft', status: 'draft', content: '' });
    assert.equal(draft.link, `${server.home}/?p=${draft.id}`);
    // the same for the reusable blocks (wp_block is built in too)
    const block = await created('wp/v2/blocks', { title: 'fidelity block', status: 'publish', content: '<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->' });
    assert.equal(block.link, `${server.home}/${day(block)}/fidelity-block/`);
  });

  it("answers OPTIONS on the application passwords' routes with their resource's schema", async () => {
    // WordPress 6.1.9, OPTIONS wp/v2/users/me/application-passwords (and introspect, and one password):
    // WP_REST_Application_Passwords_Controller::get_public_item_schema, read into the fixture
    const schemas = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/wordpress-6.1/schemas.json'), 'utf8'));
    const expected = schemas['/wp/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords'].schema;
    assert.equal(expected.title, 'application-password');
    assert.deepEqual(Object.keys(expected.properties), ['uuid', 'app_id', 'name', 'password', 'created', 'last_used', 'last_ip']);
    for (const path of ['wp/v2/users/me/application-passwords', 'wp/v2/users/1/application-passwords/introspect', 'wp/v2/users/1/application-passwords/0b7e1e4a-4e6e-4b4e-9d6a-0e0e0e0e0e0e']) {
      const body = await (await wp(path, { method: 'OPTIONS' })).json();
      assert.equal(JSON.stringify(body.schema), JSON.stringify(expected), path);
    }
  });
});
