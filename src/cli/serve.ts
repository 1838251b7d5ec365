import { isIP } from 'node:net';
import { startApp, type RunningApp } from '../app.ts';
import type { Server } from 'node:http';
import { loadSpec, type Spec, type Variant } from '../engine/spec.ts';
import type { SpecWatchOptions } from './watch.ts';
import { chunkAppPassword, createAppPassword } from '../auth/app-passwords.ts';
import type { Store } from '../store/index.ts';
import type { InstallResult } from '../core/install.ts';
import { CliError, describeError } from './errors.ts';
import { isPrimary, isWorker, runPrimary, tellPrimary } from './workers.ts';
import { createServeLog, defaultLogFormat, watchRequests, type LogFormat, type RequestWatch, type ServeLog } from './access-log.ts';
import { plural } from './output.ts';

export interface ServeOptions {
  port: string;
  host: string;
  variant: string;
  spec: string;
  db: string;
  url?: string;
  bodyLimit: string;
  uploads?: string;
  uploadLimit: string;
  headerTimeout: string;
  requestTimeout: string;
  keepAliveTimeout: string;
  shutdownTimeout: string;
  workers: string;
  dbPool: string;
  logFormat?: LogFormat;
  wpCompat?: 'on' | 'off';
  responseCache?: 'on' | 'off';
  cache?: string;
  smtp?: string;
  watch?: boolean;
}

function cacheUrlOf(value: string | undefined, responseCache: boolean): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^rediss?:\/\/./i.test(value)) throw new CliError(`--cache takes a redis:// (or rediss://) URL, not "${value}".`);
  if (!responseCache) throw new CliError('--cache shares the response cache, which --response-cache off turns off: give one or the other.');
  return value;
}

function portOf(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new CliError(`--port takes a whole number from 0 to 65535 (0 picks a free port), not "${value}".`);
  return Number(value);
}

function bytesOf(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) throw new CliError(`${flag} takes a number of bytes (at least 1), not "${value}".`);
  return Number(value);
}

/** Where the command failed in a way the user can fix: one line, exit code 1 (in a worker, the primary says it). */
function failed(e: unknown, o: ServeOptions): void {
  const message = describeError(e, { db: o.db, spec: o.spec, host: o.host, port: o.port });
  if (message === null) throw e;
  if (isWorker()) tellPrimary({ type: 'failed', message });
  else console.error(`Error: ${message}`);
  process.exit(1);
}

export async function serveCommand(o: ServeOptions): Promise<void> {
  const workers = Number(o.workers);
  if (o.watch && workers > 1) return failed(new CliError('--watch reloads one process: serve with --workers 1.'), o);
  if (workers > 1 && isPrimary()) {
    // the database is migrated once, here, before the workers start on it together
    return runPrimary(workers, async () => {
      try {
        const { openSite } = await import('../core/open.ts');
        const site = await openSite({ specDir: o.spec, dbPath: o.db, variant: o.variant.toUpperCase() as Variant, log: { error: (m) => console.error(`[cms-spec] ${m}`), info: () => {} } });
        await site.close();
      } catch (e) {
        failed(e, o);
      }
    });
  }
  let app: RunningApp;
  let installed = false;
  try {
    const port = portOf(o.port);
    const bodyLimit = bytesOf('--body-limit', o.bodyLimit);
    const uploadLimit = bytesOf('--upload-limit', o.uploadLimit);
    const responseCache = o.responseCache !== 'off';
    const cacheUrl = cacheUrlOf(o.cache, responseCache);
    const log = await createServeLog(o.logFormat ?? defaultLogFormat());
    const spec = loadSpec(o.spec);
    if (spec.settings.core === false) return await serveEngineAlone(spec, o, { port, bodyLimit, log });
    app = await startApp({
      specDir: o.spec,
      dbPath: o.db,
      variant: o.variant.toUpperCase() as Variant,
      host: o.host,
      port,
      bodyLimit,
      uploadsDir: o.uploads,
      uploadLimit,
      timeouts: { headersMs: Number(o.headerTimeout), requestMs: Number(o.requestTimeout), keepAliveMs: Number(o.keepAliveTimeout) },
      shutdownMs: Number(o.shutdownTimeout),
      poolSize: Number(o.dbPool),
      url: o.url,
      wpCompat: o.wpCompat === undefined ? undefined : o.wpCompat === 'on',
      responseCache,
      cacheUrl,
      smtp: o.smtp,
      log: log.server,
      onFirstRun: ({ store, install }) => {
        installed = true;
        return announceInstall(store, install);
      },
    });
    const requests = watchRequests(app.server, log);
    if (isWorker()) tellPrimary({ type: 'listening', url: app.url });
    else console.log(`cms-spec listening on ${app.url}`);
    if (!installed) {
      const warning = addressWarning(app.site.home, o.host, new URL(app.url).port, o.db);
      if (warning && isWorker()) tellPrimary({ type: 'warning', message: warning });
      else if (warning) console.warn(warning);
    }
    if (o.watch) {
      const { pluginDirs } = await import('../core/plugins.ts');
      await watch(o.spec, { engine: app.engine, moreFolders: pluginDirs, reserve: () => app.plugins.rescan() });
    }
    stopOnSignals(app, requests, Number(o.shutdownTimeout));
  } catch (e) {
    failed(e, o);
  }
}

