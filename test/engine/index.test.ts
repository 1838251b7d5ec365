import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

describe('route index of the fixture spec (variant A)', () => {
  const server = useServer({ spec: FIXTURE });
  let index: Record<string, any>;
  let raw: string;
  before(async () => {
    const res = await server.call('');
    assert.equal(res.status, 200);
    raw = await res.text();
    index = JSON.parse(raw);
  });

  test('keys come in WordPress order with the site description first', () => {
    assert.deepEqual(Object.keys(index), [
      'name', 'description', 'url', 'home', 'gmt_offset', 'timezone_string', 'page_for_posts', 'page_on_front', 'show_on_front',
      'namespaces', 'authentication', 'routes', 'site_logo', 'site_icon', 'site_icon_url', '_links',
    ]);
    assert.equal(index.name, 'Fixture Site');
    assert.equal(index.description, 'Engine fixture');
    assert.equal(index.url, server.home);
    assert.equal(index.home, server.home);
    assert.equal(index.gmt_offset, '0');
    assert.equal(index.page_for_posts, 0);
    assert.equal(index.show_on_front, 'posts');
    assert.deepEqual(index.namespaces, ['fixture/v1']);
    assert.deepEqual(index._links, { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
  });

  test('authentication names the application password authorization page', () => {
    assert.deepEqual(index.authentication, {
      'application-passwords': { endpoints: { authorization: `${server.home}/cms-admin/authorize-application` } },
    });
  });

  test('routes come in registration order, keyed in WordPress regex form', () => {
    assert.deepEqual(Object.keys(index.routes), [
      '/', '/batch/v1', '/fixture/v1', '/fixture/v1/echo', '/fixture/v1/echo/(?P<id>[\\d]+)', '/fixture/v1/options',
      '/fixture/v1/options/(?P<name>[\\w-]+)', '/fixture/v1/unbatched/(?P<name>[\\w-]+)', '/fixture/v1/admin-only',
      '/fixture/v1/twice', '/fixture/v1/boom', '/fixture/v1/slow', '/fixture/v1/only-a',
      '/fixture/v1/from-part',
    ]);
  });

  test("a further file of a namespace (extends:) adds its routes after the head's, with the head's arg sets", async () => {
    assert.deepEqual(index.routes['/fixture/v1/from-part'].endpoints[0].args, { word: { type: 'string', enum: ['hello', 'world'], required: true } });
    assert.equal((await server.call('fixture/v1/from-part?word=hello')).status, 200);
    const bad = await server.call('fixture/v1/from-part?word=nope');
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).code, 'rest_invalid_param');
  });

  test("routes['/'] is what WordPress serves", () => {
    assert.deepEqual(index.routes['/'], {
      namespace: '',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
      _links: { self: [{ href: server.api }] },
    });
  });

  test("routes['/batch/v1'] is byte for byte WordPress's, properties: [] included", () => {
    const expected =
      '{"namespace":"","methods":["POST"],"endpoints":[{"methods":["POST"],"args":{' +
      '"validation":{"type":"string","enum":["require-all-validate","normal"],"default":"normal","required":false},' +
      '"requests":{"type":"array","maxItems":25,"items":{"type":"object","properties":{' +
      '"method":{"type":"string","enum":["POST","PUT","PATCH","DELETE"],"default":"POST"},' +
      '"path":{"type":"string","required":true},' +
      '"body":{"type":"object","properties":[],"additionalProperties":true},' +
      '"headers":{"type":"object","properties":[],"additionalProperties":{"type":["string","array"],"items":{"type":"string"}}}}},' +
      `"required":true}}}],"_links":{"self":[{"href":"${server.api}batch/v1"}]}}`;
    assert.equal(JSON.stringify(index.routes['/batch/v1']), expected);
  });

  test('the namespace index route carries namespace and context defaults', () => {
    assert.deepEqual(index.routes['/fixture/v1'], {
      namespace: 'fixture/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: { namespace: { default: 'fixture/v1', required: false }, context: { default: 'view', required: false } } }],
      _links: { self: [{ href: `${server.api}fixture/v1` }] },
    });
  });

  test('arg descriptors are verbatim: order as written, shared sets in place, aliases kept, required last', () => {
    const args = index.routes['/fixture/v1/echo'].endpoints[0].args;
    assert.deepEqual(Object.keys(args), [
      'flag', 'count', 'ratio', 'tags', 'words', 'options', 'maybe', 'mode', 'side', 'only', 'page', 'per_page', 'below', 'atleast', 'pair', 'code', 'link', 'short', 'num', 'fallback',
    ]);
    assert.equal(JSON.stringify(args.options), '{"type":"object","properties":{"widget":{"type":"string"},"size":{"type":"integer"}},"required":false}');
    assert.equal(JSON.stringify(args.maybe), '{"type":["integer","string","null"],"required":false}');
    assert.equal(JSON.stringify(args.per_page), '{"type":"integer","default":10,"minimum":1,"maximum":100,"required":false}');
    assert.equal(JSON.stringify(args.below), '{"type":"integer","maximum":5,"exclusiveMaximum":true,"required":false}');
    assert.equal(JSON.stringify(args.fallback), '{"default":"kept","required":false}');
    // bool/int stay as written; sanitize_callback and a top-level context vanish, a nested one stays
    assert.equal(JSON.stringify(args.short), '{"type":"bool","required":false}');
    assert.equal(JSON.stringify(args.num), '{"type":"int","description":"An int alias","items":{"context":["view"]},"required":false}');
    const listArgs = index.routes['/fixture/v1/options'].endpoints[0].args;
    assert.equal(JSON.stringify(listArgs.names), '{"type":"array","items":{"type":"string"},"required":true}');
  });

  test('an endpoint without args says "args": []', () => {
    assert.ok(raw.includes('"/fixture/v1/boom":{"namespace":"fixture/v1","methods":["GET"],"endpoints":[{"methods":["GET"],"args":[]}]'));
  });

  test('_links.self only on routes without path variables', () => {
    for (const [key, route] of Object.entries(index.routes as Record<string, any>)) {
      if (key.includes('(?P<')) assert.equal(route._links, undefined, key);
      else assert.deepEqual(route._links, { self: [{ href: server.api + key.slice(1) }] }, key);
    }
  });

  test('route-level args come first in every endpoint, allow_batch sits between methods and args', () => {
    const route = index.routes['/fixture/v1/options/(?P<name>[\\w-]+)'];
    assert.deepEqual(route.methods, ['GET', 'POST', 'PUT', 'DELETE']);
    assert.deepEqual(route.endpoints.map((e: any) => Object.keys(e)), [
      ['methods', 'allow_batch', 'args'], ['methods', 'allow_batch', 'args'], ['methods', 'allow_batch', 'args'],
    ]);
    assert.deepEqual(route.endpoints[1], {
      methods: ['POST', 'PUT'],
      allow_batch: { v1: true },
      args: {
        name: { type: 'string', pattern: '^[a-z0-9_-]+$', required: false },
        value: { type: 'string', required: true, maxLength: 20 },
      },
    });
    assert.equal(JSON.stringify(route.endpoints[1].args.value), '{"type":"string","maxLength":20,"required":true}');
    assert.equal(index.routes['/fixture/v1/unbatched/(?P<name>[\\w-]+)'].endpoints[0].allow_batch, undefined);
  });

  test('a method repeated across endpoints is listed twice', () => {
    const route = index.routes['/fixture/v1/twice'];
    assert.deepEqual(route.methods, ['GET', 'GET']);
    assert.deepEqual(route.endpoints, [{ methods: ['GET'], args: [] }, { methods: ['GET'], args: [] }]);
  });

  test('GET /cms-json/{ns} serves the namespace index with a link up', async () => {
    const res = await server.call('fixture/v1');
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, any>;
    assert.deepEqual(Object.keys(body), ['namespace', 'routes', '_links']);
    assert.equal(body.namespace, 'fixture/v1');
    assert.deepEqual(Object.keys(body.routes), Object.keys(index.routes).filter((k) => k.startsWith('/fixture/v1')));
    assert.deepEqual(body.routes['/fixture/v1/echo'], index.routes['/fixture/v1/echo']);
    assert.deepEqual(body._links, { up: [{ href: server.api }] });
  });

  test('an unknown namespace asked of a namespace index is rest_invalid_namespace 404', async () => {
    const res = await server.call('fixture/v1?namespace=nope');
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { code: 'rest_invalid_namespace', message: 'The specified namespace could not be found.', data: { status: 404 } });
  });

  test('the index is the same through ?rest_route=/ on the site root', async () => {
    const res = await fetch(`${server.home}/?rest_route=/`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), raw);
  });
});

describe('variant B of the fixture spec', () => {
  const server = useServer({ spec: FIXTURE, variant: 'B' });

  test('lists the routes and namespaces of variant B only', async () => {
    const index = (await (await server.call('')).json()) as Record<string, any>;
    assert.deepEqual(index.namespaces, ['fixture/v1', 'fixture-b/v1']);
    assert.ok(index.routes['/fixture-b/v1/only-b']);
    assert.ok(index.routes['/fixture-b/v1']);
    assert.equal(index.routes['/fixture/v1/only-a'], undefined);
  });

  test('serves B routes and not A-only routes', async () => {
    assert.equal((await server.call('fixture-b/v1/only-b')).status, 200);
    const res = await server.call('fixture/v1/only-a');
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { code: string }).code, 'rest_no_route');
  });
});
