import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import { OpenAPIClientAxios, type Document } from 'openapi-client-axios';
import { ApiRoot } from '../../src/engine/api-root.ts';
import { openApiDocument } from '../../src/engine/openapi.ts';
import { loadSpec, routesForVariant } from '../../src/engine/spec.ts';
import { useServer } from '../helpers/server.ts';
import { CLI, ROOT } from './run.ts';

// The OpenAPI document of the routes a site serves: served at the API root (`?_openapi=1`) for
// each address the API answers at, written by `cms-spec openapi` for an installed site, valid for
// a well-kept OpenAPI validator, and good enough for a client driven by it to call the site.

/** What the validator says, in one message: the document must be valid OpenAPI 3.1. */
async function assertValid(doc: unknown): Promise<void> {
  const result = await validate(structuredClone(doc) as Parameters<typeof validate>[0]);
  assert.ok(result.valid, JSON.stringify(result.valid ? [] : result.errors.slice(0, 5), null, 1));
}

test("WordPress's own bits of an arg are written as JSON Schema 2020-12", async () => {
  const spec = loadSpec(join(ROOT, 'test/fixtures/basic'));
  const doc = openApiDocument(spec, { routes: routesForVariant(spec, 'A'), root: new ApiRoot('cms-json'), variant: 'A' }) as any;
  await assertValid(doc);
  const schemaOf = (name: string) => doc.paths['/fixture/v1/echo'].get.parameters.find((p: { name: string }) => p.name === name).schema;
  assert.deepEqual(schemaOf('below'), { type: 'integer', exclusiveMaximum: 5 });
  assert.deepEqual(schemaOf('short'), { type: 'boolean' });
  assert.deepEqual(schemaOf('num'), { type: 'integer', items: {} });
  assert.deepEqual(schemaOf('pair'), { type: 'array', maxItems: 2, items: {} });
  assert.deepEqual(schemaOf('options'), { type: 'object', properties: { widget: { type: 'string' }, size: { type: 'integer' } } });
  assert.deepEqual(schemaOf('maybe'), { type: ['integer', 'string', 'null'] });
  assert.equal(doc.servers, undefined, 'no address given, no servers');
  // one handler on two methods of a route: the second method's operation is named by it
  assert.equal(doc.paths['/fixture/v1/echo'].get.operationId, 'fixture-v1.echo');
  assert.equal(doc.paths['/fixture/v1/echo'].post.operationId, 'fixture-v1.echo.post');
  assert.deepEqual(Object.keys(doc.paths['/fixture/v1/echo'].get.responses), ['200', '400']);
  assert.deepEqual(doc.paths['/fixture/v1/echo'].get.responses['400']['x-error-codes'], ['rest_invalid_param']);
  assert.deepEqual(doc.paths['/fixture/v1/options'].get.responses['400']['x-error-codes'], ['rest_missing_callback_param', 'rest_invalid_param'], 'names is required');
});

