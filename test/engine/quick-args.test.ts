import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileArgs } from '../../src/engine/args.ts';
import { compileQuickCheck } from '../../src/engine/quick-check.ts';
import { RestError } from '../../src/engine/errors.ts';
import type { ArgDescriptor } from '../../src/engine/spec.ts';

// The generated one-pass check (compileQuickCheck) must answer exactly as the general path
// (coercers, Ajv, WordPress's failure messages): compared here value by value, on the compiled
// arg sets themselves, since over HTTP both paths give the same bytes by design.

/** Plain args of every kind the generated check takes. */
const PLAIN: Record<string, ArgDescriptor> = {
  page: { type: 'integer', default: 1, minimum: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: 100 },
  above: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
  ratio: { type: 'number', minimum: 0.5, title: 'Ratio' },
  flag: { type: 'bool' },
  order: { type: 'string', enum: ['asc', 'desc'] },
  slug: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
  label: { type: 'string', maxLength: 2 },
  one: { type: 'string', enum: ['only'] },
  code: { type: 'int', enum: [1, 2, 3] },
  ids: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 3 },
  words: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
  context: { default: 'view' },
  raw: { type: 'integer', validate: false },
} as Record<string, ArgDescriptor>;

/** The same set on the general path: an arg the generated check does not take (never sent) leaves the whole set to it. */
const GENERAL = { ...PLAIN, unsent: { type: 'string', format: 'email' } } as Record<string, ArgDescriptor>;

const VALID: Record<string, unknown>[] = [
  {},
  { page: '3' }, { page: 3 }, { page: '5.0' }, { page: '1e3' }, { page: ' 7 ' }, { page: '+4' }, { page: '9007199254740993' }, { page: '1e20' },
  { per_page: '100' }, { per_page: 1 },
  { above: '5' }, { above: 9 },
  { ratio: '0.75' }, { ratio: 2 }, { ratio: '.5' }, { ratio: '5e-1' },
  { flag: 'TRUE' }, { flag: 'false' }, { flag: '0' }, { flag: '1' }, { flag: 1 }, { flag: 0 }, { flag: false },
  { order: 'desc' }, { slug: 'abc' }, { slug: 'ab' }, { label: '😀😀' }, { label: '' }, { one: 'only' }, { code: '2' }, { code: 3 },
  { ids: '1,2,3' }, { ids: '1 2' }, { ids: ['1', '2'] }, { ids: [4] }, { ids: { 0: '4', 2: '5' } }, { ids: '' }, { ids: 7 }, { ids: '1.0' },
  { words: 'a b' }, { words: ['b'] },
  { context: 'edit' }, { context: null }, { context: ['x'] }, { raw: 'anything' }, { raw: null }, { other: 'not declared' },
  { page: '2', per_page: '20', flag: 'true', order: 'asc', ids: '1,2,3', words: 'a', code: '1', slug: 'xyz' },
];

const INVALID: Record<string, unknown>[] = [
  { page: '0' }, { page: 'abc' }, { page: '1.5' }, { page: true }, { page: '' }, { page: '1e400' }, { page: [] }, { page: {} },
  { per_page: '101' }, { per_page: -1 },
  { above: '0' }, { above: '10' }, { above: 10 },
  { ratio: '0.4' }, { ratio: 'x' },
  { flag: 'yes' }, { flag: 'constructor' }, { flag: 2 }, { flag: '' },
  { order: 'up' }, { order: 5 }, { order: 'ASC' },
  { slug: 'a' }, { slug: 'abcdef' }, { slug: 'ABC' }, { slug: 'a😀' }, { label: '😀😀😀' }, { label: 5 },
  { one: 'x' }, { code: '4' }, { code: 'x' },
  { ids: '1,x' }, { ids: '0' }, { ids: '1,2,3,4' }, { ids: { a: 1 } }, { ids: [[1]] }, { ids: '1.5' },
  { words: '' }, { words: 'a,c' }, { words: [1] },
  { page: '0', order: 'up', slug: 'A' },
  { flag: null, page: '0' },
  { page: '2', ids: '1,2', order: 'sideways' },
  { page: null, order: 'up' },
];

