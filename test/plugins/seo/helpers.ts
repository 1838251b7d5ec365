import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';

export const NS = 'seo/v1';

export type Obj = Record<string, any>;

export async function getJson<T = Obj>(server: TestServer, path: string, init: Parameters<TestServer['call']>[1] = {}): Promise<{ status: number; body: T }> {
  const res = await server.call(path, init);
  return { status: res.status, body: (await res.json()) as T };
}

/** POSTs to a seo/v1 route and returns the JSON body, failing the test on any status but `status`. */
export async function post<T = Obj>(server: TestServer, route: string, auth: string, json: unknown = {}, status = 200): Promise<T> {
  const res = await server.call(`${NS}/${route}`, { method: 'POST', json, auth });
  const body = await res.json();
  assert.equal(res.status, status, `${route}: ${JSON.stringify(body)}`);
  return body as T;
}

/** Asserts a WordPress error body with this code and status. */
export async function assertError(res: Response, status: number, code: string): Promise<Obj> {
  const body = (await res.json()) as Obj;
  assert.equal(res.status, status, JSON.stringify(body));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(typeof body.message, 'string');
  assert.equal(body.data.status, status);
  return body;
}

/** Creates a post through cms/v2 as `auth` and returns it. */
export async function createPost(server: TestServer, auth: string, fields: Obj, type: 'posts' | 'pages' = 'posts'): Promise<Obj> {
  const res = await server.call(`cms/v2/${type}`, { json: { status: 'publish', ...fields }, auth });
  const body = (await res.json()) as Obj;
  assert.equal(res.status, 201, JSON.stringify(body));
  return body;
}

/** Follows an indexing route's next_url chain to its end; every indexable written, in order, and how many calls it took. */
export async function indexAll(server: TestServer, auth: string, route: string): Promise<{ objects: Obj[]; calls: number }> {
  const objects: Obj[] = [];
  let url: string | false = `${server.api}${NS}/${route}`;
  let calls = 0;
  while (url) {
    const res: Response = await fetch(url, { method: 'POST', headers: { authorization: auth } });
    const body = (await res.json()) as { objects: Obj[]; next_url: string | false };
    assert.equal(res.status, 200, JSON.stringify(body));
    objects.push(...body.objects);
    url = body.next_url;
    calls++;
    assert.ok(calls < 1000, 'the chain ends');
  }
  return { objects, calls };
}

/** The whole indexing a dashboard runs: prepare, every object type, links, complete. */
export async function indexSite(server: TestServer, auth: string): Promise<void> {
  await post(server, 'indexing/prepare', auth);
  for (const route of ['indexing/posts', 'indexing/terms', 'indexing/post-type-archives', 'indexing/general']) await indexAll(server, auth, route);
  await post(server, 'indexing/indexables-complete', auth);
  for (const route of ['link-indexing/posts', 'link-indexing/terms']) await indexAll(server, auth, route);
  await post(server, 'indexing/complete', auth);
}
