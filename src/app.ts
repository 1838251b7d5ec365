import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Spec, Variant } from './engine/spec.ts';
import type { Engine } from './engine/engine.ts';
import type { Logger } from './engine/types.ts';
import { createHttpServer } from './engine/server.ts';
import type { Site } from './core/site.ts';
import type { PluginRegistry } from './core/plugins.ts';
import { installContent, type InstallResult } from './core/install.ts';
import { openSite } from './core/open.ts';
import type { Store } from './store/index.ts';
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
  engine: Engine<Store, Site>;
  store: Store;
  site: Site;
  plugins: PluginRegistry;
  spec: Spec;
  url: string;
  close(): Promise<void>;
}

/**
 * Opens the site (spec, store, plugins, routes), listens, installs a new site's options with the
 * real address, and only then reports ready. Spec or core handler problems throw SpecError before
 * anything listens; a broken plugin is reported and left inactive.
 */
export async function startApp(o: AppOptions): Promise<RunningApp> {
  const { spec, store, site, engine, plugins } = await openSite(o);
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
    plugins,
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
