import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadSpec, type Spec, type Variant } from './engine/spec.ts';
import { compileRoutes, loadHandlerModules } from './engine/compile.ts';
import { SpecError } from './engine/spec.ts';
import { Engine } from './engine/engine.ts';
import type { Logger } from './engine/types.ts';
import { createHttpServer } from './engine/server.ts';
import { Site } from './engine/site.ts';
import { Store } from './store/index.ts';
import { installContent, type InstallResult } from './store/install.ts';
import { createAuthenticator } from './auth/index.ts';
import { createPageHandler } from './site/pages.ts';

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
  /** Told once, on the first start of a new database, after the site is installed. */
  onFirstRun?: (ctx: { store: Store; site: Site; install: InstallResult }) => Promise<void>;
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
  const auth = createAuthenticator(store, site);
  const server = createHttpServer({ engine, auth, bodyLimit: o.bodyLimit, pages: createPageHandler(engine) });
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
