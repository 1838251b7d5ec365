import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { useServer, type TestServer } from '../helpers/server.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

interface ErrorBody {
  code: string;
  message: string;
  data: Record<string, any>;
}

describe('arguments: coercion, defaults, precedence and WordPress error wording', () => {
  const server = useServer({ spec: FIXTURE });

  /** The args the echo handler received for a query string. */
  async function echoArgs(query: string): Promise<Record<string, any>> {
    const res = await server.call(`fixture/v1/echo?${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { args: Record<string, any> }).args;
  }

  async function echoJson(json: unknown, query = ''): Promise<Record<string, any>> {
    const res = await server.call(`fixture/v1/echo${query ? `?${query}` : ''}`, { method: 'POST', json });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { args: Record<string, any> }).args;
  }

  async function rejected(path: string, init?: Parameters<TestServer['call']>[1]): Promise<ErrorBody> {
    const res = await server.call(path, init);
    assert.equal(res.status, 400);
    return (await res.json()) as ErrorBody;
  }

  /** The single-param rest_invalid_param body WordPress sends for `name`. */
  const invalid = (name: string, code: string, message: string, data: unknown = null) => ({
    code: 'rest_invalid_param',
    message: `Invalid parameter(s): ${name}`,
    data: { status: 400, params: { [name]: message }, details: { [name]: { code, message, data } } },
  });

  test('booleans from true/false/1/0 in any case, and from JSON 0/1', async () => {
    assert.equal((await echoArgs('flag=TRUE')).flag, true);
    assert.equal((await echoArgs('flag=False')).flag, false);
    assert.equal((await echoArgs('flag=1')).flag, true);
    assert.equal((await echoArgs('flag=0')).flag, false);
    assert.equal((await echoJson({ flag: 1 })).flag, true);
    assert.equal((await echoJson({ flag: 0 })).flag, false);
    assert.equal((await echoJson({ flag: 'false' })).flag, false);
    assert.equal((await echoArgs('short=true')).short, true, 'bool is validated as boolean');
    assert.deepEqual(await rejected('fixture/v1/echo?flag=yes'), invalid('flag', 'rest_invalid_type', 'flag is not of type boolean.', { param: 'flag' }));
    assert.deepEqual(await rejected('fixture/v1/echo?short=2'), invalid('short', 'rest_invalid_type', 'short is not of type boolean.', { param: 'short' }));
  });

  test('integers from "5", "5.0" and "1e3"; a fraction is not an integer', async () => {
    assert.equal((await echoArgs('count=5')).count, 5);
    assert.equal((await echoArgs('count=5.0')).count, 5);
    assert.equal((await echoArgs('count=1e3')).count, 1000);
    assert.equal((await echoArgs('num=7')).num, 7, 'int is validated as integer');
    assert.equal((await echoJson({ count: 12 })).count, 12);
    assert.deepEqual(await rejected('fixture/v1/echo?count=5.5'), invalid('count', 'rest_invalid_type', 'count is not of type integer.', { param: 'count' }));
    assert.deepEqual(await rejected('fixture/v1/echo?count=abc'), invalid('count', 'rest_invalid_type', 'count is not of type integer.', { param: 'count' }));
    assert.deepEqual(await rejected('fixture/v1/echo', { method: 'POST', json: { count: '' } }), invalid('count', 'rest_invalid_type', 'count is not of type integer.', { param: 'count' }));
  });

  test('numbers from numeric strings', async () => {
    assert.equal((await echoArgs('ratio=2.5')).ratio, 2.5);
    assert.equal((await echoArgs('ratio=-3')).ratio, -3);
    assert.deepEqual(await rejected('fixture/v1/echo?ratio=1.2.3'), invalid('ratio', 'rest_invalid_type', 'ratio is not of type number.', { param: 'ratio' }));
  });

  test('arrays from comma/space lists and from a[]=x&a[]=y, items coerced', async () => {
    assert.deepEqual((await echoArgs('words=a,b%20c')).words, ['a', 'b', 'c']);
    assert.deepEqual((await echoArgs('words=a,b+c')).words, ['a', 'b', 'c']);
    assert.deepEqual((await echoArgs('tags=1,2')).tags, [1, 2]);
    assert.deepEqual((await echoArgs('tags[]=4&tags[]=5')).tags, [4, 5]);
    assert.deepEqual((await echoArgs('tags[0]=1&tags[2]=3')).tags, [1, 3], 'integer keys with a gap still make a list');
    assert.deepEqual((await echoJson({ tags: ['6', 7] })).tags, [6, 7]);
    assert.deepEqual((await echoArgs('words=')).words, []);
    assert.deepEqual(await rejected('fixture/v1/echo?tags=1,x'), invalid('tags', 'rest_invalid_type', 'tags[1] is not of type integer.', { param: 'tags[1]' }));
  });

  test('objects from options[widget]=x, properties coerced', async () => {
    assert.deepEqual((await echoArgs('options[widget]=x&options[size]=3')).options, { widget: 'x', size: 3 });
    assert.deepEqual((await echoJson({ options: { widget: 'y', size: '4' } })).options, { widget: 'y', size: 4 });
    assert.deepEqual(await rejected('fixture/v1/echo?options=abc'), invalid('options', 'rest_invalid_type', 'options is not of type object.', { param: 'options' }));
    assert.deepEqual(
      await rejected('fixture/v1/echo?options[size]=big'),
      invalid('options', 'rest_invalid_type', 'options[size] is not of type integer.', { param: 'options[size]' }),
    );
  });

  test('multi-type args take the first declared type that fits', async () => {
    assert.equal((await echoArgs('maybe=5')).maybe, 5);
    assert.equal((await echoArgs('maybe=five')).maybe, 'five');
    assert.equal((await echoJson({ maybe: 'six' })).maybe, 'six');
    assert.deepEqual(
      await rejected('fixture/v1/echo', { method: 'POST', json: { maybe: [1] } }),
      invalid('maybe', 'rest_invalid_type', 'maybe is not of type integer,string,null.', { param: 'maybe' }),
    );
  });

  test('defaults are applied, and a sent value replaces them', async () => {
    const args = await echoArgs('');
    assert.equal(args.mode, 'a');
    assert.equal(args.page, 1);
    assert.equal(args.per_page, 10);
    assert.equal(args.fallback, 'kept');
    assert.equal(args.flag, undefined, 'no default, not sent: absent');
    assert.equal((await echoArgs('mode=b')).mode, 'b');
  });

  test('JSON null counts as absent: a lower source or the default shows through', async () => {
    assert.equal((await echoJson({ count: null }, 'count=3')).count, 3);
    assert.equal((await echoJson({ mode: null })).mode, 'a');
  });

  test('precedence: JSON body > form body > query > URL > defaults', async () => {
    const url = await server.call('fixture/v1/echo/7');
    assert.equal(((await url.json()) as any).args.id, 7, 'URL param typed as integer');
    const query = await server.call('fixture/v1/echo/7?id=9');
    assert.equal(((await query.json()) as any).args.id, 9, 'query beats URL');
    assert.equal((await echoArgs('mode=c')).mode, 'c', 'query beats default');
    const form = await server.call('fixture/v1/echo?count=1&mode=b', {
      method: 'POST',
      body: 'count=2&extra=form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const formArgs = ((await form.json()) as any).args;
    assert.equal(formArgs.count, 2, 'form beats query');
    assert.equal(formArgs.mode, 'b', 'query still fills what the form lacks');
    assert.equal(formArgs.extra, 'form', 'undeclared params reach the handler too');
    const json = await echoJson({ count: 3 }, 'count=1');
    assert.equal(json.count, 3, 'JSON beats query');
    assert.equal(json._method, undefined);
  });

  test('missing required params: rest_missing_callback_param with a list', async () => {
    assert.deepEqual(await rejected('fixture/v1/options'), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): names',
      data: { status: 400, params: ['names'] },
    });
    assert.deepEqual(await rejected('fixture/v1/options/x', { method: 'POST', json: { value: null } }), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): value',
      data: { status: 400, params: ['value'] },
    });
  });

  test('several invalid params are all reported', async () => {
    const body = await rejected('fixture/v1/echo?count=x&side=up');
    assert.equal(body.code, 'rest_invalid_param');
    assert.equal(body.message, 'Invalid parameter(s): count, side');
    assert.deepEqual(body.data.params, { count: 'count is not of type integer.', side: 'side is not one of left and right.' });
    assert.deepEqual(body.data.details.side, { code: 'rest_not_in_enum', message: 'side is not one of left and right.', data: null });
  });

  test('enum messages: three or more, exactly two, a single value', async () => {
    assert.deepEqual(await rejected('fixture/v1/echo?mode=z'), invalid('mode', 'rest_not_in_enum', 'mode is not one of a, b, and c.'));
    assert.deepEqual(await rejected('fixture/v1/echo?side=up'), invalid('side', 'rest_not_in_enum', 'side is not one of left and right.'));
    assert.deepEqual(await rejected('fixture/v1/echo?only=that'), invalid('only', 'rest_not_in_enum', 'only is not this.'));
  });

  test('bounds messages, without a final period', async () => {
    const between = 'per_page must be between 1 (inclusive) and 100 (inclusive)';
    assert.deepEqual(await rejected('fixture/v1/echo?per_page=101'), invalid('per_page', 'rest_out_of_bounds', between));
    assert.deepEqual(await rejected('fixture/v1/echo?per_page=0'), invalid('per_page', 'rest_out_of_bounds', between));
    assert.deepEqual(await rejected('fixture/v1/echo?page=0'), invalid('page', 'rest_out_of_bounds', 'page must be greater than or equal to 1'));
    assert.deepEqual(await rejected('fixture/v1/echo?atleast=1.5'), invalid('atleast', 'rest_out_of_bounds', 'atleast must be greater than or equal to 2'));
    assert.deepEqual(await rejected('fixture/v1/echo?below=5'), invalid('below', 'rest_out_of_bounds', 'below must be less than 5'));
    assert.equal((await echoArgs('below=4')).below, 4);
  });

  test('maxItems and maxLength', async () => {
    assert.deepEqual(await rejected('fixture/v1/echo?pair=a,b,c'), invalid('pair', 'rest_too_many_items', 'pair must contain at most 2 items.'));
    assert.deepEqual((await echoArgs('pair=a,b')).pair, ['a', 'b']);
    assert.deepEqual(
      await rejected('fixture/v1/options/long', { method: 'POST', json: { value: 'x'.repeat(21) } }),
      invalid('value', 'rest_too_long', 'value must be at most 20 characters long.'),
    );
    assert.deepEqual(
      await rejected('fixture/v1/options/UPPER', { method: 'POST', json: { value: 'v' } }),
      invalid('name', 'rest_invalid_pattern', 'name does not match pattern ^[a-z0-9_-]+$.'),
    );
  });

  test('a value breaking several rules gets the failure WordPress checks first', async () => {
    assert.deepEqual(await rejected('fixture/v1/echo?code=xyz'), invalid('code', 'rest_too_long', 'code must be at most 2 characters long.'));
    assert.deepEqual(await rejected('fixture/v1/echo?code=xy'), invalid('code', 'rest_not_in_enum', 'code is not one of ab and cd.'));
    assert.equal((await echoArgs('code=cd')).code, 'cd');
  });

  test('nested names and required properties inside arrays of objects', async () => {
    const method = await rejected('batch/v1', { json: { requests: [{ method: 'GET', path: '/fixture/v1/echo' }] } });
    assert.deepEqual(method, invalid('requests', 'rest_not_in_enum', 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.'));
    const path = await rejected('batch/v1', { json: { requests: [{ method: 'POST' }] } });
    assert.deepEqual(path, invalid('requests', 'rest_property_required', 'path is a required property of requests[0].'));
  });

  test('format uri is not rejected, only sanitised', async () => {
    assert.equal((await echoArgs(`link=${encodeURIComponent('https://example.com/a b')}`)).link, 'https://example.com/a%20b');
    assert.equal((await echoArgs(`link=${encodeURIComponent('javascript:alert(1)')}`)).link, '');
    assert.equal((await echoArgs('link=not%20a%20url')).link, '');
  });

  test('a validation error wins over a permission error', async () => {
    const res = await server.call('fixture/v1/admin-only', { method: 'POST', json: {} });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as ErrorBody).code, 'rest_missing_callback_param');
    const denied = await server.call('fixture/v1/admin-only', { method: 'POST', json: { value: 'x' } });
    assert.equal(denied.status, 401);
    assert.deepEqual(await denied.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
  });
});
