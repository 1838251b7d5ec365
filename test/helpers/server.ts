import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { startApp, type RunningApp, type ShutdownReport } from '../../src/app.ts';
import type { Variant } from '../../src/engine/spec.ts';
import type { Timeouts } from '../../src/engine/server.ts';
import { composeSpec, type ExtraNamespace } from '../../scripts/spec-copy.ts';
import { adminAuth } from './auth.ts';
import { testDatabase } from './store.ts';
import { isPostgresUrl } from '../../src/store/db.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SPEC = join(ROOT, 'spec');

export interface TestServer {
  app: RunningApp;
  /** The API root, e.g. `http://127.0.0.1:41234/cms-json/`. */
  api: string;
  /** The site's home, e.g. `http://127.0.0.1:41234`. */
  home: string;
  /** The database's location: a SQLite file, or a PostgreSQL URL (see helpers/store.ts). */
  dbPath: string;
  /** What the server logged as errors (a broken plugin, a failed hook). */
  errors: string[];
  /** What the server logged as information (mail written to the log when no SMTP server is configured). */
  infos: string[];
  /** fetch against the API root: `call('code-snippets/v1/snippets', {method:'POST', json:{...}, auth})`. */
  call(path: string, init?: CallInit): Promise<Response>;
  close(): Promise<ShutdownReport>;
}

export interface CallInit {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** An Authorization header value, e.g. from basicAuth(). */
  auth?: string;
}

export interface StartOptions {
  spec?: string;
  variant?: Variant;
  dbPath?: string;
  bodyLimit?: number;
  /** The media upload limit (and remote image cap); default the server's 32 MiB. */
  uploadLimit?: number;
  timeouts?: Timeouts;
  shutdownMs?: number;
  /** Whether the API also answers at WordPress's `/wp-json/` (the server's `--wp-compat`); default on. */
  wpCompat?: boolean;
  /** Whether anonymous GET answers are kept (`serve --response-cache`); default on. */
  responseCache?: boolean;
  /** A redis:// URL the response cache is shared at (`serve --cache`). */
  cacheUrl?: string;
  /** The SMTP server the site's mail goes through (`serve --smtp`); default: written to the log. */
  smtp?: string;
  /** Serve the real spec with these plugin folders instead of its own, these extra namespace files and these field group files. */
  compose?: { plugins?: string[]; extraNamespaces?: ExtraNamespace[]; fields?: string[] };
}

export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A PostgreSQL test database has no folder: its uploads go to a temporary one named after it, so a restart (or a command run on it) finds them. */
export const testUploadsDir = (dbPath: string) => (isPostgresUrl(dbPath) ? join(tmpdir(), `cms-spec-uploads-${createHash('sha1').update(dbPath).digest('hex').slice(0, 16)}`) : undefined);

/** Starts the real server on an ephemeral port with a fresh database in a temporary folder. */
export async function startTestServer(o: StartOptions = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-test-'));
  const database = o.dbPath ? undefined : await testDatabase();
  const dbPath = o.dbPath ?? database!.location;
  const uploadsDir = testUploadsDir(dbPath);
  const errors: string[] = [];
  const infos: string[] = [];
  const specDir = o.compose ? composeSpec(o.spec ?? SPEC, join(dir, 'spec'), o.compose) : (o.spec ?? SPEC);
  const app = await startApp({
    specDir,
    dbPath,
    variant: o.variant ?? 'A',
    host: '127.0.0.1',
    port: 0,
    bodyLimit: o.bodyLimit ?? 1024 * 1024,
    uploadLimit: o.uploadLimit,
    uploadsDir,
    timeouts: o.timeouts,
    shutdownMs: o.shutdownMs,
    wpCompat: o.wpCompat,
    responseCache: o.responseCache,
    cacheUrl: o.cacheUrl,
    smtp: o.smtp,
    log: { error: (m) => { errors.push(m); if (process.env.DBG) console.error('SERVER', m.slice(0, 500)); }, info: (m) => infos.push(m) },
  });
  const api = app.url;
  const home = app.site.home;
  return {
    app,
    api,
    home,
    dbPath,
    errors,
    infos,
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
      const report = await app.close();
      rmSync(dir, { recursive: true, force: true });
      if (database) {
        await database.drop();
        if (uploadsDir) rmSync(uploadsDir, { recursive: true, force: true });
      }
      return report;
    },
  };
}

/** A test server for the enclosing suite, with an administrator's Authorization header. */
export interface ServerFixture extends TestServer {
  /** An `Authorization` value for the site's `admin` user. */
  admin: string;
  /** The JSON body of an answer that must have `status` (200 unless said), asked as `admin` unless `init.auth` says otherwise (`undefined`: anonymous). */
  json(path: string, init?: CallInit, status?: number): Promise<any>;
  /** Asserts that a request (sent with `init` as it is: no default auth) answers WordPress's error `{code, message, data: {status}}` with this status. */
  error(path: string, init: CallInit, status: number, code: string, message: string): Promise<void>;
}

/**
 * Starts a server before the enclosing suite's tests and closes it after them. The returned object
 * stands for that server once the suite runs: `const site = useServer(); ... site.call(...)`.
 * `setup` runs in the same hook once the server is up: at a file's top level, node 20 runs
 * separate `before` hooks concurrently, so a file's own setup cannot be a hook of its own there.
 */
export function useServer(o: StartOptions = {}, setup?: (server: ServerFixture) => Promise<void>): ServerFixture {
  let server: TestServer | undefined;
  let admin = '';
  const current = () => {
    if (!server) throw new Error('useServer(): the server starts in the suite’s before hook; use it inside tests');
    return server;
  };
  before(async () => {
    server = await startTestServer(o);
    admin = await adminAuth(server);
    await setup?.(fixture);
  });
  after(() => server?.close());
  const fixture: ServerFixture = {
    get app() {
      return current().app;
    },
    get api() {
      return current().api;
    },
    get home() {
      return current().home;
    },
    get dbPath() {
      return current().dbPath;
    },
    get errors() {
      return current().errors;
    },
    get infos() {
      return current().infos;
    },
    get admin() {
      current();
      return admin;
    },
    call: (path, init) => current().call(path, init),
    async json(path, init = {}, status = 200) {
      const res = await current().call(path, { auth: admin, ...init });
      assert.equal(res.status, status, `${init.method ?? 'GET'} ${path}: ${await res.clone().text()}`);
      return res.json();
    },
    async error(path, init, status, code, message) {
      const res = await current().call(path, init);
      const body = (await res.json()) as { code?: unknown; message?: unknown; data?: { status?: unknown } };
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(body.code, code);
      assert.equal(body.message, message);
      assert.equal(body.data?.status, status);
    },
    close: () => current().close(),
  };
  return fixture;
}
