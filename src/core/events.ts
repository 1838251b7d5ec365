import type { Logger } from '../engine/types.ts';
import type { Store } from '../store/index.ts';
import type { ContentEvent, Site } from './site.ts';
import { menusAfterChange } from './menus.ts';
import { siteIconId } from './site-icon.ts';
import { refreshPostEmbeds } from './embeds.ts';

/**
 * Tells the active plugins about a change to stored content, after it is made: each listener runs
 * in turn with the store the change was made in (a batch's transaction included); one that throws
 * is logged and the rest still run, as a failing save_post callback does not undo the save. The
 * scheduler is told last, so a post scheduled or rescheduled is published at its new time.
 */
export async function contentChanged(on: { store: Store; site: Site; log: Logger }, event: ContentEvent): Promise<void> {
  // the core's own reactions first: menus follow the pages, posts and terms they link to; the site
  // icon goes with its image; a saved post's embeds are asked again where their answers are old
  for (const [what, react] of [['menus', menusAfterChange], ['the site icon', siteIconAfterChange], ['embeds', refreshPostEmbeds]] as const) {
    try {
      await react(on.store, on.site, event);
    } catch (e) {
      on.log.error(`${what} failed on ${event.type}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (const { plugin, listener } of on.site.contentListeners) {
    try {
      await listener(event, on.store, on.site);
    } catch (e) {
      on.log.error(`plugin ${plugin} failed on ${event.type}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  on.site.scheduler?.contentChanged(event);
}

/** WP_Site_Icon::delete_attachment_data: the icon's attachment deleted, the site has no icon (the index and the pages follow). */
export async function siteIconAfterChange(store: Store, site: Site, event: ContentEvent): Promise<void> {
  if (event.type !== 'postDeleted' || event.postType !== 'attachment' || event.postId !== (await siteIconId(store))) return;
  await store.options.delete('site_icon');
  await site.optionsChanged();
}
