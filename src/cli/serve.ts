import { startApp } from '../app.ts';
import { SpecError, type Variant } from '../engine/spec.ts';

export interface ServeOptions {
  port: string;
  host: string;
  variant: string;
  spec: string;
  db: string;
  url?: string;
  bodyLimit: string;
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
      url: o.url,
      log,
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
    app.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
