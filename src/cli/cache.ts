import type { Command } from 'commander';
import { dbOption, withStore } from './site-store.ts';

/** The caches the site keeps: only the oEmbed proxy's stored answers (nothing else is cached across requests). */
export function registerCacheCommands(program: Command): void {
  const cache = program.command('cache').description("manage the site's stored caches");
  cache
    .command('flush')
    .description("drop the oEmbed proxy's cached answers, so the next embeds are asked again")
    .addOption(dbOption())
    .action(
      withStore(async (store) => {
        const dropped = await store.oembedCache.clear();
        console.log(`Success: The cache was flushed (${dropped} cached oEmbed answer${dropped === 1 ? '' : 's'} dropped).`);
      }),
    );
}
