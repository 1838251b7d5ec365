import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forceBalanceTags } from '../../src/format/balance-tags.ts';
import { makeClickable } from '../../src/format/make-clickable.ts';
import { firstPageTeaser } from '../../src/format/teaser.ts';

// [input, output] of WordPress 6.1.9's force_balance_tags and make_clickable (outside
// comment_text: rel="nofollow"), run through /work/wt/_prompts/wp-eval.php.
const BALANCED: [string, string][] = [
  ["<b>x", "<b>x</b>"],
  ["<p>a</p><div>b</span></div>", "<p>a</p><div>b</div>"],
  ["<br><img src=x><hr/>", "<br /><img src=x/><hr />"],
  ["<i><i>x</i>", "<i></i><i>x</i>"],
  ["<div><div>x", "<div><div>x</div></div>"],
  ["</b>stray<b>", "stray<b></b>"],
  ["<foo/>x", "<foo></foo>x"],
  ["a <3 b < !-- c", "a &lt;3 b < !-- c"],
  ["<my-el>x", "<my-el>x</my-el>"],
  ["<b>x<i>y</b>z</i>", "<b>x<i>y</i></b>z"],
  ["<p class=\"a\" >t", "<p class=\"a\">t</p>"],
];
const CLICKABLE: [string, string][] = [
  ["go http://example.com/a.b?c=d, then", "go <a href=\"http://example.com/a.b?c=d\" rel=\"nofollow\">http://example.com/a.b?c=d</a>, then"],
  ["(http://example.com/x(y))", "(<a href=\"http://example.com/x(y)\" rel=\"nofollow\">http://example.com/x(y)</a>)"],
  ["www.Example.com/path.", "<a href=\"http://www.Example.com/path\" rel=\"nofollow\">http://www.Example.com/path</a>."],
  ["ftp.example.com:", "<a href=\"http://ftp.example.com\" rel=\"nofollow\">http://ftp.example.com</a>:"],
  ["a@b.co x", "<a href=\"mailto:a@b.co\">a@b.co</a> x"],
  ["<a href=\"http://x.com\">http://x.com</a>", "<a href=\"http://x.com\">http://x.com</a>"],
  ["<pre>http://a.b</pre> http://c.d", "<pre>http://a.b</pre> <a href=\"http://c.d\" rel=\"nofollow\">http://c.d</a>"],
  ["http://a.com/'quote'", "<a href=\"http://a.com/&#039;quote\" rel=\"nofollow\">http://a.com/&#039;quote</a>'"],
  ["x:http://y.com", "x:<a href=\"http://y.com\" rel=\"nofollow\">http://y.com</a>"],
];

test('force_balance_tags closes, drops and self-closes tags as WordPress 6.1', () => {
  for (const [input, output] of BALANCED) assert.equal(forceBalanceTags(input), output, input);
});

test('make_clickable links addresses, www./ftp. hosts and e-mail addresses as WordPress 6.1', () => {
  for (const [input, output] of CLICKABLE) assert.equal(makeClickable(input), output, input);
});

/** [post_content, get_the_content('', false) of it] in WordPress 6.1.9, the post set up as the REST API sets it up (not its own page, so $more is 0). */
const TEASERS: [string, string][] = [
  ["<!--nextpage-->\nfirst<!--nextpage-->second", "first"],
  ["a <b>bold<!--more-->rest", "a <b>bold</b>"],
  ["<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n<!-- wp:paragraph -->\n<p>y</p>\n<!-- /wp:paragraph -->", "<!-- wp:paragraph -->\n<p>x</p>\n<!-- /wp:paragraph -->\n\n"],
  ["one<!--more Custom-->two<!--nextpage-->three", "one"],
  ["p1 <i>it\n<!--nextpage-->\np2<!--more-->tail", "p1 <i>it"],
  ["no breaks <!--noteaser--> here<!--more-->after", "no breaks <!--noteaser--> here"],
  ["<!-- wp:more {\"customText\":\"Go\"} -->\n<!--more Go-->\n<!-- /wp:more -->after", "\n"],
];

test('get_the_content for an excerpt: the first page, up to <!--more-->, balanced when cut there', () => {
  for (const [content, teaser] of TEASERS) assert.equal(firstPageTeaser(content), teaser, content);
});
