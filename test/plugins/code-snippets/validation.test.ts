import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { validateCode } from '../../../src/plugins/code-snippets/validate.ts';
import { createSnippet, getJson, NS, type ErrorBody, type SnippetBody } from './helpers.ts';

describe('snippet code validation', () => {
  describe('per language', () => {
    const valid: [string, string][] = [
      ['site-head-js', 'const x = { a: [1, 2] };\nconsole.log(`${x.a}`);'],
      ['site-footer-js', '#!/usr/bin/env node\nfor (const k of []) {}'],
      ['site-css', 'body { color: red; }\na[href$="}"] { content: "{"; } /* { */'],
      ['admin-css', '@media (min-width: 10px) { .a { margin: 0 } }'],
      ['content', '<div class="x"><p>one<p>two<br><img src="a.png" alt="a > b"></div><!-- <div> -->'],
      ['head-content', '<meta name="x" content="y"><script>if (a < b && c > d) { }</script><svg><path d="M0"/></svg>'],
      ['footer-content', '<ul><li>a<li>b</ul><table><tr><td>1<td>2</table>'],
      ['global', 'function f() { return "}" . \'{\' . `ls {`; } // }\n# {\n/* { */'],
      ['front-end', '$x = <<<EOT\n  text { with $y and {$z["k"]} }\n  EOT;\n$n = <<<\'RAW\'\n{{{\nRAW;\nif ($a) { echo 1; }'],
      ['admin', '?><div>{ inline html }</div><?php if (1) { }'],
      ['single-use', '#[Attribute]\nclass A { public array $x = [1, (2)]; }'],
    ];
    for (const [scope, code] of valid) {
      test(`accepts valid ${scope} code`, () => assert.equal(validateCode(code, scope), null));
    }

    const invalid: [string, string, string, number][] = [
      ['site-head-js', 'let a = 1;\nfunction ( {', 'Unexpected token', 2],
      ['site-footer-js', 'const = 3;', 'Unexpected token', 1],
      ['site-css', 'body {\n  color: red;\n', "Unclosed '{' on line 1", 1],
      ['site-css', 'a { }\n}', "Unmatched '}'", 2],
      ['site-css', 'a { content: "open }', 'Unterminated string starting on line 1', 1],
      ['site-css', 'a { } /* never closed', 'Unterminated comment starting line 1', 1],
      ['content', '<div>\n<span>text</div>', 'Unclosed tag <span> opened on line 2', 2],
      ['head-content', '<section>\n<p>text</p>', 'Unclosed tag <section> opened on line 1', 1],
      ['footer-content', '<div></em></div>', 'Unexpected closing tag </em> on line 1', 1],
      ['content', '<!-- open', 'Unterminated comment starting line 1', 1],
      ['global', 'function f() {\n  return 1;\n', "Unclosed '{' on line 1", 1],
      ['global', 'f(1]);', "Unclosed '(' on line 1 does not match ']'", 1],
      ['front-end', 'echo 1;\n}', "Unmatched '}'", 2],
      ['admin', "echo 'unterminated;", 'Unterminated string starting on line 1', 1],
      ['global', 'echo "a {$b[\'c\']} d;', 'Unterminated string starting on line 1', 1],
      ['global', '$x = <<<EOT\ntext\nEOTX;', 'Unterminated heredoc "EOT" starting on line 1', 1],
      ['single-use', 'echo 1;\n/* comment', 'Unterminated comment starting line 2', 2],
    ];
    for (const [scope, code, message, line] of invalid) {
      test(`reports ${message} in ${scope} code`, () => assert.deepEqual(validateCode(code, scope), [message, line]));
    }
  });

  describe('on save and activation', () => {
    const server = useServer();

    test('an active snippet with bad code is saved inactive with code_error; good code clears it', async () => {
      const bad = await createSnippet(server, server.admin, { name: 'broken js', scope: 'site-footer-js', code: 'var a = ;', active: true });
      assert.equal(bad.active, false);
      assert.equal(bad.code_error?.[1], 1);
      assert.match(bad.code_error![0], /^Unexpected token/);
      const stored = await getJson<SnippetBody>(server, `${NS}/snippets/${bad.id}`, { auth: server.admin });
      assert.deepEqual(stored.body.code_error, bad.code_error);

      const fixed = await getJson<SnippetBody>(server, `${NS}/snippets/${bad.id}`, { method: 'PATCH', json: { code: 'var a = 1;', active: true }, auth: server.admin });
      assert.equal(fixed.body.code_error, null);
      assert.equal(fixed.body.active, true);

      const broken = await getJson<SnippetBody>(server, `${NS}/snippets/${bad.id}`, { method: 'PATCH', json: { code: 'var a = (;' }, auth: server.admin });
      assert.equal(broken.body.active, false, 'breaking an active snippet deactivates it');
      assert.ok(broken.body.code_error);
    });

    test('changing the scope validates the code as the new language', async () => {
      const s = await createSnippet(server, server.admin, { scope: 'content', code: '<p>{</p>' });
      assert.equal(s.code_error, null);
      const css = await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { method: 'PATCH', json: { scope: 'site-css' }, auth: server.admin });
      assert.deepEqual(css.body.code_error, ["Unclosed '{' on line 1", 1]);
    });

    test('activating code that fails validation is a 400 rest_cannot_activate and leaves it inactive', async () => {
      const s = await createSnippet(server, server.admin, { name: 'bad php', scope: 'global', code: 'function x() {\n  echo "hi";\n' });
      assert.deepEqual(s.code_error, ["Unclosed '{' on line 1", 1]);
      const { status, body } = await getJson<ErrorBody>(server, `${NS}/snippets/${s.id}/activate`, { method: 'POST', auth: server.admin });
      assert.equal(status, 400);
      assert.equal(body.code, 'rest_cannot_activate');
      assert.ok(body.message.includes("Unclosed '{' on line 1"), body.message);
      assert.deepEqual(body.data, { status: 400, code_error: ["Unclosed '{' on line 1", 1] });
      assert.equal((await getJson<SnippetBody>(server, `${NS}/snippets/${s.id}`, { auth: server.admin })).body.active, false);
    });
  });
});
