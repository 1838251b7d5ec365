/**
 * The Fastify contender. `echo <headers.json>`: the bench spec's validated route answering its
 * coerced args (scenario 2). `posts <headers.json> <db>`: the cms/v2 posts list, running the very
 * handler function of src/handlers/cms-v2 on the same Store and Site, started with the same plugins, within the same
 * answer scope (its kept fragments: src/core/answer-fragments.ts) (scenario 3). Both send the
 * headers cms-spec sends with every answer (captured from it), so the bytes out are the same and
 * only the framework differs.
 */
import { mediaSettingsFor } from '../../src/core/media.ts';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSpec } from '../../src/engine/spec.ts';
import { ApiRoot } from '../../src/engine/api-root.ts';
import { catalogued, ENGINE_ERRORS } from '../../src/engine/errors.ts';
import { startSite } from '../../src/core/open.ts';
import { Store } from '../../src/store/index.ts';
import { RestResponse } from '../../src/engine/types.ts';
import { bodyOf } from '../../src/engine/pipeline.ts';
import { answerFragments } from '../../src/core/answer-fragments.ts';
import type { Ctx } from '../../src/core/context.ts';
import { listPosts } from '../../src/handlers/cms-v2/posts.ts';
import { querySchemaOf } from './query-schema.ts';
import { ROOT } from './lib.ts';

const [mode, headersFile, dbPath] = process.argv.slice(2);
const everyAnswer = JSON.parse(readFileSync(headersFile, 'utf8')) as Record<string, string>;
// WordPress's args have union types and `oneOf` branches with defaults (the posts list's
// `categories`), which Ajv's strict mode refuses to compile; they validate the same without it
const app = Fastify({ logger: false, ajv: { customOptions: { strict: false } } });

if (mode === 'echo') {
  const spec = loadSpec(join(ROOT, 'scripts/bench/spec'));
  app.get('/cms-json/bench/v1/echo', { schema: { querystring: querySchemaOf(spec, '/bench/v1/echo') } }, async (request, reply) => {
    reply.headers(everyAnswer);
    return request.query;
  });
} else if (mode === 'posts') {
  const spec = loadSpec(join(ROOT, 'spec'));
  const store = await Store.open(dbPath);
  // the site with its active plugins, as cms-spec serves it: their registered post meta is part of every post
  const { site } = await startSite({ spec, store, variant: 'A', log: { error: (m) => console.error(m), info: () => {} }, media: mediaSettingsFor(dbPath) });
  const fragments = answerFragments(site);
  const route = '/cms/v2/posts';
  const errors = { ...ENGINE_ERRORS, ...spec.errors, ...spec.namespaces.find((n) => n.name === 'cms/v2')!.errors } as Record<string, { status: number; message: string }>;
  app.get(`/cms-json${route}`, { schema: { querystring: querySchemaOf(spec, route) } }, async (request, reply) => {
    const url = request.raw.url ?? '';
    const q = url.indexOf('?');
    const query = q < 0 ? {} : Object.fromEntries(new URLSearchParams(url.slice(q + 1)));
    const ctx: Ctx<'cms-v2:posts.listPosts'> = {
      // fastify checked and coerced the query against the endpoint's own args (querySchemaOf)
      args: request.query as Ctx<'cms-v2:posts.listPosts'>['args'],
      user: null,
      store,
      site,
      api: Object.assign(new ApiRoot(spec.apiPrefix), { url: site.apiRoot }),
      request: { method: 'GET', path: route, query, route, urlParams: {}, headers: request.headers as Record<string, string>, ip: request.ip, head: false, files: [] },
      config: { post_type: 'post' },
      log: console,
      can: () => false,
      dispatch: () => Promise.reject(new Error('not served here')),
      header: (name, value) => void reply.header(name, value),
      served: [],
      fail: (code, values, data) => catalogued(code, errors[code], values, data),
    };
    // within the scope cms-spec's server gives every answer, so the handler keeps and joins the posts' fragments for both
    const result = await fragments.scope(() => listPosts(ctx));
    reply.headers(everyAnswer);
    if (!(result instanceof RestResponse)) return result;
    reply.code(result.status).headers(result.headers);
    // Fastify sends one body: the parts cms-spec writes one after another are joined here
    const { data, json, parts } = bodyOf(result.data);
    return parts ? Buffer.concat(parts) : (json ?? data);
  });
} else {
  throw new Error(`unknown mode ${mode}`);
}

await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`fastify listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
