import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kses } from '../../src/format/kses.ts';

describe('kses', () => {
  it('post: $allowedposttags with the global attributes, allowed protocols only, safe CSS only', async () => {
    assert.equal(
      await kses('<div class="c" data-x="1" aria-label="l" onclick="x()"><a href="mailto:a@b.test" target="_blank">m</a><a href=" JaVaScRiPt:alert(1)">j</a></div>', 'post'),
      '<div class="c" data-x="1" aria-label="l"><a href="mailto:a@b.test" target="_blank">m</a><a>j</a></div>',
    );
    assert.equal(await kses('<iframe src="https://x.test/"></iframe><svg onload="x()"><circle /></svg><p>t</p>', 'post'), '<p>t</p>');
    assert.equal(await kses('<p style="color:red;position:fixed;width:expression(alert(1));background:url(x)">s</p>', 'post'), '<p style="color:red;position:fixed">s</p>');
  });

  it('data: $allowedtags, without global attributes', async () => {
    assert.equal(await kses('<b class="x">b</b><p>p</p><a href="http://x.test/" title="t" class="c">a</a>', 'data'), '<b>b</b>p<a href="http://x.test/" title="t">a</a>');
  });

  it('keeps comments, with their text filtered and no way to close them early', async () => {
    assert.equal(await kses('<!-- wp:paragraph --><p>a</p><!-- /wp:paragraph --><!--more-->', 'post'), '<!-- wp:paragraph --><p>a</p><!-- /wp:paragraph --><!--more-->');
    assert.equal(await kses('<!--><script>alert(1)</script>-->', 'post'), '<!--&gt;alert(1)-->');
    assert.equal(await kses('<!-- a --!><img src=x onerror=alert(1)> -->', 'post'), '<!-- a -!&gt;<img src="x" /> -->');
    assert.equal(await kses('<a title="<!-- x -->" href="/y">t</a>', 'post'), '<a title="&lt;!-- x --&gt;" href="/y">t</a>');
  });

  it('text stays text; markup nested past 512 elements loses its tags', async () => {
    assert.equal(await kses('Tom & Jerry < 3', 'data'), 'Tom &amp; Jerry &lt; 3');
    const out = await kses(`${'<b>'.repeat(100_000)}deep`, 'post');
    assert.equal(out, `${'<b>'.repeat(512)}deep${'</b>'.repeat(512)}`);
  });
});
