import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSpec } from '../../src/engine/spec.ts';
import { SpecError } from '../../src/engine/diagnostics.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { setEnv } from '../helpers/env.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

const THING = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'thing',
  type: 'object',
  properties: { id: { description: 'Unique identifier for the thing.', type: 'integer', context: ['view', 'edit'], readonly: true } },
  links: [{ rel: 'https://api.w.org/action-publish', title: 'The current user can publish this thing.', href: '/fixture/v1/things/{id}' }],
};

/** A route's `schema:` names one of its namespace's `schemas:` (any file of it); OPTIONS answers it, the index never. */
describe('resource schemas (schema: on a route)', () => {
  let work: string;
  let spec: string;
  let server: TestServer;
  let restoreEnv: () => void;

  const part = (route: string) => `extends: fixture/v1
routes:
  ${route}:
    schema: thing
    endpoints:
      - methods: [GET]
        handler: fixture.echo
        permission: public
`;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'cms-spec-schemas-'));
    spec = join(work, 'spec');
    cpSync(FIXTURE, spec, { recursive: true });
    rmSync(join(spec, 'handlers'), { recursive: true });
    const site = join(spec, 'site.yaml');
    writeFileSync(site, readFileSync(site, 'utf8').replace('handlers: ./handlers', `handlers: ${join(FIXTURE, 'handlers')}`));
    // the route names its schema in one part, another part declares it
    writeFileSync(join(spec, 'namespaces', 'a-things.yaml'), part('/things'));
    writeFileSync(join(spec, 'namespaces', 'b-schemas.yaml'), `extends: fixture/v1\nroutes: {}\nschemas:\n  thing: ${JSON.stringify(THING)}\n`);
    restoreEnv = setEnv({ CMS_SPEC_CACHE: 'off' });
    server = await startTestServer({ spec });
  });
  after(async () => {
    await server?.close();
    restoreEnv();
    rmSync(work, { recursive: true, force: true });
  });

  test('OPTIONS answers the descriptor with the schema after the endpoints, its links at this address', async () => {
    const res = await server.call('fixture/v1/things', { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(Object.keys(body), ['namespace', 'methods', 'endpoints', 'schema', '_links']);
    assert.deepEqual(body.schema, { ...THING, links: [{ ...THING.links[0], href: `${server.api}fixture/v1/things/{id}` }] });
    const index = await (await server.call('')).json();
    const { schema: _schema, ...descriptor } = body;
    assert.deepEqual(index.routes['/fixture/v1/things'], descriptor, 'the index shows the same descriptor, without the schema');
    assert.equal('schema' in (await (await server.call('fixture/v1/echo', { method: 'OPTIONS' })).json()), false, 'a route naming no schema has none');
  });

  test('a schema no file of the namespace declares is a spec-schema problem', () => {
    writeFileSync(join(spec, 'namespaces', 'b-schemas.yaml'), 'extends: fixture/v1\nroutes: {}\n');
    assert.throws(
      () => loadSpec(spec),
      (e: unknown) => e instanceof SpecError && e.problems.some((p) => p.rule === 'spec-schema' && p.message === "route /things names schema 'thing', which no file of fixture/v1 declares under schemas:"),
    );
  });
});
