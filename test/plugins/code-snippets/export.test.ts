import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { createSnippet, getJson, NS, type ErrorBody } from './helpers.ts';

interface Bundle {
  generator: string;
  date_created: string;
  snippets: Record<string, unknown>[];
}

describe('snippet export', () => {
  const server = useServer();

  describe('export (JSON bundle)', () => {
    test('holds only the fields that differ from a new snippet, plus the name', async () => {
      const s = await createSnippet(server, server.admin, {
        name: 'Brand colours',
        desc: 'Line one\r\nLine two',
        code: ':root {\r\n  --brand: #c00;\r\n}',
        tags: ['style'],
        scope: 'site-css',
        active: true,
        priority: 10,
      });
      const before = new Date();
      const { status, body, headers } = await getJson<Bundle>(server, `${NS}/snippets/${s.id}/export`, { auth: server.admin });
      assert.equal(status, 200);
      assert.equal(headers.get('x-suggested-filename'), 'brand-colours.code-snippets.json');
      assert.match(body.generator, /^Code Snippets v/);
      assert.match(body.date_created, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      assert.ok(Math.abs(Date.parse(`${body.date_created.replace(' ', 'T')}Z`) - before.getTime()) < 120_000, 'date_created is the current UTC time');
      assert.deepEqual(body.snippets, [
        {
          id: s.id,
          name: 'Brand colours',
          desc: 'Line one\nLine two',
          code: ':root {\n  --brand: #c00;\n}',
          tags: ['style'],
          scope: 'site-css',
          active: true,
          modified: s.modified,
        },
      ]);
    });

    test('a snippet with only defaults exports its id, name and date; an unnamed one gets a fallback filename', async () => {
      const s = await createSnippet(server, server.admin, {});
      const { body, headers } = await getJson<Bundle>(server, `${NS}/snippets/${s.id}/export`, { auth: server.admin });
      assert.deepEqual(body.snippets, [{ id: s.id, name: '', modified: s.modified }]);
      assert.equal(headers.get('x-suggested-filename'), `snippet-${s.id}.code-snippets.json`);
      const other = await createSnippet(server, server.admin, { priority: 3, scope: 'admin' });
      const exported = await getJson<Bundle>(server, `${NS}/snippets/${other.id}/export`, { auth: server.admin });
      assert.deepEqual(exported.body.snippets[0], { id: other.id, name: '', scope: 'admin', priority: 3, modified: other.modified });
    });

    test('an unknown id is a 404', async () => {
      for (const action of ['export', 'export-code']) {
        const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets/999999/${action}`, { auth: server.admin });
        assert.equal(status, 404);
        assert.equal(body.code, 'rest_cannot_get');
      }
    });
  });

  describe('export-code', () => {
    async function exported(fields: Record<string, unknown>): Promise<{ code: string; filename: string | null; type: string | null }> {
      const s = await createSnippet(server, server.admin, fields);
      const res = await server.call(`${NS}/snippets/${s.id}/export-code`, { auth: server.admin });
      assert.equal(res.status, 200);
      return { code: (await res.json()) as string, filename: res.headers.get('x-suggested-filename'), type: res.headers.get('content-type') };
    }

    test('a PHP snippet is a PHP file with a docblock', async () => {
      const out = await exported({ name: 'Disable emojis', desc: 'Removes the\nemoji script', code: "<?php\nremove_action( 'wp_head', 'print_emoji_detection_script', 7 );", scope: 'global' });
      assert.match(out.type ?? '', /^application\/json/, 'the body is a JSON string, as the plugin sends it');
      assert.equal(out.filename, 'disable-emojis.code-snippets.php');
      assert.equal(out.code, "<?php\n\n/**\n * Disable emojis\n *\n * Removes the\n * emoji script\n */\nremove_action( 'wp_head', 'print_emoji_detection_script', 7 );\n");
    });

    test('a content snippet becomes a shortcode; an unnamed snippet is titled by its id', async () => {
      const s = await createSnippet(server, server.admin, { code: '<p>Hello</p>\n<p>World</p>', scope: 'content' });
      const res = await server.call(`${NS}/snippets/${s.id}/export-code`, { auth: server.admin });
      assert.equal(res.headers.get('x-suggested-filename'), `snippet-${s.id}.code-snippets.php`);
      assert.equal(
        await res.json(),
        `<?php\n\n/**\n * Snippet #${s.id}\n */\nadd_shortcode( 'code_snippets_export_${s.id}', function () {\n\tob_start();\n\t?>\n\n\t<p>Hello</p>\n\t<p>World</p>\n\n\t<?php\n\treturn ob_get_clean();\n} );\n`,
      );
    });

    test('an HTML snippet is exported in the PHP layout', async () => {
      const out = await exported({ name: 'Analytics', code: '<script src="/a.js"></script>', scope: 'head-content' });
      assert.equal(out.filename, 'analytics.code-snippets.php');
      assert.equal(out.code, '<?php\n\n/**\n * Analytics\n */\n<script src="/a.js"></script>\n');
    });

    test('CSS and JS snippets get a comment header', async () => {
      const css = await exported({ name: 'Red <b>links</b>', desc: 'Makes links red', code: 'a { color: red; }', scope: 'site-css' });
      assert.equal(css.filename, 'red-links.code-snippets.css');
      assert.equal(css.code, '\n/*\nRed links\n\nMakes links red\n*/\n\na { color: red; }\n\n');
      const js = await exported({ name: 'Hello', code: 'console.log(1);', scope: 'site-footer-js' });
      assert.equal(js.filename, 'hello.code-snippets.js');
      assert.equal(js.code, '\n/*\nHello\n\n*/\n\nconsole.log(1);\n\n');
    });

    test('a PHP snippet without code is just the open tag', async () => {
      const out = await exported({ name: 'Empty', scope: 'global' });
      assert.equal(out.code, '<?php\n');
    });
  });
});
