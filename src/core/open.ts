import { Engine } from '../engine/engine.ts';
import { loadSpec, type Spec, type Variant } from '../engine/spec.ts';
import type { Logger } from '../engine/types.ts';
import { Store } from '../store/index.ts';
import { PluginRegistry } from './plugins.ts';
import { Site } from './site.ts';

export interface SiteOptions {
  specDir: string;
  dbPath: string;
  variant: Variant;
  log: Logger;
}

/** A site opened on its database with its plugins started and its routes compiled, served or not. */
export interface OpenSite {
  spec: Spec;
  store: Store;
  site: Site;
  engine: Engine<Store, Site>;
  plugins: PluginRegistry;
  close(): Promise<void>;
}

/**
 * Everything a site is before it listens: the spec loaded, the store opened and migrated, the
 * site's options read, the plugins started (their migrations run, the routes compiled). The
 * server and the CLI both start here. Spec or core handler problems throw SpecError.
 */
export async function openSite(o: SiteOptions): Promise<OpenSite> {
  const spec = loadSpec(o.specDir);
  const store = await Store.open(o.dbPath);
  try {
    const site = new Site(spec, store);
    await site.refresh();
    const engine = new Engine({ spec, variant: o.variant, host: site, store, log: o.log });
    const plugins = await PluginRegistry.start({ engine, store, site, log: o.log });
    return { spec, store, site, engine, plugins, close: () => store.close() };
  } catch (e) {
    await store.close();
    throw e;
  }
}