describe('the served OpenAPI document', () => {
  const site = useServer();
  const served = async (root = 'cms-json') => {
    const res = await fetch(`${site.home}/${root}/?_openapi=1`);
    assert.equal(res.status, 200);
    return (await res.json()) as any;
  };

  test('is valid OpenAPI 3.1, with WordPress patterns as paths and args as typed parameters', async () => {
    const doc = await served();
    await assertValid(doc);
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.servers, [{ url: site.api.replace(/\/$/, '') }]);
    const getPost = doc.paths['/cms/v2/posts/{id}'].get;
    assert.equal(getPost.operationId, 'cms-v2.getPost');
    assert.deepEqual(getPost.security, []);
    assert.deepEqual(getPost.parameters[0], { name: 'id', in: 'path', required: true, description: 'Unique identifier for the post.', schema: { type: 'integer', pattern: '^[\\d]+$' } });
    const list = doc.paths['/cms/v2/posts'].get;
    assert.deepEqual(
      list.parameters.find((p: { name: string }) => p.name === 'per_page'),
      { name: 'per_page', in: 'query', description: 'Maximum number of items to be returned in result set.', required: false, schema: { type: 'integer', default: 10, minimum: 1, maximum: 100 } },
    );
    assert.deepEqual(
      list.parameters.find((p: { name: string }) => p.name === 'slug'),
      { name: 'slug', in: 'query', description: 'Limit result set to posts with one or more specific slugs.', required: false, style: 'form', explode: false, schema: { type: 'array', items: { type: 'string' } } },
    );
  });

  test('a write takes a JSON or form body, needs an application password, and lists its refusals', async () => {
    const create = (await served()).paths['/cms/v2/posts'].post;
    assert.equal(create.operationId, 'cms-v2.createPost');
    assert.equal(create['x-permission'], 'edit_posts');
    assert.deepEqual(create.security, [{ applicationPassword: [] }]);
    assert.deepEqual(Object.keys(create.requestBody.content), ['application/json', 'application/x-www-form-urlencoded']);
    assert.deepEqual(create.requestBody.content['application/json'].schema.properties.status, {
      type: 'string',
      enum: ['publish', 'future', 'draft', 'pending', 'private'],
      description: 'A named status for the post.',
    });
    assert.deepEqual(create.responses['403']['x-error-codes'], ['rest_cannot_create']);
    assert.equal(create.responses['403'].description, 'Not allowed:\n- `rest_cannot_create`: Sorry, you are not allowed to create posts as this user.');
    assert.deepEqual(create.responses['403'].content['application/json'].schema, { $ref: '#/components/schemas/WP_Error' });
    assert.deepEqual(create.responses['401']['x-error-codes'], ['rest_cannot_create']);
    assert.deepEqual(Object.keys(create.responses).slice(0, 4), ['201', '400', '401', '403']);
    assert.deepEqual(create.responses['400']['x-error-codes'], ['rest_invalid_param', 'rest_invalid_json'], 'no arg of a create is required: none can be missing');
  });

  test('the document shares the error body and the security scheme as components', async () => {
    const { components } = await served();
    assert.deepEqual(components.securitySchemes, {
      applicationPassword: { type: 'http', scheme: 'basic', description: "A user's login and one of their application passwords (WordPress's Application Passwords)." },
    });
    assert.deepEqual(components.schemas.WP_Error.required, ['code', 'message', 'data']);
  });

  test("at /wp-json/ it names the routes as WordPress's address does", async () => {
    const doc = await served('wp-json');
    await assertValid(doc);
    assert.deepEqual(doc.servers, [{ url: `${site.home}/wp-json` }]);
    assert.equal(doc.paths['/wp/v2/posts'].get.operationId, 'wp-v2.listPosts');
    assert.equal(doc.paths['/cms/v2/posts'], undefined);
  });

  test('the served index does not change: it names no OpenAPI document', async () => {
    const index = await site.json('/', { auth: undefined });
    assert.equal(index.openapi, undefined);
    assert.equal(JSON.stringify(index).includes('_openapi'), false);
  });

  test('cms-spec openapi writes the document the site serves, for either variant', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-openapi-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    // run without blocking this process, which serves the site the other tests call
    const written = async (variant: string) => {
      const out = join(dir, `openapi-${variant}.json`);
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'openapi', '--db', site.dbPath, '--variant', variant, '--out', out], { cwd: ROOT });
      assert.equal(stdout, '');
      return JSON.parse(readFileSync(out, 'utf8'));
    };
    const { servers: _served, ...doc } = await served();
    const { servers: _written, ...variantA } = await written('a');
    assert.deepEqual(variantA, doc);
    const variantB = await written('b');
    await assertValid(variantB);
    assert.equal(variantB.info.version, 'variant B');
    assert.ok(variantB.paths['/designkit-starter-library/v1/get'], 'a route only variant B serves');
    assert.equal(doc.paths['/designkit-starter-library/v1/get'], undefined);
  });

  test('a client driven by the document lists posts and creates one as the administrator', async () => {
    const api = new OpenAPIClientAxios({ definition: (await served()) as Document });
    const client = (await api.init()) as unknown as Record<string, (params?: unknown, data?: unknown, config?: unknown) => Promise<{ status: number; data: any }>>;
    const created = await client['cms-v2.createPost'](null, { title: 'Written through the OpenAPI client', status: 'publish' }, { headers: { Authorization: site.admin } });
    assert.equal(created.status, 201);
    assert.equal(created.data.title.raw, 'Written through the OpenAPI client');
    const listed = await client['cms-v2.listPosts']({ search: 'OpenAPI client', per_page: 5 });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.data.map((p: { id: number; title: { rendered: string } }) => [p.id, p.title.rendered]),
      [[created.data.id, 'Written through the OpenAPI client']],
    );
    const one = await client['cms-v2.getPost']({ id: created.data.id });
    assert.equal(one.data.slug, 'written-through-the-openapi-client');
  });
});
