import { config } from '../config.ts';
import { Engine } from '../engine/engine.ts';
import { loadSpec, type Spec, type Variant } from '../engine/spec.ts';
import type { Logger } from '../engine/types.ts';
import { Store } from '../store/index.ts';
import { PluginRegistry } from './plugins.ts';
import { Site } from './site.ts';
import { MediaLibrary, mediaSettingsFor, type MediaSettings } from './media.ts';
import { createMailer } from './mail.ts';

/** A site with its plugins started and its routes compiled, over an open store, served or not. */
export interface StartedSite {
  spec: Spec;
  store: Store;
  site: Site;
  engine: Engine<Store, Site>;
  plugins: PluginRegistry;
}

export interface OpenSite extends StartedSite {
  close(): Promise<void>;
}

/**
 * Everything a site is before it listens, over a store already open: the site's options read, the
 * plugins started (their migrations run, the routes compiled). Spec or core handler problems
 * throw SpecError; a broken plugin is reported through `log` and left inactive.
 */
export async function startSite(o: { spec: Spec; store: Store; variant: Variant; log: Logger; media: MediaSettings; wpCompat?: boolean; smtpUrl?: string }): Promise<StartedSite> {
  const { spec, store } = o;
  const site = new Site(spec, store);
  site.media = new MediaLibrary(o.media);
  site.mail = createMailer(o.smtpUrl ?? config().mail.smtpUrl, o.log);
  await site.shared.start();
  await site.refresh();
  // the spec's aliases (WordPress's /wp-json/) answer unless the server or CMS_SPEC_WP_COMPAT says off
  const engine = new Engine({ spec, variant: o.variant, host: site, store, log: o.log, aliases: o.wpCompat ?? config().wpCompat });
  const plugins = await PluginRegistry.start({ engine, store, site, log: o.log });
  return { spec, store, site, engine, plugins };
}

/** The spec loaded and the store opened and migrated, then `startSite`: the server and the CLI both start here. */
export async function openSite(o: { specDir: string; dbPath: string; variant: Variant; log: Logger; poolSize?: number; groupCommit?: boolean; uploadsDir?: string; uploadLimit?: number; wpCompat?: boolean; smtpUrl?: string }): Promise<OpenSite> {
  const spec = loadSpec(o.specDir);
  const store = await Store.open(o.dbPath, { poolSize: o.poolSize, groupCommit: o.groupCommit });
  const media = mediaSettingsFor(o.dbPath, o);
  try {
    const started = await startSite({ spec, store, variant: o.variant, log: o.log, media, wpCompat: o.wpCompat, smtpUrl: o.smtpUrl });
    return {
      ...started,
      close: async () => {
        started.site.mail.close();
        await store.close();
      },
    };
  } catch (e) {
    await store.close();
    throw e;
  }
}
