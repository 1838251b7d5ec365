import type { Insertable, Selectable } from 'kysely';
import { sql } from './kysely.ts';
import type { PostsTable } from './schema.ts';

/** A post as the posts table holds it. */
export type PostRow = Selectable<PostsTable>;

/** The columns of a PostHead: every column but the text (content, excerpt). */
export const POST_HEAD_COLUMNS = ['id', 'author', 'date', 'date_gmt', 'modified', 'modified_gmt', 'title', 'status', 'comment_status', 'ping_status', 'password', 'slug', 'parent', 'guid', 'menu_order', 'type', 'mime_type', 'sticky', 'format', 'template', 'comment_count'] as const satisfies readonly (keyof PostRow)[];

/** A post without its text: what deciding who may see it needs, read without the kilobytes of its markup (the columns above, so the type is what is read). */
export type PostHead = Pick<PostRow, (typeof POST_HEAD_COLUMNS)[number]>;

/**
 * A post to insert: dates, slug and guid may be left out and are filled as wp_insert_post fills them.
 * `id` only for an import keeping the old site's id (wp_insert_post's import_id), which the caller has found free.
 */
export type NewPost = Omit<Insertable<PostsTable>, 'date' | 'date_gmt' | 'modified' | 'modified_gmt'> &
  Partial<Pick<PostRow, 'date' | 'date_gmt' | 'modified' | 'modified_gmt'>>;

export type PostPatch = Partial<Omit<PostRow, 'id'>>;

/**
 * What titles are sorted by before the whole title: their first 191 characters, which an index can
 * hold on PostgreSQL too (an index entry is limited to about 2.7 KB there). Migration 020 indexes it.
 */
export const TITLE_PREFIX = sql<string>`substr(${sql.ref('title')}, 1, 191)`;
