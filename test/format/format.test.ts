import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { escapeHtml, renderContent, stripAllTags, trimWords, wpautop } from '../../src/format/format.ts';

// Expected outputs are what WordPress's wpautop() returns for the same input.
test('wpautop makes paragraphs from blank lines and <br /> from single newlines', () => {
  assert.equal(wpautop('Line one\nline two\n\nPara two'), '<p>Line one<br />\nline two</p>\n<p>Para two</p>\n');
  assert.equal(wpautop('   \n '), '');
});

test('wpautop leaves block elements, <pre> and newlines inside tags alone', () => {
  assert.equal(wpautop('<h2>Head</h2>\nText after\n\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>'), '<h2>Head</h2>\n<p>Text after</p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n');
  assert.equal(wpautop('<pre>code\n\nmore</pre>\n\nafter'), '<pre>code\n\nmore</pre>\n<p>after</p>\n');
  assert.equal(wpautop('<div class="x"\ndata-y="1">in div</div>'), '<div class="x"\ndata-y="1">in div</div>\n');
  assert.equal(wpautop('<blockquote>quoted</blockquote>'), '<blockquote><p>quoted</p></blockquote>\n');
});

test('block content is not autop-ed and loses its block delimiters', () => {
  assert.equal(renderContent('<!-- wp:paragraph -->\n<p>Block para</p>\n<!-- /wp:paragraph -->'), '<p>Block para</p>\n');
});

test('escapeHtml escapes markup but not entities already encoded', () => {
  assert.equal(escapeHtml(`Fish &amp; Chips & <b>"x"</b> 'y'`), 'Fish &amp; Chips &amp; &lt;b&gt;&quot;x&quot;&lt;/b&gt; &#039;y&#039;');
});

test('trimWords cuts after the word count and appends the more text', () => {
  assert.equal(trimWords('<p>one two <em>three</em> four</p>', 3, ' [&hellip;]'), 'one two three [&hellip;]');
  assert.equal(trimWords('<p>one two</p>', 3), 'one two');
});

describe('stripAllTags on hostile text', () => {
  // the patterns of wp_strip_all_tags, run naively: they rescan to the end from every opening without an end
  const naive = (h: string) => h.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '').replace(/[\r\n\t ]+/g, ' ').trim();

  test('gives what the patterns give', () => {
    for (const html of ['<p>a</p><script>x</script>b', '<SCRIPT type="x">a</script>c<style>d</STYLE>e', '<script>a<style>b</script>c</style>d', '<style>a<script>b</style>c</script>d', '<script>never closed <b>x</b>', 'x<script><script>y</script>z', '<<a>b>c', 'a<b', 'a > b < c'])
      assert.equal(stripAllTags(html), naive(html), html);
  });

  test('reads a million `<`, or openings never closed, once', () => {
    // no timing: these took minutes when every `<` rescanned the rest
    assert.equal(stripAllTags('<'.repeat(1_000_000)).length, 1_000_000);
    assert.equal(stripAllTags('<script'.repeat(200_000)).length, 1_400_000);
    assert.equal(stripAllTags(`${'<script>'.repeat(200_000)}x`), 'x');
  });
});

