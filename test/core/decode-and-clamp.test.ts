import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/server.ts';
import { decodePercent } from '../../src/engine/url-decoding.ts';
import { MAX_SQL_BOUND, sqlBound } from '../../src/store/sql-bound.ts';

/**
 * Two rules of issue 40 held over the sources as text: percent-encoded text is decoded by one
 * helper that cannot throw (decodePercent), and every LIMIT and OFFSET a query takes that is not a
 * literal or a named constant goes through one clamp (sqlBound). A new decodeURIComponent or an
 * unclamped `.offset(page * size)` fails here before any request finds it.
 */

const SRC = join(ROOT, 'src');
const DECODER = 'engine/url-decoding.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === join(SRC, 'admin/app') ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Each `pattern` match in the sources, as `file:line: text`. */
function occurrences(pattern: RegExp, skip: (file: string, match: RegExpMatchArray) => boolean = () => false): string[] {
  return sourceFiles(SRC).flatMap((path) => {
    const file = relative(SRC, path);
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(pattern)].filter((m) => !skip(file, m)).map((m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`);
  });
}

test('the sources were read (the rules cannot pass on nothing)', () => {
  assert.ok(occurrences(/decodePercent\(/g).length > 5);
  assert.ok(occurrences(/sqlBound\(/g).length > 5);
});

test('no source decodes percent-encoding but decodePercent', () => {
  assert.deepEqual(occurrences(/\bdecodeURI(?:Component)?\(/g, (file) => file === DECODER), []);
});

test('every LIMIT and OFFSET is a literal, a named constant or sqlBound(…), bound or written into the text (sql.lit)', () => {
  assert.deepEqual(occurrences(/\.(?:limit|offset)\(\s*(?!(?:sql\.lit\()?sqlBound\(|\d+\s*\)|[A-Z][A-Z0-9_]*\s*\))[^)\n]*\)?/g), []);
});

test('decodePercent: the decoded text, or null for malformed escapes; a URL’s delimiters stay encoded when asked', () => {
  assert.equal(decodePercent('a%20b%C3%A9'), 'a bé');
  assert.equal(decodePercent('plain'), 'plain');
  for (const bad of ['%E0%A4%A', '%', '%E0', '%C3%28', '%ED%A0%80', 'x%zz']) assert.equal(decodePercent(bad), null, bad);
  assert.equal(decodePercent('/a%2Fb%20c', 'uri'), '/a%2Fb c');
  assert.equal(decodePercent('/a%E0%A4%A', 'uri'), null);
});

test('sqlBound: a whole number from 0 to 2^52, NaN as 0', () => {
  const cases: [number, number][] = [[0, 0], [7, 7], [2.9, 2], [-5, 0], [1e300, MAX_SQL_BOUND], [Infinity, MAX_SQL_BOUND], [-Infinity, 0], [NaN, 0], [2 ** 63, MAX_SQL_BOUND], [MAX_SQL_BOUND - 1, MAX_SQL_BOUND - 1]];
  for (const [n, bound] of cases) assert.equal(sqlBound(n), bound, String(n));
  assert.equal(MAX_SQL_BOUND, 2 ** 52);
});
