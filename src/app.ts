import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Spec, Variant } from './engine/spec.ts';
import type { Engine } from './engine/engine.ts';
import type { Logger } from './engine/types.ts';
import { createHttpServer, DEFAULT_TIMEOUTS, shutDown, stopTakingRequests, type Timeouts } from './engine/server.ts';
import type { Site } from './core/site.ts';
import type { PluginRegistry } from './core/plugins.ts';
import { installContent, type InstallResult } from './core/install.ts';
import { openSite } from './core/open.ts';
import { withReadiness } from './core/readiness.ts';
import { Scheduler } from './core/cron.ts';
import type { Store } from './store/index.ts';
import { createAuthenticator } from './auth/index.ts';
import { createPageHandler } from './site/pages.ts';
import { adminPage } from './admin/pages.ts';
import { DEFAULT_RESPONSE_CACHE_BYTES, ResponseCache } from './engine/response-cache.ts';
import { redisAnswers } from './engine/redis-answers.ts';
import { SiteDependencies } from './core/answer-dependencies.ts';
import { answerFragments } from './core/answer-fragments.ts';
import { hmac, purposeKey, siteSecret } from './auth/secret.ts';

export interface AppOptions {
  specDir: string;
  dbPath: string;
  variant: Variant;
  host: string;
  port: number;
  bodyLimit: number;
  /** The media library's folder (default: uploads beside the database, or CMS_SPEC_UPLOADS). */
  uploadsDir?: string;
  /** Largest media upload body, streamed to disk, and largest remote image imported (default 32 MiB, or CMS_SPEC_UPLOAD_LIMIT). */
  uploadLimit?: number;
  /** Client deadlines (Node's own defaults hold slow clients for over a minute). */
  timeouts?: Timeouts;
  /** How long close() lets requests in flight finish before it closes their connections. */
  shutdownMs?: number;
  /** Connections of a PostgreSQL pool. */
  poolSize?: number;
  log: Logger;
  /** The site's address when the database is new; defaults to the address the server listens on. */
  url?: string;
  /** Whether the API also answers at the spec's aliases (WordPress's `/wp-json/`); default CMS_SPEC_WP_COMPAT, else on. */
  wpCompat?: boolean;
  /** Whether anonymous GET answers are kept (the response cache); default on. */
  responseCache?: boolean;
  /** A `redis://` URL: the response cache is shared there by the instances of the site. */
  cacheUrl?: string;
  /** The SMTP server the site's mail goes through (smtp:// or smtps://); default CMS_SPEC_SMTP_URL, else the log. */
  smtp?: string;
  /** Told once, on the first start of a new database, after the site is installed. */
  onFirstRun?: (ctx: { store: Store; site: Site; install: InstallResult }) => Promise<void>;
}

export interface RunningApp {
  server: Server;
  engine: Engine<Store, Site>;
  store: Store;
  site: Site;
  plugins: PluginRegistry;
  /** The anonymous response cache; undefined when it is off. */
  responseCache: ResponseCache | undefined;
  /** The site's scheduled work (scheduled posts, trash, plugins' jobs), running while the app does. */
  scheduler: Scheduler;
  spec: Spec;
  url: string;
  /** Stops listening, lets requests in flight finish until the shutdown deadline, then closes what is left. */
  close(): Promise<ShutdownReport>;
}

/** What a shutdown waited for. */
export interface ShutdownReport {
  /** Connections open when it began (requests in flight or idle keep-alives). */
  open: number;
  /** Connections still open at the deadline, closed then. */
  forced: number;
  waitedMs: number;
}

export const DEFAULT_SHUTDOWN_MS = 10_000;

/**
 * Opens the site (spec, store, plugins, routes), listens, installs a new site's options with the
 * real address, and only then reports ready. Spec or core handler problems throw SpecError before
 * anything listens; a broken plugin is reported and left inactive.
 */
export async function startApp(o: AppOptions): Promise<RunningApp> {
  // commits are synced in groups, and no answer leaves before what it wrote (or read) is durable
  const { spec, store, site, engine, plugins } = await openSite({ ...o, poolSize: o.poolSize, groupCommit: true, smtpUrl: o.smtp });
  const auth = createAuthenticator(store, site);
  const responseCache = o.responseCache === false ? undefined : await openResponseCache(store, site, o);
  const server = createHttpServer({
    engine,
    auth,
    bodyLimit: o.bodyLimit,
    uploadLimit: site.media.settings.uploadLimit,
    timeouts: o.timeouts ?? DEFAULT_TIMEOUTS,
    pages: withReadiness(store, createPageHandler(engine, adminPage)),
    // any process may change the site (other instances, workers, the CLI on the same SQLite file):
    // each request first catches up with what they changed
    beforeRequest: () => site.shared.sync(),
    beforeAnswer: () => store.durable(),
    // the active plugins' other protocols (the abilities' MCP server at {api root}/mcp)
    mounts: () => plugins.mounts,
    responseCache,
    answerScope: (make) => answerFragments(site).scope(make),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  const base = o.url ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const added = await site.install(base);
  const firstRun = added.includes('siteurl');
  if (firstRun) {
    const install = await installContent(store, site);
    await o.onFirstRun?.({ store, site, install });
  }
  // posts that came due while no instance ran are published before the app says it is up
  const scheduler = new Scheduler({ store, site, log: o.log });
  site.scheduler = scheduler;
  await scheduler.start();
  return {
    server,
    engine,
    store,
    site,
    plugins,
    scheduler,
    responseCache,
    spec,
    url: `http://${host}:${port}/${spec.apiPrefix}/`,
    async close() {
      const started = Date.now();
      stopTakingRequests(server);
      // no job starts while the server stops; one under way finishes before the database closes
      const stopping = scheduler.stop();
      await Promise.all(plugins.mounts.map((m) => m.close?.()));
      const open = await new Promise<number>((resolve) => server.getConnections((_, n) => resolve(n ?? 0)));
      const { forced } = await shutDown(server, o.shutdownMs ?? DEFAULT_SHUTDOWN_MS);
      await stopping;
      await responseCache?.close();
      site.mail.close();
      await store.close();
      return { open, forced, waitedMs: Date.now() - started };
    },
  };
}

/**
 * The anonymous response cache: in this process's memory, and in Redis too when given one, where
 * the entries are named after the site's secret (several sites may share one Redis; none can
 * read or answer with another's entries).
 */
async function openResponseCache(store: Store, site: Site, o: AppOptions): Promise<ResponseCache> {
  const dependencies = new SiteDependencies(site.shared);
  if (!o.cacheUrl) return new ResponseCache(dependencies, DEFAULT_RESPONSE_CACHE_BYTES);
  const shared = await redisAnswers(o.cacheUrl, o.log);
  const prefix = `cms-spec:answers:${hmac(purposeKey(await siteSecret(store), 'response-cache'), 'prefix').slice(0, 22)}:`;
  return new ResponseCache(dependencies, DEFAULT_RESPONSE_CACHE_BYTES, shared, prefix);
}
