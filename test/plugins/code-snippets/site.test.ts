import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, type TestServer } from '../../helpers/server.ts';
import { createSnippet, NS } from './helpers.ts';

async function pageHtml(server: TestServer, path: string): Promise<{ head: string; body: string; html: string }> {
  const res = await fetch(server.home + path);
  assert.equal(res.status, 200, path);
  const html = await res.text();
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1];
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1];
  assert.ok(head !== undefined && body !== undefined, 'a full HTML document');
  return { head, body, html };
}

/** Stores a published post the way an editor's save would, straight through the store. */
async function addPost(server: TestServer, slug: string, content: string): Promise<number> {
  const admin = await server.app.store.users.byLogin('admin');
  assert.ok(admin);
  const date = '2024-03-05 10:20:30';
  return server.app.store.posts.insert({ type: 'post', title: slug, content, excerpt: '', status: 'publish', slug, parent: 0, author: admin.id, date, date_gmt: date });
}

describe('active snippets on the rendered site', () => {
  const server = useServer();

  test('site CSS, head and footer content and scripts appear in the page, in priority order', async () => {
    await createSnippet(server, server.admin, { scope: 'site-css', code: '.late { color: blue; }', active: true, priority: 20 });
    await createSnippet(server, server.admin, { scope: 'site-css', code: '.early { color: red; }', active: true, priority: 1 });
    await createSnippet(server, server.admin, { scope: 'site-css', code: '.never { color: green; }', active: false });
    await createSnippet(server, server.admin, { scope: 'head-content', code: '<meta name="from-snippet" content="yes">', active: true });
    await createSnippet(server, server.admin, { scope: 'site-head-js', code: 'window.headRan = true;', active: true });
    await createSnippet(server, server.admin, { scope: 'footer-content', code: '<div id="footer-note">Footer note</div>', active: true });
    await createSnippet(server, server.admin, { scope: 'site-footer-js', code: 'console.log("footer");', active: true });

    const { head, body, html } = await pageHtml(server, '/');
    assert.match(head, /<style id="code-snippets-site-css">\s*\.early \{ color: red; \}\s*\.late \{ color: blue; \}\s*<\/style>/);
    assert.ok(!html.includes('.never'), 'inactive snippets are not rendered');
    assert.ok(head.includes('<meta name="from-snippet" content="yes">'));
    assert.match(head, /<script id="code-snippets-site-head-js">\s*window\.headRan = true;\s*<\/script>/);
    assert.ok(body.includes('<div id="footer-note">Footer note</div>'));
    assert.ok(!head.includes('footer-note') && !head.includes('console.log("footer")'), 'footer scopes stay out of the head');
    assert.match(html, /<script id="code-snippets-site-footer-js">\s*console\.log\("footer"\);\s*<\/script>\s*<\/footer>/, 'footer snippets end the theme\'s footer');
  });

  test('a snippet write shows on the next page view', async () => {
    const s = await createSnippet(server, server.admin, { scope: 'site-footer-js', code: 'var toggled = 1;', active: false });
    assert.ok(!(await pageHtml(server, '/')).html.includes('var toggled = 1;'));
    await server.call(`${NS}/snippets/${s.id}/activate`, { method: 'POST', auth: server.admin });
    assert.ok((await pageHtml(server, '/')).html.includes('var toggled = 1;'));
    await server.call(`${NS}/snippets/${s.id}`, { method: 'PATCH', json: { code: 'var toggled = 2;' }, auth: server.admin });
    const edited = (await pageHtml(server, '/')).html;
    assert.ok(edited.includes('var toggled = 2;') && !edited.includes('var toggled = 1;'));
    await server.call(`${NS}/snippets/${s.id}/deactivate`, { method: 'POST', auth: server.admin });
    assert.ok(!(await pageHtml(server, '/')).html.includes('var toggled'));
  });

  test('content snippets render where a post holds their shortcode', async () => {
    const shown = await createSnippet(server, server.admin, { name: 'Card', scope: 'content', code: '<aside class="card">Card body</aside>', active: true });
    const inactive = await createSnippet(server, server.admin, { scope: 'content', code: '<aside>hidden</aside>', active: false });
    const css = await createSnippet(server, server.admin, { scope: 'site-css', code: '.x{}', active: true });
    const id = await addPost(
      server,
      'with-snippets',
      `Before [code_snippet id=${shown.id}] between [code_snippet id="${shown.id}" name="Card"] then [code_snippet id=${inactive.id}][code_snippet id=999999][code_snippet id=${css.id}] literal [[code_snippet id=${shown.id}]] end`,
    );
    const { body } = await pageHtml(server, `/?p=${id}`);
    assert.equal(body.split('<aside class="card">Card body</aside>').length - 1, 2, 'both shortcode forms render the snippet');
    assert.ok(!body.includes('<aside>hidden</aside>'), 'an inactive snippet renders nothing');
    assert.ok(!body.includes(`[code_snippet id=${inactive.id}]`) && !body.includes('[code_snippet id=999999]'), 'inactive and unknown shortcodes are removed');
    assert.ok(!body.includes(`[code_snippet id=${css.id}]`), 'only content snippets render through the shortcode');
    assert.ok(body.includes(`[code_snippet id=${shown.id}]`), 'the escaped form stays literal');
  });

  test('PHP snippets are never executed', async () => {
    await createSnippet(server, server.admin, { scope: 'global', code: 'echo "PHP" . "RAN";', active: true });
    await createSnippet(server, server.admin, { scope: 'front-end', code: 'echo "FRONT" . "RAN";', active: true });
    const { html } = await pageHtml(server, '/');
    assert.ok(!html.includes('PHPRAN') && !html.includes('FRONTRAN'));
    assert.ok(!html.includes('echo "PHP"'), 'nor printed');
  });
});
