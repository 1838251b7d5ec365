import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doShortcode, getShortcodeRegex, shortcodeAtts, shortcodeParseAtts, stripShortcodes, type ShortcodeAttributes } from '../../src/format/shortcodes.ts';

/** What the test shortcode renders: its name, its attributes (`S:` and the text when they are a string) and what it encloses. */
const shown = (atts: ShortcodeAttributes, content: string, tag: string) =>
  `{${tag}|${typeof atts === 'string' ? `S:${atts}` : [...atts].map(([k, v]) => `${k}=${v}`).join(',')}|${content}}`;
const handlers = new Map([
  ['sctest', shown],
  ['sc-x', () => 'X'],
]);

/**
 * [input, do_shortcode, strip_shortcodes] from WordPress 6.1.9 (shortcodes.php) with `sctest`
 * registered as a callback printing the same as `shown` (`{tag|k=v,...|content}`) and `sc-x`
 * returning 'X', run through /work/wt/_prompts/wp-eval.php.
 */
const CASES: [string, string, string][] = [
  ["[sctest a=\"1\" b='2' c=3 d \"e\" 'f' g]", "{sctest|a=1,b=2,c=3,0=d,1=e,2=f,3=g|}", ""],
  ["[sctest]a [sctest x=1] b[/sctest] [sctest]", "{sctest|S:|a [sctest x=1] b} {sctest|S:|}", " "],
  ["[[sctest]] [[sctest]x[/sctest]] [[sctest] [sctest]]", "[sctest]] [[sctest]x[/sctest] [{sctest|S:|} {sctest|S:|}]", "[sctest]] [[sctest]x[/sctest] [ ]"],
  ["[sctest/] [sctest /] [sctest a=1/] [sctest a=1 /]x[/sctest]", "{sctest|S:|} {sctest|S:|} {sctest|a=1|} {sctest|a=1|}x[/sctest]", "   x[/sctest]"],
  ["<a href=\"[sctest]\" title='[sctest x=1]' data-x=\"[sctest]\">l</a><img src=[sctest] alt=\"[nope]\">", "<a href=\"|}\" title='{sctest|x=1|}' data-x=\"{sctest|S:|}\">l</a><img src={sctest|S:|} alt=\"[nope]\">", "<a href=\"[sctest]\" title='[sctest x=1]' data-x=\"[sctest]\">l</a><img src=[sctest] alt=\"[nope]\">"],
  ["[nope] [sctest-x] [sc-x] [sctestx] [sctest", "[nope] [sctest-x] X [sctestx] [sctest", "[nope] [sctest-x]  [sctestx] [sctest"],
  ["<!-- [sctest] --> &#91;sctest&#93; <b title=\"[\">[</b>", "<!-- [sctest] --> &#091;sctest&#093; <b title=\"[\">[</b>", "<!-- [sctest] --> &#091;sctest&#093; <b title=\"[\">[</b>"],
  ["[sctest a=\"<b\" c=\"<i>\" e=5]", "{sctest|a=,c=<i>,e=5|}", ""],
  ["[sctest 0=1 5=x y \"z\" 7=q w]", "{sctest|5=x,6=y,7=q,8=w|}", ""],
  ["[sctest\u00a0a=1\u200bb=2] [sctest a=\"x\\ny\\\\z\\101\"]", "{sctest|a=1,b=2|} {sctest|a=x\ny\\zA|}", " "],
  ["<p>[sctest]</p><div [sctest]>[sctest x=1]</div><![CDATA[ [sctest] ]]>", "<p>{sctest|S:|}</p><div {sctest|S:|}>{sctest|x=1|}</div><![CDATA[ [sctest] ]]>", "<p></p><div [sctest]></div><![CDATA[ [sctest] ]]>"],
  ["[sctest]a[/sctest][sctest]b[/sctest] [sctest a=1]c[/sctest ]d[/sctest]", "{sctest|S:|a}{sctest|S:|b} {sctest|a=1|c[/sctest ]d}", " "],
  ["<[sctest]> [sctest] <[sctest] x>", "<{sctest|S:|}> {sctest|S:|} <{sctest|S:|} x>", "<[sctest]>  <[sctest] x>"],
  ["[sctest //] [sctest a/]b[/sctest] [sctest x/y [sctest] [sctest]a[sctest]b[/sctest]c[/sctest]", "{sctest|0=/|} {sctest|0=a|}b[/sctest] {sctest|0=x/y,1=[sctest| [sctest]a[sctest]b}c[/sctest]", " b[/sctest] c[/sctest]"],
  ["[sctest x/y [sctest x/y [sctest", "[sctest x/y [sctest x/y [sctest", "[sctest x/y [sctest x/y [sctest"],
  ["[[sctest x]y[/sctest]] [sctest]]] [sctest/]]", "[sctest x]y[/sctest] {sctest|S:|}]] {sctest|S:|}]", "[sctest x]y[/sctest] ]] ]"],
];

test('do_shortcode renders as WordPress 6.1: attributes, nesting, escapes, self-closing, attributes of HTML tags, comments and CDATA', async () => {
  for (const [input, rendered] of CASES) assert.equal(await doShortcode(input, handlers), rendered, input);
});

test('strip_shortcodes removes the registered shortcodes as WordPress 6.1, never inside tags', async () => {
  for (const [input, , stripped] of CASES) assert.equal(await stripShortcodes(input, [...handlers.keys()]), stripped, input);
});

test('shortcode_parse_atts: the text itself when no attribute is found, PHP array keys otherwise', () => {
  // var_export(shortcode_parse_atts(...)) in WordPress 6.1.9
  assert.equal(shortcodeParseAtts(''), '');
  assert.equal(shortcodeParseAtts('  '), '');
  assert.deepEqual(
    [...(shortcodeParseAtts(' a="x\ty" 5=b c d=<b "e" 0=1 "<i>" foo="bar"/') as Map<string, string>)],
    [['a', 'x\ty'], ['5', 'b'], ['6', 'c'], ['d', ''], ['7', 'e'], ['8', '<i>'], ['9', 'foo="bar"/']],
  );
});

test('shortcode_atts takes each default the attributes do not override, and none of the others', () => {
  assert.deepEqual(shortcodeAtts({ a: '1', b: '2' }, new Map([['b', 'x'], ['c', 'y']])), { a: '1', b: 'x' });
  assert.deepEqual(shortcodeAtts({ a: '1' }, ''), { a: '1' });
});

test('get_shortcode_regex groups: escaping brackets, name, attributes, self-closing slash, content', () => {
  const m = new RegExp(getShortcodeRegex(['gallery'])).exec('x [gallery ids="1,2"]in[/gallery] y')!;
  assert.deepEqual([...m], ['[gallery ids="1,2"]in[/gallery]', '', 'gallery', ' ids="1,2"', undefined, 'in', '']);
});
