/**
 * PHP 8's natural order comparison (ext/standard/strnatcmp.c), which WordPress sorts names with
 * (`_wp_object_name_sort_cb`: a tag cloud's tags). It compares bytes, as PHP does, so a name's
 * UTF-8 bytes sort after every ASCII character and only ASCII letters fold case.
 */

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
// C's isspace in the "C" locale: space, \t, \n, \v, \f, \r
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
// C's toupper in the "C" locale; the comparison folds to upper case, so `_` sorts after letters
const upper = (c: number) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);

/** Where two runs of digits starting at `at` stand: by length, then by their first differing digit (compare_right). */
function compareRight(a: Uint8Array, b: Uint8Array, at: [number, number]): number {
  let bias = 0;
  for (; ; at[0]++, at[1]++) {
    const da = at[0] < a.length && isDigit(a[at[0]]);
    const db = at[1] < b.length && isDigit(b[at[1]]);
    if (!da && !db) return bias;
    if (!da) return -1;
    if (!db) return 1;
    if (!bias && a[at[0]] !== b[at[1]]) bias = a[at[0]] < b[at[1]] ? -1 : 1;
  }
}

/** Where two runs of digits starting at `at` stand, read as fractions: the first differing digit wins (compare_left). */
function compareLeft(a: Uint8Array, b: Uint8Array, at: [number, number]): number {
  for (; ; at[0]++, at[1]++) {
    const da = at[0] < a.length && isDigit(a[at[0]]);
    const db = at[1] < b.length && isDigit(b[at[1]]);
    if (!da && !db) return 0;
    if (!da) return -1;
    if (!db) return 1;
    if (a[at[0]] !== b[at[1]]) return a[at[0]] < b[at[1]] ? -1 : 1;
  }
}

/** PHP's strnatcasecmp: -1, 0 or 1. */
export function strnatcasecmp(left: string, right: string): number {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  if (!a.length || !b.length) return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
  // past the end reads 0, as PHP's strings end in a NUL byte
  const at = (s: Uint8Array, i: number) => (i < s.length ? s[i] : 0);
  const pos: [number, number] = [0, 0];
  let leading = true;
  for (;;) {
    // zeros before a digit are skipped at the very start only
    if (leading) {
      while (a[pos[0]] === 0x30 && pos[0] + 1 < a.length && isDigit(a[pos[0] + 1])) pos[0]++;
      while (b[pos[1]] === 0x30 && pos[1] + 1 < b.length && isDigit(b[pos[1] + 1])) pos[1]++;
      leading = false;
    }
    // whitespace is skipped wherever a character is read, except just after a run of digits
    while (isSpace(at(a, pos[0]))) pos[0]++;
    while (isSpace(at(b, pos[1]))) pos[1]++;
    if (isDigit(at(a, pos[0])) && isDigit(at(b, pos[1]))) {
      const fractional = a[pos[0]] === 0x30 || b[pos[1]] === 0x30;
      const result = fractional ? compareLeft(a, b, pos) : compareRight(a, b, pos);
      if (result) return result;
      if (pos[0] === a.length && pos[1] === b.length) return 0;
      if (pos[0] === a.length) return -1;
      if (pos[1] === b.length) return 1;
    }
    const ca = upper(at(a, pos[0]));
    const cb = upper(at(b, pos[1]));
    if (ca !== cb) return ca < cb ? -1 : 1;
    pos[0]++;
    pos[1]++;
    if (pos[0] >= a.length && pos[1] >= b.length) return 0;
    if (pos[0] >= a.length) return -1;
    if (pos[1] >= b.length) return 1;
  }
}
