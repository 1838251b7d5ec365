import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.ts';
import type { Snippet } from '../../../src/plugins/code-snippets/repo.ts';

export const NS = 'code-snippets/v1';

/** The read shape's keys, in the order every snippet in a response has them. */
export const SNIPPET_KEYS = ['id', 'name', 'desc', 'code', 'tags', 'scope', 'active', 'priority', 'network', 'shared_network', 'modified', 'code_error'];

export const SCOPES = ['global', 'admin', 'front-end', 'single-use', 'content', 'head-content', 'footer-content', 'admin-css', 'site-css', 'site-head-js', 'site-footer-js'];

/** A snippet as every response shapes it. */
export type SnippetBody = Snippet;

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; params?: Record<string, string>; code_error?: [string, number] };
}

/** Creates a snippet through the API and returns it; fails the test on anything but 200. */
export async function createSnippet(server: TestServer, auth: string, fields: Record<string, unknown>): Promise<SnippetBody> {
  const res = await server.call(`${NS}/snippets`, { method: 'POST', json: fields, auth });
  const body = await res.json();
  assert.equal(res.status, 200, JSON.stringify(body));
  return body as SnippetBody;
}

export async function getJson<T>(server: TestServer, path: string, init: Parameters<TestServer['call']>[1] = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await server.call(path, init);
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}
