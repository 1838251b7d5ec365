import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { argsForItemSchema, contextParam } from '../../src/engine/schema-args.ts';
import { loadSpec, type Spec } from '../../src/engine/spec.ts';
import { SpecError } from '../../src/engine/diagnostics.ts';
import { setEnv } from '../helpers/env.ts';

// A note's item schema, as a WordPress controller's get_item_schema() would answer it.
const NOTE = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'note',
  type: 'object',
  properties: {
    id: { description: 'Unique identifier for the note.', type: 'integer', context: ['view', 'edit', 'embed'], readonly: true },
    title: { description: 'The title.', type: 'string', context: ['view', 'edit', 'embed'], required: true, minLength: 1 },
    status: { description: 'A named status.', type: 'string', enum: ['draft', 'publish'], context: ['view', 'edit'], default: 'draft' },
    body: {
      description: 'The body.',
      type: 'object',
      context: ['edit'],
      arg_options: { validate: false },
      properties: { raw: { type: 'string', context: ['edit'] }, rendered: { type: 'string', context: ['view', 'edit'], readonly: true } },
    },
    pinned: { type: 'boolean', context: ['view', 'edit'], arg_options: { default: false, required: true } },
  },
};

const CONTEXT_DESCRIPTION = 'Scope under which the request is made; determines fields present in response.';
const BODY_PROPERTIES = { raw: { type: 'string', context: ['edit'] }, rendered: { type: 'string', context: ['view', 'edit'], readonly: true } };

describe('args derived from an item schema (WordPress get_endpoint_args_for_item_schema)', () => {
  test('a create: readonly id dropped, default and required kept first, then the copied keywords, then arg_options', () => {
    const args = argsForItemSchema(NOTE, 'create');
    assert.deepEqual(args, {
      title: { required: true, description: 'The title.', type: 'string', minLength: 1 },
      status: { default: 'draft', description: 'A named status.', type: 'string', enum: ['draft', 'publish'] },
      body: { description: 'The body.', type: 'object', properties: BODY_PROPERTIES, validate: false },
      pinned: { type: 'boolean', default: false, required: true },
    });
    assert.deepEqual(Object.keys(args.status), ['default', 'description', 'type', 'enum']);
  });

  test("an update: no default, no required, not even arg_options'", () => {
    assert.deepEqual(argsForItemSchema(NOTE, 'update'), {
      title: { description: 'The title.', type: 'string', minLength: 1 },
      status: { description: 'A named status.', type: 'string', enum: ['draft', 'publish'] },
      body: { description: 'The body.', type: 'object', properties: BODY_PROPERTIES, validate: false },
      pinned: { type: 'boolean' },
    });
  });

  test("the context param: the contexts the schema's properties are shown in, in WordPress's rsort order", () => {
    assert.deepEqual(contextParam(NOTE), { description: CONTEXT_DESCRIPTION, type: 'string', enum: ['view', 'embed', 'edit'] });
    assert.deepEqual(contextParam({ properties: { a: { context: ['edit'] }, b: { context: ['view', 'edit'] } } }), { description: CONTEXT_DESCRIPTION, type: 'string', enum: ['view', 'edit'] });
    assert.deepEqual(contextParam({ properties: {} }), { description: CONTEXT_DESCRIPTION, type: 'string' });
  });
});

