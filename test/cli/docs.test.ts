import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { ok, ROOT } from './run.ts';

// `cms-spec docs`: a static HTML reference of every namespace, from the spec alone.

/** Elements that have no end tag in HTML. */
const VOID = new Set(['meta', 'br', 'hr', 'img', 'input', 'link']);

/** Every element of a page closed, in order, none left open or closed by the parser's guess: the HTML is well-formed. */
function assertWellFormed(file: string, html: string): void {
  const open: string[] = [];
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag: (name) => open.push(name),
      onclosetag: (name, implied) => {
        if (implied && !VOID.has(name)) problems.push(`<${name}> not closed`);
        if (open.pop() !== name) problems.push(`</${name}> closes another element`);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  assert.deepEqual(problems, [], file);
  assert.deepEqual(open, [], `${file}: elements left open`);
}

function writeDocs(args: string[]): { dir: string; page: (file: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-docs-'));
  const out = join(dir, 'docs');
  assert.match(ok(['docs', '--out', out, ...args]), /^Wrote \d+ pages to .*index\.html and beside it\.\n$/);
  return { dir, page: (file) => readFileSync(join(out, file), 'utf8') };
}

test('cms-spec docs writes a page per namespace with each route, its args, permission, errors and an example', (t) => {
  const { dir, page } = writeDocs([]);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const files = readdirSync(join(dir, 'docs')).sort();
  assert.ok(files.includes('index.html') && files.includes('cms-v2.html') && files.includes('code-snippets-v1.html'), files.join(' '));
  for (const file of files) assertWellFormed(file, page(file));
  assert.ok(page('index.html').includes('<li><a href="cms-v2.html">cms/v2</a>: '));

  const posts = page('cms-v2.html');
  assert.ok(posts.includes('<h3 id="get-cms-v2-posts"><span class="method">GET</span> <code>/cms/v2/posts</code></h3>'));
  assert.ok(
    posts.includes('<tr><td><code>per_page</code></td><td>query</td><td>integer</td><td>no</td><td><code>10</code></td><td>1 to 100</td><td>Maximum number of items to be returned in result set.</td></tr>'),
    'per_page of the posts list, with its bounds and default',
  );
  assert.ok(posts.includes('<tr><td><code>order</code></td><td>query</td><td>string</td><td>no</td><td><code>&quot;desc&quot;</code></td><td>one of: asc, desc</td><td>Order sort attribute ascending or descending.</td></tr>'));
  assert.ok(posts.includes('<p>Permission: <code>edit_posts</code> (a user with this capability, with an application password). Operation id: <code>cms-v2.createPost</code>.</p>'));
  assert.ok(posts.includes('<li>403: <code>rest_cannot_create</code></li>'));
  assert.ok(
    posts.includes(
      "<pre><code>curl -X POST -u &#39;USER:APPLICATION_PASSWORD&#39; -H &#39;Content-Type: application/json&#39; -d &#39;{&quot;date&quot;:&quot;2026-01-01T12:00:00&quot;}&#39; &#39;http://127.0.0.1:8080/cms-json/cms/v2/posts&#39;</code></pre>",
    ),
  );
  assert.ok(posts.includes("<pre><code>curl &#39;http://127.0.0.1:8080/cms-json/cms/v2/posts/1&#39;</code></pre>"));
});

test('cms-spec docs escapes what the spec says and lists the error catalogue', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-docs-spec-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const spec = join(dir, 'spec');
  cpSync(join(ROOT, 'test/fixtures/basic'), spec, { recursive: true });
  writeFileSync(
    join(spec, 'namespaces/marked-up.yaml'),
    `namespace: marked/v1
errors:
  marked_gone: { status: 410, message: 'The <thing> & its "parts" are gone.' }
routes:
  /things/{id}:
    params: { id: '[\\d]+' }
    endpoints:
      - methods: [DELETE]
        handler: fixture.echo
        permission: manage_options
        args:
          id: { type: integer, description: 'The <b>id</b>' }
          why: { type: string, required: true, enum: ['<script>', "it's old"], description: 'Reason & "cause"' }
`,
  );
  const { page } = writeDocs(['--spec', spec, '--url', 'https://example.com/cms-json/']);
  const html = page('marked-v1.html');
  assertWellFormed('marked-v1.html', html);
  assert.ok(html.includes('<h2>Errors</h2><table><thead><tr><th>Code</th><th>Status</th><th>Message</th></tr></thead><tbody><tr><td><code>marked_gone</code></td><td>410</td><td>The &lt;thing&gt; &amp; its &quot;parts&quot; are gone.</td></tr></tbody></table>'));
  assert.ok(html.includes('<tr><td><code>id</code></td><td>path</td><td>integer</td><td>yes</td><td></td><td>pattern ^[\\d]+$</td><td>The &lt;b&gt;id&lt;/b&gt;</td></tr>'));
  assert.ok(html.includes('<tr><td><code>why</code></td><td>query</td><td>string</td><td>yes</td><td></td><td>one of: &lt;script&gt;, it&#39;s old</td><td>Reason &amp; &quot;cause&quot;</td></tr>'));
  // the catalogue is listed once for the namespace (above), not under each operation as if each could answer every code
  assert.equal(html.includes('<li>410: '), false);
  assert.ok(html.includes("<pre><code>curl -X DELETE -u &#39;USER:APPLICATION_PASSWORD&#39; &#39;https://example.com/cms-json/marked/v1/things/1?why=%3Cscript%3E&#39;</code></pre>"));
  assert.equal(html.includes('<script>'), false);
});
