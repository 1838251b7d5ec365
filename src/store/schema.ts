import type { Generated } from 'kysely';
import type { TermsTables } from './terms.ts';
import type { SnippetsTables } from './snippets.ts';
import type { OEmbedCacheTables } from './oembed-cache.ts';
import type { AppPasswordsTables } from './app-passwords.ts';

/** Tables of the site's database. Each store module owns the tables it reads and writes. */
export interface OptionsTable {
  name: string;
  value: string;
  autoload: Generated<number>;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  nicename: string;
  display_name: string;
  url: Generated<string>;
  role: string;
  password_hash: string;
  /** 'YYYY-MM-DD HH:MM:SS' UTC */
  registered: string;
}

export interface MetaTable {
  id: Generated<number>;
  key: string;
  value: string;
}

export interface UserMetaTable extends MetaTable {
  user_id: number;
}

export interface PostMetaTable extends MetaTable {
  post_id: number;
}

/** Every post type lives here (post, page, attachment and the plugins' types). Dates are 'YYYY-MM-DD HH:MM:SS'. */
export interface PostsTable {
  id: Generated<number>;
  author: Generated<number>;
  date: string;
  date_gmt: string;
  modified: string;
  modified_gmt: string;
  title: Generated<string>;
  content: Generated<string>;
  excerpt: Generated<string>;
  status: Generated<string>;
  comment_status: Generated<string>;
  ping_status: Generated<string>;
  password: Generated<string>;
  slug: Generated<string>;
  parent: Generated<number>;
  guid: Generated<string>;
  menu_order: Generated<number>;
  type: Generated<string>;
  mime_type: Generated<string>;
  sticky: Generated<number>;
  format: Generated<string>;
  template: Generated<string>;
  comment_count: Generated<number>;
}

export interface DB extends TermsTables, SnippetsTables, OEmbedCacheTables, AppPasswordsTables {
  options: OptionsTable;
  users: UsersTable;
  user_meta: UserMetaTable;
  posts: PostsTable;
  post_meta: PostMetaTable;
}
