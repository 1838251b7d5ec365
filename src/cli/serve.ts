import { startApp } from '../app.ts';
import type { Variant } from '../engine/spec.ts';
import { SpecError } from '../engine/diagnostics.ts';
import { chunkAppPassword, createAppPassword } from '../auth/app-passwords.ts';
import type { Store } from '../store/index.ts';
import type { InstallResult } from '../core/install.ts';

export interface ServeOptions {
  port: string;
  host: string;
  variant: string;
  spec: string;
  db: string;
  url?: string;
  bodyLimit: string;
  headerTimeout: string;
  requestTimeout: string;
  keepAliveTimeout: string;
  shutdownTimeout: string;
}

const log = {
  error: (m: string) => console.error(`[cms-spec] ${m}`),
  info: (m: string) => console.log(`[cms-spec] ${m}`),
};

export async function serveCommand(o: ServeOptions): Promise<void> {
  let app;
  try {
    app = await startApp({
      specDir: o.spec,
      dbPath: o.db,
      variant: o.variant.toUpperCase() as Variant,
      host: o.host,
      port: Number(o.port),
      bodyLimit: Number(o.bodyLimit),
      timeouts: { headersMs: Number(o.headerTimeout), requestMs: Number(o.requestTimeout), keepAliveMs: Number(o.keepAliveTimeout) },
      shutdownMs: Number(o.shutdownTimeout),
      url: o.url,
      log,
      onFirstRun: ({ store, install }) => announceInstall(store, install),
    });
  } catch (e) {
    if (e instanceof SpecError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  console.log(`cms-spec listening on ${app.url}`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    app.close().then(({ open, forced, waitedMs }) => {
      console.log(`cms-spec stopped after ${waitedMs} ms: ${open} connection(s) were open, ${open - forced} finished, ${forced} closed at the ${Number(o.shutdownTimeout)} ms deadline.`);
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
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