describe('$use: {for: ...} in a spec', () => {
  let work: string;
  let restoreEnv: () => void;
  const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

  /** A copy of the basic fixture with one more file of fixture/v1, loaded. */
  function specWith(part: string): Spec {
    const spec = join(work, `spec-${Math.random().toString(36).slice(2)}`);
    cpSync(FIXTURE, spec, { recursive: true });
    writeFileSync(join(spec, 'namespaces', 'notes.yaml'), part);
    return loadSpec(spec);
  }
  const routeOf = (spec: Spec, key: string) => spec.routes.find((r) => r.key === key)!;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cms-spec-schema-args-'));
    restoreEnv = setEnv({ CMS_SPEC_CACHE: 'off' });
  });
  after(() => {
    restoreEnv();
    rmSync(work, { recursive: true, force: true });
  });

  const NOTES = `extends: fixture/v1
schemas:
  note: ${JSON.stringify(NOTE)}
routes:
  /notes:
    schema: note
    endpoints:
      - methods: [GET]
        handler: fixture.echo
        permission: public
        args:
          $use: {for: context, default: view}
      - methods: [POST]
        handler: fixture.echo
        permission: public
        args:
          $use: {for: create}
          status: { description: Where the note is., type: string, enum: [draft, publish, private] }
          color: { type: string }
  /notes/{id}/copies:
    endpoints:
      - methods: [POST]
        handler: fixture.echo
        permission: public
        args:
          id: { type: integer }
          $use: [{schema: note, for: update, pinned: null, title: {maxLength: 80}}, {schema: note, for: context, default: edit}]
`;

  test('a collection route: the context param, and a create with one arg replaced in place and one added where written', () => {
    const notes = routeOf(specWith(NOTES), '/fixture/v1/notes');
    assert.deepEqual(notes.endpoints[0].args, { context: { description: CONTEXT_DESCRIPTION, type: 'string', enum: ['view', 'embed', 'edit'], default: 'view' } });
    assert.deepEqual(notes.endpoints[1].args, {
      title: { required: true, description: 'The title.', type: 'string', minLength: 1 },
      status: { description: 'Where the note is.', type: 'string', enum: ['draft', 'publish', 'private'] },
      body: { description: 'The body.', type: 'object', properties: BODY_PROPERTIES, validate: false },
      pinned: { type: 'boolean', default: false, required: true },
      color: { type: 'string' },
    });
    assert.deepEqual(Object.keys(notes.endpoints[1].args), ['title', 'status', 'body', 'pinned', 'color']);
  });

  test("a route without a schema of its own names one, adjusting derived args as a set's; OPTIONS' schema has no arg_options", () => {
    const spec = specWith(NOTES);
    const copies = routeOf(spec, '/fixture/v1/notes/(?P<id>[^/]+)/copies');
    assert.deepEqual(copies.endpoints[0].args, {
      id: { type: 'integer' },
      title: { description: 'The title.', type: 'string', minLength: 1, maxLength: 80 },
      status: { description: 'A named status.', type: 'string', enum: ['draft', 'publish'] },
      body: { description: 'The body.', type: 'object', properties: BODY_PROPERTIES, validate: false },
      context: { description: CONTEXT_DESCRIPTION, type: 'string', enum: ['view', 'embed', 'edit'], default: 'edit' },
    });
    const served = routeOf(spec, '/fixture/v1/notes').schema as { properties: Record<string, Record<string, unknown>> };
    assert.deepEqual(served.properties.body, { description: 'The body.', type: 'object', context: ['edit'], properties: BODY_PROPERTIES });
    assert.equal(JSON.stringify(served).includes('arg_options'), false);
  });

  test('a schema no file declares, or no schema at all, is a spec-schema error at its $use line', () => {
    const bad = `extends: fixture/v1
routes:
  /bad:
    endpoints:
      - methods: [POST]
        handler: fixture.echo
        permission: public
        args:
          $use: {schema: nothing, for: create}
      - methods: [PUT]
        handler: fixture.echo
        permission: public
        args:
          $use: {for: update}
`;
    assert.throws(
      () => specWith(bad),
      (e: unknown) => {
        assert.ok(e instanceof SpecError);
        const messages = e.problems.map((d) => `${d.file.split('/').pop()}:${d.line}: ${d.rule}: ${d.message}`);
        assert.deepEqual(messages, [
          "notes.yaml:9: spec-schema: $use names schema 'nothing', which no file of the namespace declares under schemas:",
          'notes.yaml:14: spec-schema: $use: {for: update} names no schema, and its route has no schema: of its own',
        ]);
        return true;
      },
    );
  });
});
