import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startApp, type RunningApp } from '../../src/app.ts';
import type { Variant } from '../../src/engine/spec.ts';

export interface TestServer {
  app: RunningApp;
  /** The API root, e.g. `http://127.0.0.1:41234/cms-json/`. */
  api: string;
  /** The site's home, e.g. `http://127.0.0.1:41234`. */
  home: string;
  dbPath: string;
  /** fetch against the API root: `call('code-snippets/v1/snippets', {method:'POST', json:{...}, auth})`. */
  call(path: string, init?: CallInit): Promise<Response>;
  close(): Promise<void>;
}

export interface CallInit {
  method?: string;
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** An Authorization header value, e.g. from basicAuth(). */
  auth?: string;
}

export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Starts the real server on an ephemeral port with a fresh database in a temporary folder. */
export async function startTestServer(o: { spec?: string; variant?: Variant; dbPath?: string; bodyLimit?: number } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-test-'));
  const dbPath = o.dbPath ?? join(dir, 'site.sqlite');
  const errors: string[] = [];
  const app = await startApp({
    specDir: o.spec ?? resolve(import.meta.dirname, '../../spec'),
    dbPath,
    variant: o.variant ?? 'A',
    host: '127.0.0.1',
    port: 0,
    bodyLimit: o.bodyLimit ?? 1024 * 1024,
    log: { error: (m) => errors.push(m), info: () => {} },
  });
  const api = app.url;
  const home = app.site.home;
  return {
    app,
    api,
    home,
    dbPath,
    call(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.auth) headers.authorization = init.auth;
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] ??= 'application/json';
      }
      return fetch(api + path.replace(/^\//, ''), { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    },
    async close() {
      await app.close();
      if (!o.dbPath) rmSync(dir, { recursive: true, force: true });
    },
  };
}
