import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { strnatcasecmp } from '../../src/format/strnatcmp.ts';

// PHP 8.2.36's strnatcasecmp of each pair (`php -r 'echo strnatcasecmp($a, $b);'`), which
// WordPress's _wp_object_name_sort_cb sorts a tag cloud's names with
const PHP_ANSWERS: [string, string, number][] = [
  ['Blocks', 'Block spacing', -1], // whitespace inside a name is skipped: "Blockspacing"
  ['a  b', 'ab', 0],
  ['Apple9', 'apple10', -1],
  ['x01', 'x1', -1], // a run of digits starting with 0 compares as a fraction
  ['x007', 'x7', -1],
  ['abc1', 'abc01', 1],
  ['1.5', '1.10', -1],
  ['1 a', '1a', -1], // but not just after a run of digits
  ['a', '_', -1], // case folds to upper: `_` sorts after every letter
  ['a', 'A', 0],
  ['a', 'a ', -1],
  ['', 'a', -1],
  ['é', 'z', 1], // bytes: UTF-8 after ASCII, no case folding beyond ASCII
  ['content περιεχόμενο', 'Content', 1],
  ['00', '0', 0],
];

describe('strnatcasecmp', () => {
  for (const [a, b, expected] of PHP_ANSWERS) {
    it(`${JSON.stringify(a)} against ${JSON.stringify(b)} is ${expected}, as PHP answers`, () => {
      assert.equal(strnatcasecmp(a, b), expected);
      assert.equal(strnatcasecmp(b, a), -expected || 0);
    });
  }
});
