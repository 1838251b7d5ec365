import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { basicAuth, startTestServer, testUploadsDir } from '../helpers/server.ts';
import { testDatabase, type TestDatabase } from '../helpers/store.ts';
import { CLI, cms, ROOT, type Ran } from '../cli/run.ts';

/** What the WXR tests share: emptied sites, the import command run on them, and what a site shows over its REST API. */

export interface Site {
  db: TestDatabase;
  /** The site's home while it was served. */
  home: string;
  uploads?: string;
  close(): Promise<void>;
}

/**
 * A site emptied as WordPress's importer tests empty theirs (no posts, terms or comments), its
 * name, description and administrator's address those of the WordPress the fixture came from.
 */
export async function emptySite(): Promise<Site> {
  const db = await testDatabase();
  const server = await startTestServer({ dbPath: db.location });
  const { store } = server.app;
  await store.db.deleteFrom('comments').execute();
  await store.db.deleteFrom('posts').execute();
  await store.db.deleteFrom('terms').execute();
  await store.options.set('blogname', 'WP Reference');
  await store.options.set('blogdescription', '');
  const admin = (await store.users.byLogin('admin'))!;
  await store.users.update(admin.id, { email: 'admin@example.test' });
  const home = server.home;
  await server.close();
  const uploads = testUploadsDir(db.location);
  return {
    db,
    home,
    uploads,
    async close() {
      await db.drop();
      if (uploads) rmSync(uploads, { recursive: true, force: true });
    },
  };
}

/** `cms-spec import` with the attachments' files from `uploadsCopy`, kept where the test server reads them. */
export function importFile(site: Site, file: string, uploadsCopy?: string): void {
  if (site.uploads) process.env.CMS_SPEC_UPLOADS = site.uploads;
  try {
    const r = cms(['import', file, '--db', site.db.location, ...(uploadsCopy ? ['--uploads', uploadsCopy] : []), '--no-attachments']);
    assert.equal(r.status, 0, r.stderr);
    // offline, the Theme Unit Test data's attachments are reported and skipped (as WordPress's importer reports them)
    assert.doesNotMatch(r.stderr.replace(/^.*Failed to import Media.*$/gm, ''), /failed|could not/i, r.stderr);
  } finally {
    delete process.env.CMS_SPEC_UPLOADS;
  }
}

export type Json = Record<string, any>;

/**
 * What a site shows over its REST API (context=edit, as its administrator), with every id
 * replaced by what it names (a post's slug and type, a term's taxonomy and slug, a user's login,
 * a comment's post, author and time, an attachment's slug; the site's address in content and URLs), so two sites holding the same content give the same answer whatever ids
 * their imports gave. A menu item's dates and GUID are left out: WordPress's importer saves menu
 * items anew.
 */
