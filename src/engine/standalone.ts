import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Engine } from './engine.ts';
import { createHttpServer, DEFAULT_TIMEOUTS, shutDown, type Timeouts } from './server.ts';
import type { Spec, Variant } from './spec.ts';
import type { Authenticator, EngineHost, Logger, TransactionalStore } from './types.ts';

/**
 * The engine served alone (site.yaml `core: false`): an API of the spec's own routes, with no CMS
 * behind it. There is no database: a handler keeps what it keeps itself, and a batch runs its
 * requests one after another (nothing to roll back). Without an Authenticator every caller is
 * anonymous, so only `permission: public` endpoints answer.
 */
export interface StandaloneOptions {
  spec: Spec;
  variant: Variant;
  host: string;
  port: number;
  bodyLimit: number;
  timeouts?: Timeouts;
  log: Logger;
  /** Who the caller is; default: everyone is anonymous. */
  auth?: Authenticator;
  /** Whether the spec's `api_aliases` answer too (default on). */
  aliases?: boolean;
  /** How long close() lets requests in flight finish before it closes their connections (default 10 s). */
  shutdownMs?: number;
}

export interface StandaloneServer {
  server: Server;
  engine: Engine<NoStore, StandaloneHost>;
  /** The API root, e.g. `http://127.0.0.1:8080/my-api/`. */
  url: string;
  /** Stops listening; requests in flight finish until the deadline. Says how many connections were still busy then. */
  close(): Promise<{ forced: number }>;
}

/** The store of an API without a database: `steps` runs each step once, in order. */
export class NoStore implements TransactionalStore<NoStore> {
  async steps<R>(count: number, step: (store: NoStore, i: number) => Promise<{ value: R; keep: boolean }>): Promise<R[]> {
    const values: R[] = [];
    for (let i = 0; i < count; i++) values.push((await step(this, i)).value);
    return values;
  }
}

/** The API's address, known once the server listens, and a root index describing the API by site.yaml's `site: {name, description}`. */
export class StandaloneHost implements EngineHost {
  apiRoot: string;
  linkHeader = '';
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly spec: Spec,
    home: string,
  ) {
    this.apiRoot = `${home}/${spec.apiPrefix}/`;
  }

  /** The address the API answers at (after listening): links and the index follow it. */
  moveTo(home: string): void {
    this.apiRoot = `${home}/${this.spec.apiPrefix}/`;
    this.linkHeader = `<${this.apiRoot}>; rel="https://api.w.org/"`;
    for (const l of this.listeners) l();
  }

  rootIndex(namespaces: string[], routes: Record<string, unknown>): Record<string, unknown> {
    const site = (this.spec.settings.site ?? {}) as { name?: string; description?: string };
    const home = this.apiRoot.slice(0, -(this.spec.apiPrefix.length + 2));
    return { name: site.name ?? '', description: site.description ?? '', url: home, home, namespaces, authentication: [], routes };
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }
}

/** Compiles every namespace of the spec, listens, and only then says where. Throws SpecError before listening when the spec does not compile. */
export async function startStandalone(o: StandaloneOptions): Promise<StandaloneServer> {
  const bracketed = o.host.includes(':') ? `[${o.host}]` : o.host;
  const shownHost = bracketed === '0.0.0.0' ? '127.0.0.1' : bracketed;
  const host = new StandaloneHost(o.spec, `http://${shownHost}:${o.port}`);
  const engine = new Engine({ spec: o.spec, variant: o.variant, host, store: new NoStore(), log: o.log, aliases: o.aliases });
  await engine.serve(engine.knownNamespaces);
  const server = createHttpServer({ engine, auth: o.auth ?? { authenticate: async () => null }, bodyLimit: o.bodyLimit, timeouts: o.timeouts ?? DEFAULT_TIMEOUTS });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  host.moveTo(`http://${shownHost}:${(server.address() as AddressInfo).port}`);
  return {
    server,
    engine,
    url: host.apiRoot,
    close: () => shutDown(server, o.shutdownMs ?? 10_000),
  };
}
