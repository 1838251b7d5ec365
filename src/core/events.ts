import type { Logger } from '../engine/types.ts';
import type { Store } from '../store/index.ts';
import type { ContentEvent, Site } from './site.ts';

/**
 * Tells the active plugins about a change to stored content, after it is made: each listener runs
 * in turn with the store the change was made in (a batch's transaction included); one that throws
 * is logged and the rest still run, as a failing save_post callback does not undo the save.
 */
export async function contentChanged(on: { store: Store; site: Site; log: Logger }, event: ContentEvent): Promise<void> {
  for (const { plugin, listener } of on.site.contentListeners) {
    try {
      await listener(event, on.store, on.site);
    } catch (e) {
      on.log.error(`plugin ${plugin} failed on ${event.type}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
