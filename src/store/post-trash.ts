import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { MetaRepo } from './meta.ts';
import type { PostPatch, PostRow } from './post-rows.ts';
import { truncateSlug } from './transact.ts';

/** WordPress's trash rules for a post's row: what it keeps as it goes to the trash, and gets back as it leaves. */

const DESIRED_SLUG_KEY = '_wp_desired_post_slug';
const TRASH_STATUS_KEY = '_wp_trash_meta_status';
const TRASH_TIME_KEY = '_wp_trash_meta_time';
const TRASHED_SUFFIX = '__trashed';

/**
 * wp_trash_post's storage part, as a post moves to the trash: what it was and when (for
 * untrashing and the scheduled emptying), out of the sticky posts (_reset_front_page_settings_for_post),
 * and its slug freed for others (wp_add_trashed_suffix_to_post_name_for_post: `name__trashed`,
 * the name kept to come back). Returns the slug it takes.
 */
export async function trashPost(db: Kysely<DB>, current: PostRow, values: PostPatch): Promise<string> {
  const meta = new MetaRepo(db, 'post_meta');
  await meta.set(current.id, TRASH_STATUS_KEY, current.status);
  await meta.set(current.id, TRASH_TIME_KEY, String(Math.floor(Date.now() / 1000)));
  values.sticky = 0;
  if (current.slug.endsWith(TRASHED_SUFFIX)) return current.slug;
  await meta.set(current.id, DESIRED_SLUG_KEY, current.slug);
  // _truncate_post_slug to 191 characters leaves room for the suffix
  return `${truncateSlug(current.slug, 191)}${TRASHED_SUFFIX}`;
}

/**
 * A post leaving the trash (wp_untrash_post, and wp_insert_post's reassignment of the desired
 * slug): the trash meta goes, and the slug it had comes back when one was kept. Returns that slug.
 */
export async function untrashPost(db: Kysely<DB>, current: PostRow): Promise<string | undefined> {
  const meta = new MetaRepo(db, 'post_meta');
  const desired = await meta.get(current.id, DESIRED_SLUG_KEY);
  for (const key of [DESIRED_SLUG_KEY, TRASH_STATUS_KEY, TRASH_TIME_KEY]) await meta.delete(current.id, key);
  return desired || undefined;
}
