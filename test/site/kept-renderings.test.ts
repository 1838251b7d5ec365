import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, fetch } from 'undici';
import { useServer } from '../helpers/server.ts';
import { ok } from '../cli/run.ts';
import { createSnippet, NS } from '../plugins/code-snippets/helpers.ts';

// The rendered content, excerpt and title are kept per post (src/core/kept-renderings.ts): every
// test reads a rendering twice (so it is kept), changes what it depends on, and reads it again.
describe('rendered content kept per post is never stale', () => {
  const site = useServer();
  let agent = new Agent();
  after(() => agent.close());
  /**
   * A CLI command on the site's database. It blocks this process, and the server in it, for
   * seconds: no connection is reused across it (the server closes the idle ones as it wakes).
   */
  const cli = async (args: string[]) => {
    ok([...args, '--db', site.dbPath]);
    await agent.close();
    agent = new Agent();
  };

  const get = async (path: string): Promise<any> => {
    const res = await fetch(site.api + path, { dispatcher: agent });
    assert.equal(res.status, 200, path);
    return res.json();
  };
  const send = async (path: string, method: string, json: unknown): Promise<any> => {
    const res = await fetch(site.api + path, { method, body: JSON.stringify(json), headers: { authorization: site.admin, 'content-type': 'application/json' }, dispatcher: agent });
    assert.ok(res.status === 200 || res.status === 201, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
    return res.json();
  };
  /** The post's rendered title, content and excerpt as the list and the single post answer them (which must agree), read twice. */
  const rendered = async (id: number) => {
    let shown: { title: string; content: string; excerpt: string } | undefined;
    for (let i = 0; i < 2; i++) {
      const single = await get(`cms/v2/posts/${id}`);
      const listed = ((await get('cms/v2/posts?per_page=100')) as any[]).find((p) => p.id === id);
      assert.ok(listed, `post ${id} is listed`);
      for (const field of ['title', 'content', 'excerpt']) assert.equal(listed[field].rendered, single[field].rendered, field);
      const now = { title: single.title.rendered, content: single.content.rendered, excerpt: single.excerpt.rendered };
      if (shown) assert.deepEqual(now, shown, 'the same answer twice');
      shown = now;
    }
    return shown!;
  };
  const publish = async (json: Record<string, unknown>) => (await send('cms/v2/posts', 'POST', { status: 'publish', ...json })).id as number;

  test('a post edited over REST, then by the CLI, shows its new rendering at once (content, the excerpt made from it, title)', async () => {
    const id = await publish({ title: 'First "draft"', content: '<!-- wp:paragraph -->\n<p>It\'s one</p>\n<!-- /wp:paragraph -->' });
    assert.deepEqual(await rendered(id), { title: 'First &#8220;draft&#8221;', content: '\n<p>It&#8217;s one</p>\n', excerpt: '<p>It&#8217;s one</p>\n' });
    await send(`cms/v2/posts/${id}`, 'POST', { title: 'Second -- edit', content: '<!-- wp:paragraph -->\n<p>It\'s two</p>\n<!-- /wp:paragraph -->' });
    assert.deepEqual(await rendered(id), { title: 'Second &#8212; edit', content: '\n<p>It&#8217;s two</p>\n', excerpt: '<p>It&#8217;s two</p>\n' });
    await cli(['post', 'update', String(id), '--post_content', 'Classic "three"', '--post_title', 'Third...']);
    assert.deepEqual(await rendered(id), { title: 'Third&#8230;', content: '<p>Classic &#8220;three&#8221;</p>\n', excerpt: '<p>Classic &#8220;three&#8221;</p>\n' });
    // the site's own page of the post too
    const page = await (await fetch(`${site.home}/?p=${id}`, { dispatcher: agent })).text();
    assert.ok(page.includes('<p>Classic &#8220;three&#8221;</p>'), 'the page shows the content the CLI wrote');
  });

  test('the use_smilies option changed over REST, then by the CLI, changes the rendering at once', async () => {
    const id = await publish({ title: 'Smile', content: 'Hi :)' });
    assert.equal((await rendered(id)).content, '<p>Hi \u{1F642}</p>\n');
    await send('cms/v2/settings', 'POST', { use_smilies: false });
    assert.deepEqual(await rendered(id), { title: 'Smile', content: '<p>Hi :)</p>\n', excerpt: '<p>Hi :)</p>\n' });
    await cli(['option', 'update', 'use_smilies', '1']);
    assert.deepEqual(await rendered(id), { title: 'Smile', content: '<p>Hi \u{1F642}</p>\n', excerpt: '<p>Hi \u{1F642}</p>\n' });
  });

  test('a content snippet activated, edited and deactivated changes the rendered list at once', async () => {
    const snippet = await createSnippet(site, site.admin, { name: 'Card', scope: 'content', code: '<aside class="card">Card one</aside>', active: false });
    const id = await publish({ title: 'With a card', content: `Before\n\n[code_snippet id=${snippet.id}]\n\nAfter` });
    assert.equal((await rendered(id)).content, '<p>Before</p>\n\n<p>After</p>\n');
    await send(`${NS}/snippets/${snippet.id}/activate`, 'POST', {});
    assert.equal((await rendered(id)).content, '<p>Before</p>\n<aside class="card">Card one</aside>\n<p>After</p>\n');
    await send(`${NS}/snippets/${snippet.id}`, 'PATCH', { code: '<aside class="card">Card two</aside>' });
    assert.equal((await rendered(id)).content, '<p>Before</p>\n<aside class="card">Card two</aside>\n<p>After</p>\n');
    await send(`${NS}/snippets/${snippet.id}/deactivate`, 'POST', {});
    assert.equal((await rendered(id)).content, '<p>Before</p>\n\n<p>After</p>\n');
  });

  test('the plugin whose content filter renders a shortcode deactivated and activated again, over REST and by the CLI, changes the rendering at once', async () => {
    const snippet = await createSnippet(site, site.admin, { scope: 'content', code: '<b>snippet</b>', active: true });
    const id = await publish({ title: 'Shortcode', content: `See [code_snippet id=${snippet.id}] here` });
    const withPlugin = '<p>See <b>snippet</b> here</p>\n';
    const withoutPlugin = `<p>See [code_snippet id=${snippet.id}] here</p>\n`;
    assert.equal((await rendered(id)).content, withPlugin);
    await send('cms/v2/plugins/code-snippets/code-snippets', 'POST', { status: 'inactive' });
    try {
      assert.equal((await rendered(id)).content, withoutPlugin);
    } finally {
      await send('cms/v2/plugins/code-snippets/code-snippets', 'POST', { status: 'active' });
    }
    assert.equal((await rendered(id)).content, withPlugin);
    await cli(['plugin', 'deactivate', 'code-snippets']);
    try {
      assert.equal((await rendered(id)).content, withoutPlugin);
    } finally {
      await cli(['plugin', 'activate', 'code-snippets']);
    }
    assert.equal((await rendered(id)).content, withPlugin);
  });
});