/** Valid, but not surely so to the generated check, which leaves them to the general path: a null (absent to WordPress), a number past the finite ones. */
const LEFT_TO_GENERAL: Record<string, unknown>[] = [{ page: null }, { ratio: null, page: '2' }, { flag: null }, { ids: null }, { ratio: '1e400' }];

/** What applying the set to these params comes to: the params as the handler gets them, or the error as the client gets it. */
function outcome(args: Record<string, ArgDescriptor>, input: Record<string, unknown>) {
  const params = structuredClone(input);
  try {
    compileArgs(args).apply(params);
    return { params };
  } catch (e) {
    assert.ok(e instanceof RestError);
    return { status: e.status, body: e.toBody() };
  }
}

describe('the generated one-pass arg check', () => {
  test('is generated for plain arg sets only', () => {
    assert.equal(typeof compileQuickCheck(PLAIN), 'function');
    assert.equal(typeof compileQuickCheck({}), 'function');
    for (const other of [
      { type: 'string', format: 'email' },
      { type: ['integer', 'string'] },
      { type: 'object', properties: { a: { type: 'string' } } },
      { type: 'integer', multipleOf: 2 },
      { type: 'array', items: { type: 'integer' }, uniqueItems: true },
      { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      { type: 'string', enum: ['a', null] },
      { oneOf: [{ type: 'integer' }, { type: 'string' }] },
    ])
      assert.equal(compileQuickCheck({ plain: { type: 'integer' }, other } as Record<string, ArgDescriptor>), null, JSON.stringify(other));
  });

  test('takes every valid input, with the params the general path gives', () => {
    const quick = compileQuickCheck(PLAIN)!;
    for (const input of VALID) {
      const general = outcome(GENERAL, input);
      assert.ok('params' in general, `general path refused ${JSON.stringify(input)}`);
      const params = structuredClone(input);
      assert.equal(quick(params), true, JSON.stringify(input));
      assert.deepEqual(params, general.params, JSON.stringify(input));
      assert.deepEqual(outcome(PLAIN, input), general, JSON.stringify(input));
    }
  });

  test('leaves every invalid input untouched to the general path, whose error body is the answer', () => {
    const quick = compileQuickCheck(PLAIN)!;
    for (const input of INVALID) {
      const general = outcome(GENERAL, input);
      assert.equal(general.status, 400, `general path took ${JSON.stringify(input)}`);
      const params = structuredClone(input);
      assert.equal(quick(params), false, JSON.stringify(input));
      assert.deepEqual(params, input, `changed ${JSON.stringify(input)}`);
      assert.deepEqual(outcome(PLAIN, input), general, JSON.stringify(input));
    }
  });

  test('leaves nulls and infinite numbers to the general path', () => {
    const quick = compileQuickCheck(PLAIN)!;
    for (const input of LEFT_TO_GENERAL) {
      const general = outcome(GENERAL, input);
      assert.ok('params' in general, `general path refused ${JSON.stringify(input)}`);
      const params = structuredClone(input);
      assert.equal(quick(params), false, JSON.stringify(input));
      assert.deepEqual(params, input);
      assert.deepEqual(outcome(PLAIN, input), general, JSON.stringify(input));
    }
  });

  test('the values it gives, written out', () => {
    const params: Record<string, unknown> = { page: '9007199254740993', ratio: '.5', flag: 'TRUE', ids: { 0: '4', 2: '5' }, words: 'a b', code: '2', raw: 'x', context: null };
    assert.equal(compileQuickCheck(PLAIN)!(params), true);
    assert.deepEqual(params, { page: 9007199254740991, ratio: 0.5, flag: true, ids: [4, 5], words: ['a', 'b'], code: 2, raw: 'x', context: null });
  });

  test('a failure is worded by the general path, several params in their order', () => {
    assert.deepEqual(outcome(PLAIN, { page: '0', order: 'up' }), {
      status: 400,
      body: {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): page, order',
        data: {
          status: 400,
          params: { page: 'page must be greater than or equal to 1', order: 'order is not one of asc and desc.' },
          details: {
            page: { code: 'rest_out_of_bounds', message: 'page must be greater than or equal to 1', data: null },
            order: { code: 'rest_not_in_enum', message: 'order is not one of asc and desc.', data: null },
          },
        },
      },
    });
  });
});
