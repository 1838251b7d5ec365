import { Argument } from 'commander';
import type { PluginCli } from '../../core/plugin.ts';
import type { Store } from '../../store/index.ts';
import { completeIndexing, indexablesComplete, indexGeneral, indexLinks, indexPosts, indexPostTypeArchives, indexTerms, prepareIndexing, remaining } from './indexing.ts';
import type { IndexableRow, SeoRepo } from './repo.ts';

/** Objects per transaction: large enough that commits cost little, small enough for a steady progress bar. */
const BATCH = 500;

/**
 * `cms-spec seo index [--reindex]` (Yoast's `wp yoast index`): runs every indexing action to the
 * end, as the REST routes' next_url chain would, in larger batches, with a progress bar.
 */
export function registerSeoCommands(cli: PluginCli, repoOf: (store: Store) => SeoRepo): void {
  cli
    .command('seo', 'SEO tools; `seo index` builds the indexables of every post, term, archive and general page, analyses them and reads their links')
    .addArgument(new Argument('<action>', 'what to do').choices(['index']))
    .option('--reindex', 'index everything again, not only what is new or changed since the last run')
    .action(
      cli.withSite(async ({ store, site }, _action: string, o: { reindex?: boolean }) => {
        const started = Date.now();
        const repo = repoOf(store);
        if (o.reindex) await repo.markAllStale();
        const left = await remaining(site, repo);
        const total = Object.values(left).reduce((a, b) => a + b, 0);
        if (!total) {
          console.log('Nothing to index: every post, term and page has a current indexable.');
          return;
        }
        const progress = cli.progress(total, 'indexed', 'objects');
        let done = 0;
        const untilDone = async (batch: (s: Store) => Promise<IndexableRow[]>) => {
          for (;;) {
            const n = (await store.transaction(batch)).length;
            if (!n) return;
            done += n;
            progress.update(Math.min(done, total));
          }
        };
        await prepareIndexing(store);
        await untilDone((s) => indexPosts(s, site, repoOf(s), BATCH));
        await untilDone((s) => indexTerms(s, site, repoOf(s), BATCH));
        await untilDone((s) => indexPostTypeArchives(site, repoOf(s), BATCH));
        await untilDone((s) => indexGeneral(site, repoOf(s)));
        await indexablesComplete(store);
        await untilDone((s) => indexLinks(s, site, repoOf(s), 'post', BATCH));
        await untilDone((s) => indexLinks(s, site, repoOf(s), 'term', BATCH));
        await completeIndexing(store);
        if (done < total) progress.update(total);
        progress.finish();
        console.log(`Indexed ${done} objects (posts, terms, archives, general pages and their links) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
      }),
    );
}