/**
 * site.yaml `core: false`: the engine alone, serving the spec's own routes (an API made with
 * `cms-spec init`); no CMS core, so no database, users, pages or plugins.
 */
async function serveEngineAlone(spec: Spec, o: ServeOptions, s: { port: number; bodyLimit: number; log: ServeLog }): Promise<void> {
  if (Number(o.workers) > 1) throw new CliError('An API served without the CMS core (site.yaml core: false) runs in one process: serve with --workers 1.');
  const { startStandalone } = await import('../engine/standalone.ts');
  const app = await startStandalone({
    spec,
    variant: o.variant.toUpperCase() as Variant,
    host: o.host,
    port: s.port,
    bodyLimit: s.bodyLimit,
    timeouts: { headersMs: Number(o.headerTimeout), requestMs: Number(o.requestTimeout), keepAliveMs: Number(o.keepAliveTimeout) },
    shutdownMs: Number(o.shutdownTimeout),
    log: s.log.server,
    aliases: o.wpCompat === undefined ? undefined : o.wpCompat === 'on',
  });
  const requests = watchRequests(app.server, s.log);
  console.log(`cms-spec listening on ${app.url}`);
  if (o.watch) await watch(o.spec, { engine: app.engine, reserve: () => app.engine.serve(app.engine.knownNamespaces) });
  stopOnSignals(app, requests, Number(o.shutdownTimeout));
}

/** `--watch`: the spec, its handlers (and the plugin folders) reloaded as they change. */
async function watch(specDir: string, o: Omit<SpecWatchOptions, 'specDir'>): Promise<void> {
  const { watchSpec } = await import('./watch.ts');
  watchSpec({ specDir, ...o });
  console.log(`Watching the spec and its handlers${o.moreFolders ? ' and the plugin folders' : ''} for changes.`);
}

const isLoopback = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '::1' || host === '[::1]' || (isIP(host) === 4 && host.startsWith('127.'));
const isWildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';

/**
 * The one-line warning when the stored home URL points at this machine but not where the server
 * listens (a database made on another port): every link would lead to the old address. A home on
 * a real domain name is taken to be a proxy in front of the server, and not questioned.
 */
export function addressWarning(home: string, listenHost: string, listenPort: string, db: string): string | null {
  const url = new URL(home);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = isLoopback(host) || isWildcard(host) || host === listenHost;
  if (!local) return null;
  const homePort = url.port || (url.protocol === 'https:' ? '443' : '80');
  const unreachableHost = isLoopback(host) && !isLoopback(listenHost) && !isWildcard(listenHost);
  if (homePort === listenPort && !unreachableHost) return null;
  const bracketed = listenHost.includes(':') ? `[${listenHost}]` : listenHost;
  const listening = `http://${isWildcard(listenHost) ? '127.0.0.1' : bracketed}:${listenPort}`;
  const dbFlag = db === '.cms/site.sqlite' ? '' : ` --db ${db}`;
  return `Warning: the site's address (option home) is ${home} but the server listens on ${listening}, so links, feeds and API discovery point at the old address; fix it with \`cms-spec option update home ${listening}${dbFlag} && cms-spec option update siteurl ${listening}${dbFlag}\` and restart, or serve on port ${homePort}.`;
}


/**
 * SIGINT/SIGTERM: stop taking connections, let the requests in flight finish until the deadline,
 * close the idle connections (and at the deadline whatever is left) and the database, and say
 * what was waited for. A second signal stops at once.
 */
function stopOnSignals(app: { server: Server; close(): Promise<{ forced: number }> }, watch: RequestWatch, deadlineMs: number): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      console.log(`${signal} again: stopping now, without waiting for ${plural(watch.inFlight, 'request')}.`);
      process.exit(1);
    }
    closing = true;
    const started = Date.now();
    const waitingFor = watch.inFlight;
    const answeredBefore = watch.answered;
    app.server.getConnections((_err, connections) => {
      const idle = Math.max(0, (connections ?? 0) - waitingFor);
      console.log(`${signal}: shutting down; waiting up to ${(deadlineMs / 1000).toFixed(1)} s for ${plural(waitingFor, 'request')} in flight, closing ${plural(idle, 'idle connection')} (${signal} again stops at once).`);
      app.close().then(({ forced }) => {
        const finished = watch.answered - answeredBefore;
        const cut = forced ? `; ${plural(forced, 'connection')} still busy at the deadline closed` : '';
        console.log(`Stopped after ${((Date.now() - started) / 1000).toFixed(1)} s: ${plural(finished, 'request')} finished while waiting${cut}; the database is closed.`);
        process.exit(0);
      });
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/**
 * Told once, when serve installs a new database: the admin's account password (for the
 * authorization page) and an application password, so API calls can be made at once. Neither
 * is stored in a readable form, so they can never be shown again.
 */
async function announceInstall(store: Store, install: InstallResult): Promise<void> {
  const admin = await store.users.byLogin(install.adminLogin);
  if (!admin) return;
  const { password } = await createAppPassword(store, admin.id, { name: 'cms-spec first run' });
  console.log(`New site installed. These credentials are shown only this once:
  login:                ${install.adminLogin}
  account password:     ${install.adminPassword}
  application password: ${chunkAppPassword(password)}   (HTTP Basic: ${install.adminLogin}:<application password>)`);
}
