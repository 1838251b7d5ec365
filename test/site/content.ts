import assert from 'node:assert/strict';
import type { TestServer } from '../helpers/server.ts';

/** A post or page as an editor would save it, stored straight through the store. */
export interface NewContent {
  type?: 'post' | 'page';
  title: string;
  content?: string;
  excerpt?: string;
  status?: string;
  slug: string;
  parent?: number;
  /** Site-local 'YYYY-MM-DD HH:MM:SS' (the site runs on UTC). */
  date?: string;
  sticky?: boolean;
  author?: number;
  menuOrder?: number;
  categories?: number[];
  tags?: number[];
}

export async function addContent(server: TestServer, c: NewContent): Promise<number> {
  const date = c.date ?? '2024-03-05 10:20:30';
  const admin = await server.app.store.users.byLogin('admin');
  assert.ok(admin, 'a new site has its admin user');
  const id = await server.app.store.posts.insert({
    type: c.type ?? 'post',
    title: c.title,
    content: c.content ?? '',
    excerpt: c.excerpt ?? '',
    status: c.status ?? 'publish',
    slug: c.slug,
    parent: c.parent ?? 0,
    author: c.author ?? admin.id,
    date,
    date_gmt: date,
    sticky: c.sticky ? 1 : 0,
    menu_order: c.menuOrder ?? 0,
  });
  if (c.categories) await server.app.store.terms.setPostTerms(id, 'category', c.categories);
  if (c.tags) await server.app.store.terms.setPostTerms(id, 'post_tag', c.tags);
  return id;
}

/** Sets options as the settings screen would, and lets the running site see them. */
export async function setOptions(server: TestServer, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) await server.app.store.options.set(name, value);
  await server.app.site.refresh();
}

export async function addUser(server: TestServer, login: string, displayName: string, role = 'author'): Promise<number> {
  return server.app.store.users.insert({ login, email: `${login}@example.test`, display_name: displayName, role, password_hash: 'x' });
}

/** A site page fetched without following redirects, so a 301 is seen as one. */
export const sitePage = (server: TestServer, path: string, init: RequestInit = {}) => fetch(server.home + path, { redirect: 'manual', ...init });

export const DATED_PERMALINKS = '/%year%/%monthnum%/%day%/%postname%/';
