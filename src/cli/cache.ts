import type { Command } from 'commander';
import { siteCommand, withSite } from './site-store.ts';
import { plural } from './output.ts';


/** The caches the site keeps are its active plugins' (the core caches nothing across requests): `cache flush` empties them all. */
export function registerCacheCommands(program: Command): void {
  const cache = program.command('cache').description("manage the site's stored caches");
  siteCommand(cache, 'flush', "empty the active plugins' stored caches (the oEmbed proxy's answers...), so what they hold is fetched again").action(
    withSite(async ({ store, plugins }) => {
      const dropped: string[] = [];
      for (const def of plugins.activeDefinitions()) for (const c of def.caches ?? []) dropped.push(plural(await c.flush(store), c.entry));
      console.log(`Success: The cache was flushed (${dropped.length ? `${dropped.join(', ')} dropped` : 'no active plugin keeps one'}).`);
    }),
  );
}
