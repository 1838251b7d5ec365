import type { Generated } from 'kysely';

/** The core's tables (plugins keep theirs in their own folders, under their table prefix). */
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

/** Comments (wp_comments). `approved`: '1', '0', 'spam', 'trash' or 'post-trashed'. Dates are 'YYYY-MM-DD HH:MM:SS'. */
export interface CommentsTable {
  id: Generated<number>;
  post: Generated<number>;
  parent: Generated<number>;
  /** The commenting user's id, 0 for a visitor. */
  author: Generated<number>;
  author_name: Generated<string>;
  author_email: Generated<string>;
  author_url: Generated<string>;
  author_ip: Generated<string>;
  author_user_agent: Generated<string>;
  date: string;
  date_gmt: string;
  content: Generated<string>;
  karma: Generated<number>;
  approved: Generated<string>;
  type: Generated<string>;
}

export interface CommentMetaTable extends MetaTable {
  comment_id: number;
}

export interface TermsTable {
  id: Generated<number>;
  taxonomy: string;
  name: string;
  slug: string;
  description: Generated<string>;
  parent: Generated<number>;
  /** Published posts carrying the term; kept by the store, never written by callers. */
  count: Generated<number>;
  term_group: Generated<number>;
}

export interface TermMetaTable extends MetaTable {
  term_id: number;
}

export interface TermRelationshipsTable {
  post_id: number;
  term_id: number;
  term_order: Generated<number>;
}

export interface AppPasswordsTable {
  uuid: string;
  user_id: number;
  /** '' or the UUID the requesting application gave. */
  app_id: string;
  name: string;
  password_hash: string;
  /** unix seconds */
  created: number;
  last_used: number | null;
  last_ip: string | null;
}

/** Which plugin migrations have run (the core's own are in kysely's `kysely_migration`). */
export interface PluginMigrationsTable {
  plugin: string;
  name: string;
  /** ISO 8601, when it ran. */
  executed_at: string;
}

/** A version per topic of state instances keep in memory (see src/core/shared-state.ts). */
export interface StateVersionsTable {
  topic: string;
  version: number;
}

/** A failed login, for the throttle (milliseconds since the epoch). */
export interface LoginFailuresTable {
  id: Generated<number>;
  scope: string;
  ip: string;
  at: number;
}

/** A recurring job of the scheduler (WordPress's cron events): times are unix seconds. */
export interface CronEventsTable {
  hook: string;
  interval_seconds: number;
  next_run: number;
  last_run: number | null;
}

export interface DB {
  options: OptionsTable;
  users: UsersTable;
  user_meta: UserMetaTable;
  posts: PostsTable;
  post_meta: PostMetaTable;
  comments: CommentsTable;
  comment_meta: CommentMetaTable;
  terms: TermsTable;
  term_relationships: TermRelationshipsTable;
  term_meta: TermMetaTable;
  app_passwords: AppPasswordsTable;
  plugin_migrations: PluginMigrationsTable;
  state_versions: StateVersionsTable;
  login_failures: LoginFailuresTable;
  cron_events: CronEventsTable;
}
