import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadSpec, type Spec, type Variant } from './engine/spec.ts';
import { compileRoutes, loadHandlerModules } from './engine/compile.ts';
import { SpecError } from './engine/spec.ts';
import { Engine, type Logger } from './engine/engine.ts';
import { createHttpServer, type PageHandler } from './engine/server.ts';
import { Site } from './engine/site.ts';
import type { Authenticator } from './engine/types.ts';
import { Store } from './store/index.ts';

export interface AppOptions {
  specDir: string;
  dbPath: string;
  variant: Variant;
  host: string;
  port: number;
  bodyLimit: number;
  log: Logger;
  /** The site's address when the database is new; defaults to the address the server listens on. */
  url?: string;
  /** Builds the authenticator once the store and site exist. */
  auth?: (store: Store, site: Site) => Authenticator | Promise<Authenticator>;
  pages?: (engine: Engine) => PageHandler;
  /** Runs once after the site's options exist (installing content, first-run output). */
  onInstall?: (ctx: { store: Store; site: Site; firstRun: boolean }) => Promise<void>;
}

export interface RunningApp {
  server: Server;
  engine: Engine;
  store: Store;
  site: Site;
  spec: Spec;
  url: string;
  close(): Promise<void>;
}

const anonymous: Authenticator = { authenticate: async () => null };

/**
 * Loads and compiles the spec, opens the store, listens, installs a new site's options with the
 * real address, and only then reports ready. Spec or handler problems throw SpecError before
 * anything listens.
 */
export async function startApp(o: AppOptions): Promise<RunningApp> {
  const spec = loadSpec(o.specDir);
  const { modules, problems } = await loadHandlerModules(spec);
  if (problems.length) throw new SpecError(problems);
  const store = await Store.open(o.dbPath);
  const site = new Site(spec, store);
  await site.refresh();
  const table = compileRoutes(spec, o.variant, modules, (p) => site.restUrl(p));
  const engine = new Engine(spec, table, site, store, o.log);
  const auth = o.auth ? await o.auth(store, site) : anonymous;
  const server = createHttpServer({ engine, auth, bodyLimit: o.bodyLimit, pages: o.pages?.(engine) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  const base = o.url ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const added = await site.install(base);
  if (o.onInstall) await o.onInstall({ store, site, firstRun: added.includes('siteurl') });
  return {
    server,
    engine,
    store,
    site,
    spec,
    url: `http://${host}:${port}/${spec.apiPrefix}/`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await store.close();
    },
  };
}
