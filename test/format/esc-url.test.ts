import { test } from 'node:test';
import assert from 'node:assert/strict';
import { escUrl } from '../../src/format/esc-url.ts';

// esc_url( $url ) as WordPress 6.1.9 prints it (formatting.php), asked of the running 6.1.9 for each input
const CASES: [string, string][] = [
  ['http://example.com/a?b=1&c=2', 'http://example.com/a?b=1&#038;c=2'],
  [' http://example.com/a b', 'http://example.com/a%20b'],
  ['javascript:alert(1)', ''],
  ['example.com/x', 'http://example.com/x'],
  ['/relative?x=1&amp;y=2', '/relative?x=1&#038;y=2'],
  ['http://example.com/%0d%0aSet-Cookie', 'http://example.com/Set-Cookie'],
  ['http://[::1]:80/a[1]', 'http://[::1]:80/a%5B1%5D'],
  ["http://example.com/it's", 'http://example.com/it&#039;s'],
  ['mailto:a@b.c?subject=%0A', 'mailto:a@b.c?subject=%0A'],
  ['http://example.com/"onmouseover="x', 'http://example.com/onmouseover=x'],
  ['https://例え.jp/パス', 'https://例え.jp/パス'],
  ['http://example.com/a;//b', 'http://example.com/a://b'],
  ['ftp://x/y', 'ftp://x/y'],
  ['data:text/html,x', ''],
  ['#anchor', '#anchor'],
  ['index.php?x=1', 'index.php?x=1'],
];

test('esc_url for display as WordPress 6.1 escapes', () => {
  for (const [input, expected] of CASES) assert.equal(escUrl(input), expected, input);
});
