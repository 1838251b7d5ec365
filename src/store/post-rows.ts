import type { Insertable, Selectable } from 'kysely';
import type { PostsTable } from './schema.ts';

/** A post as the posts table holds it. */
export type PostRow = Selectable<PostsTable>;

/** A post to insert: dates, slug and guid may be left out and are filled as wp_insert_post fills them. */
export type NewPost = Omit<Insertable<PostsTable>, 'id' | 'date' | 'date_gmt' | 'modified' | 'modified_gmt'> &
  Partial<Pick<PostRow, 'date' | 'date_gmt' | 'modified' | 'modified_gmt'>>;

export type PostPatch = Partial<Omit<PostRow, 'id'>>;