export async function restView(site: Pick<Site, 'db' | 'home'>): Promise<Json> {
  const server = await startTestServer({ dbPath: site.db.location });
  try {
    const admin = (await server.app.store.users.byLogin('admin'))!;
    const auth = basicAuth('admin', (await createAppPassword(server.app.store, admin.id, { name: 'round trip' })).password);
    const all = async (path: string): Promise<Json[]> => {
      const out: Json[] = [];
      for (let page = 1; ; page++) {
        const r = await server.call(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}&context=edit`, { auth });
        assert.equal(r.status, 200, `${path}: ${await r.clone().text()}`);
        out.push(...((await r.json()) as Json[]));
        if (page >= Number(r.headers.get('x-wp-totalpages'))) return out;
      }
    };
    const statuses = 'status=publish,future,draft,pending,private';
    const [users, categories, tags, menus, posts, pages, items, media, ...commentsByType] = await Promise.all([
      all('cms/v2/users'), all('cms/v2/categories'), all('cms/v2/tags'), all('cms/v2/menus'), all(`cms/v2/posts?${statuses}`), all(`cms/v2/pages?${statuses}`), all('cms/v2/menu-items'), all('cms/v2/media'),
      // the comments route lists one type at a time (`comment` by default)
      ...['comment', 'pingback', 'trackback'].map((type) => all(`cms/v2/comments?status=all&type=${type}`)),
    ]);
    const comments = commentsByType.flat();
    const login = new Map(users.map((u) => [u.id, u.username]));
    const term = new Map([...categories.map((t) => [t.id, `category:${t.slug}`] as const), ...tags.map((t) => [t.id, `post_tag:${t.slug}`] as const), ...menus.map((t) => [t.id, `nav_menu:${t.slug}`] as const)]);
    const post = new Map([...posts, ...pages, ...media].map((p) => [p.id, `${p.type}:${p.slug}`]));
    // the site's own address in what links to it
    const here = (text: string) => text.replaceAll(site.home, 'http://SITE');
    // an attachment's id in an image's class and block attributes (an import may give it a new one, and the content follows)
    const mediaSlugs = new Map(media.map((m) => [m.id, m.slug]));
    const mediaNamed = (text: string) => text.replace(/(\bwp-image-|"id":)(\d+)/g, (whole, before: string, id: string) => (mediaSlugs.has(Number(id)) ? `${before}<${mediaSlugs.get(Number(id))}>` : whole));
    // an item without a title is titled after its own id (wp_setup_nav_menu_item's "#%d (no title)")
    const itemTitle = (i: Json) => String(i.title.raw).replace(/^#\d+ \(no title\)$/, '#ID (no title)');
    const item = new Map(items.map((i) => [i.id, `${itemTitle(i)}@${i.menu_order}`]));
    const comment = new Map(comments.map((c) => [c.id, `${post.get(c.post)} ${c.author_name}@${c.date_gmt} ${c.content.raw.slice(0, 60)}`]));
    const content = (p: Json) => ({
      slug: p.slug, status: p.status, date: p.date, date_gmt: p.date_gmt, modified_gmt: p.modified_gmt, title: p.title.raw, content: mediaNamed(here(p.content.raw)), excerpt: here(p.excerpt.raw),
      featured_media: p.featured_media ? post.get(p.featured_media) : 0,
      author: login.get(p.author), comment_status: p.comment_status, ping_status: p.ping_status, password: p.password, guid: p.guid.raw, meta: p.meta, template: p.template,
      parent: p.parent ? post.get(p.parent) : 0, menu_order: p.menu_order, sticky: p.sticky, format: p.format,
      categories: p.categories?.map((id: number) => term.get(id)).sort(), tags: p.tags?.map((id: number) => term.get(id)).sort(),
    });
    const bySlug = (list: Json[], key: (x: Json) => string) => Object.fromEntries(list.map((x) => [key(x), x]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    return {
      users: bySlug(users.map((u) => ({ username: u.username, email: u.email, name: u.name, first_name: u.first_name, last_name: u.last_name, nickname: u.nickname })), (u) => u.username),
      terms: bySlug([...categories, ...tags].map((t) => ({ taxonomy: t.taxonomy, slug: t.slug, name: t.name, description: t.description, parent: t.parent ? term.get(t.parent) : 0, count: t.count, meta: t.meta })), (t) => `${t.taxonomy}:${t.slug}`),
      posts: bySlug([...posts, ...pages].map((p) => ({ type: p.type, ...content(p) })), (p) => `${p.type}:${p.slug}`),
      comments: bySlug(comments.map((c) => ({ post: post.get(c.post), parent: c.parent ? comment.get(c.parent) : 0, author: c.author ? login.get(c.author) : 0, author_name: c.author_name, author_email: c.author_email, author_url: c.author_url, date: c.date, date_gmt: c.date_gmt, content: c.content.raw, status: c.status, type: c.type, meta: c.meta })), (c) => `${c.post} ${c.author_name}@${c.date_gmt} ${c.content.slice(0, 60)}`),
      media: bySlug(media.map((m) => ({
        slug: m.slug, title: m.title.raw, caption: m.caption.raw, description: m.description.raw, alt_text: m.alt_text, mime_type: m.mime_type, author: login.get(m.author), date_gmt: m.date_gmt,
        parent: m.post ? post.get(m.post) : 0, width: m.media_details?.width, height: m.media_details?.height, file: here(m.source_url),
      })), (m) => m.slug),
      menus: bySlug(menus.map((m) => ({ slug: m.slug, name: m.name, description: m.description, auto_add: m.auto_add })), (m) => m.slug),
      menuItems: bySlug(items.map((i) => ({
        menu: term.get(i.menus), title: itemTitle(i), type: i.type, object: i.object, status: i.status, menu_order: i.menu_order, url: here(i.url), target: i.target, classes: i.classes, xfn: i.xfn, description: i.description, attr_title: i.attr_title,
        object_id: i.type === 'taxonomy' ? term.get(i.object_id) : i.type === 'post_type' ? post.get(i.object_id) : 'itself', parent: i.parent ? item.get(i.parent) : 0,
      })), (i) => `${i.menu} ${i.title}@${i.menu_order}`),
    };
  } finally {
    await server.close();
  }
}


/** `cms-spec …` without blocking this process (which may be serving the site the command reads). */
export function cmsAsync(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
