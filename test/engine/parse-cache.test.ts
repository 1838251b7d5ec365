import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadSpec } from '../../src/engine/spec.ts';
import { SpecError } from '../../src/engine/diagnostics.ts';
import { startTestServer } from '../helpers/server.ts';
import { setEnv } from '../helpers/env.ts';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/basic');

/**
 * The parsed spec is kept between starts (src/engine/parse-cache.ts). What a user must never
 * notice: a server answering from an older YAML than the one on disk, a broken or missing cache
 * entry changing anything, or a broken spec starting.
 */
describe('the parsed spec kept between starts', () => {
  let work: string;
  let spec: string;
  let cache: string;
  let restoreEnv: () => void;

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'cms-spec-parse-cache-'));
    spec = join(work, 'spec');
    cache = join(work, 'cache');
    cpSync(FIXTURE, spec, { recursive: true });
    // the copy's handlers are the fixture's own (their imports are relative to it)
    rmSync(join(spec, 'handlers'), { recursive: true });
    const site = join(spec, 'site.yaml');
    writeFileSync(site, readFileSync(site, 'utf8').replace('handlers: ./handlers', `handlers: ${join(FIXTURE, 'handlers')}`));
    restoreEnv = setEnv({ CMS_SPEC_CACHE_DIR: cache, CMS_SPEC_CACHE: undefined });
  });
  after(() => {
    restoreEnv();
    rmSync(work, { recursive: true, force: true });
  });

  const entries = () => readdirSync(cache).filter((f) => f.startsWith('spec-'));
  const nsFile = () => join(spec, 'namespaces/fixture.yaml');
  const parsedNow = () => {
    const restore = setEnv({ CMS_SPEC_CACHE: 'off' });
    try {
      return loadSpec(spec);
    } finally {
      restore();
    }
  };

  /** The args the served index gives GET fixture/v1/echo, from a server started afresh. */
  async function servedEchoArgs(): Promise<Record<string, Record<string, unknown>>> {
    const server = await startTestServer({ spec, dbPath: join(work, `site-${Date.now()}.sqlite`) });
    try {
      const index = (await (await server.call('fixture/v1')).json()) as { routes: Record<string, { endpoints: { args: Record<string, Record<string, unknown>> }[] }> };
      return index.routes['/fixture/v1/echo'].endpoints[0].args;
    } finally {
      await server.close();
    }
  }

  test('a second start reads the kept spec and serves exactly what parsing serves', async () => {
    const first = await servedEchoArgs();
    assert.equal(entries().length, 1);
    const kept = entries()[0];
    const second = await servedEchoArgs();
    assert.deepEqual(entries(), [kept], 'nothing new was parsed');
    assert.deepEqual(second, first);
    assert.deepEqual(loadSpec(spec), parsedNow());
  });

  test('an edit to the YAML is served at the next start, never the older spec', async () => {
    writeFileSync(nsFile(), readFileSync(nsFile(), 'utf8').replace('count: { type: integer }', 'count: { type: integer, description: How many, maximum: 9 }'));
    const args = await servedEchoArgs();
    assert.equal(args.count.description, 'How many');
    assert.equal(args.count.maximum, 9);
    assert.equal(entries().length, 2);
  });

  test('a route list holds the namespaces own route objects, as parsing builds it', () => {
    const s = loadSpec(spec);
    const ns = s.namespaces.find((n) => n.name === 'fixture/v1')!;
    assert.ok(ns.routes.every((r) => s.routes.includes(r)));
  });

  test('a damaged entry is parsed again, with the same result', () => {
    for (const f of entries()) writeFileSync(join(cache, f), '{"namespaces": [');
    assert.deepEqual(loadSpec(spec), parsedNow());
  });

  test('a spec with a problem fails every start and is never kept', () => {
    const before = entries().length;
    const good = readFileSync(nsFile(), 'utf8');
    writeFileSync(nsFile(), good.replace('count: { type: integer', 'count: { type: 7'));
    try {
      for (let i = 0; i < 2; i++) assert.throws(() => loadSpec(spec), SpecError);
      assert.equal(entries().length, before);
    } finally {
      writeFileSync(nsFile(), good);
    }
  });

  test('the cache keeps its newest entries only', () => {
    const old = Date.now() / 1000 - 3600;
    for (let i = 0; i < 80; i++) {
      const f = join(cache, `spec-stale${i}.json`);
      writeFileSync(f, '{}');
      utimesSync(f, old, old);
    }
    writeFileSync(nsFile(), `${readFileSync(nsFile(), 'utf8')}\n# touched\n`);
    loadSpec(spec);
    const left = readdirSync(cache);
    assert.equal(left.length, 64);
    assert.equal(left.filter((f) => f.includes('stale')).length, 64 - entries().filter((f) => !f.includes('stale')).length);
  });
});
