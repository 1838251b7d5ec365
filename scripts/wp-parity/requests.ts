/**
 * The requests the side-by-side probe sends to both sites, in order: what a WordPress client (the
 * block editor, a headless front-end, a mobile app, a script) asks of `/wp-json/wp/v2`: reads,
 * writes, errors, OPTIONS and the indexes. Everything it creates is named after the run's token
 * and deleted at the end; `{name}` in a path or body is an id an earlier request saved.
 */

export type Caller = 'admin' | 'anonymous';

export interface ProbeRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
  path: string;
  as?: Caller;
  /** A JSON body (its strings' `{name}`s replaced too). */
  body?: Record<string, unknown>;
  /** A raw upload: the file's bytes, type and name. */
  file?: { type: string; name: string; bytes: Buffer };
  /** Saves the answer's `id` (or `uuid`) under this name. */
  save?: string;
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export function probeRequests(token: string): ProbeRequest[] {
  const t = token;
  return [
    // The indexes and the read-only descriptions.
    { path: '/wp/v2' },
    { path: '/wp/v2/types' },
    { path: '/wp/v2/types/post?context=edit', as: 'admin' },
    { path: '/wp/v2/taxonomies' },
    { path: '/wp/v2/taxonomies/category' },
    { path: '/wp/v2/statuses' },
    { path: '/wp/v2/statuses/draft', as: 'admin' },
    { path: '/wp/v2/statuses/x' },
    { path: '/wp/v2/block-types/core/paragraph' },
    { path: '/wp/v2/block-types/core/nope' },
    { path: '/wp/v2/menu-locations', as: 'admin' },
    { path: '/wp/v2/users/me' },
    { path: '/wp/v2/users/me?context=edit', as: 'admin' },
    { path: '/wp/v2/users/1' },
    { method: 'OPTIONS', path: '/wp/v2/posts' },
    { method: 'OPTIONS', path: '/wp/v2/posts', as: 'admin' },
    { method: 'OPTIONS', path: '/wp/v2/users/me/application-passwords', as: 'admin' },
    { method: 'OPTIONS', path: '/wp/v2/plugins', as: 'admin' },
    { method: 'OPTIONS', path: '/wp/v2/plugins/hello/hello', as: 'admin' },
    { path: '/wp/v2/types/page' },
    { path: '/wp/v2/taxonomies?type=post' },
    { path: '/wp/v2/settings', as: 'admin' },
    { path: '/wp/v2/themes?status=active', as: 'admin' },
    { path: '/wp/v2/block-types?namespace=core&per_page=1', as: 'admin' },
    { path: '/wp/v2/block-renderer/core/archives', as: 'admin' },
    { path: '/wp/v2/users?per_page=1&orderby=id&order=asc' },
    { path: '/wp/v2/users?who=authors&per_page=1', as: 'admin' },
    { path: '/wp/v2/categories/1' },
    { path: '/wp/v2/comments?per_page=1&post=999999' },
    { path: '/wp/v2/pages?per_page=1&parent=999999' },
    // Terms, posts, pages and what hangs on them.
    { method: 'POST', path: '/wp/v2/categories', as: 'admin', body: { name: `${t} category`, description: 'Made by the parity probe.' }, save: 'category' },
    { method: 'POST', path: '/wp/v2/categories', as: 'admin', body: { name: `${t} category` } },
    { method: 'POST', path: '/wp/v2/tags', as: 'admin', body: { name: `${t} tag` }, save: 'tag' },
    { path: `/wp/v2/categories?search=${t}` },
    { path: '/wp/v2/categories/{category}?context=edit', as: 'admin' },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: `${t} post`, content: '<!-- wp:paragraph -->\n<p>Hello "world" -- it\'s the probe.</p>\n<!-- /wp:paragraph -->', excerpt: 'An excerpt.', status: 'publish', categories: ['{category}'], tags: ['{tag}'] }, save: 'post' },
    { path: '/wp/v2/posts/{post}' },
    { path: '/wp/v2/posts/{post}?context=edit', as: 'admin' },
    { path: '/wp/v2/posts/{post}?_embed=1' },
    { path: '/wp/v2/posts/{post}?_fields=id,title,link' },
    { path: '/wp/v2/posts/{post}?context=embed' },
    { path: '/wp/v2/posts/{post}?password=x' },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: `${t} protected`, content: '<p>Secret.</p>', status: 'publish', password: 'pw' }, save: 'protected' },
    { path: '/wp/v2/posts/{protected}' },
    { path: '/wp/v2/posts/{protected}?password=pw' },
    { method: 'DELETE', path: '/wp/v2/posts/{protected}?force=true', as: 'admin' },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: `${t} scheduled`, status: 'future', date: '2035-01-02T03:04:05' }, save: 'scheduled' },
    { path: '/wp/v2/posts/{scheduled}?context=edit', as: 'admin' },
    { path: '/wp/v2/posts/{scheduled}' },
    { method: 'DELETE', path: '/wp/v2/posts/{scheduled}?force=true', as: 'admin' },
    { path: `/wp/v2/posts?search=${t}` },
    { path: `/wp/v2/posts?search=${t}&_envelope` },
    { path: '/wp/v2/posts?categories={category}&per_page=1&author[]=1' },
    { method: 'POST', path: '/wp/v2/posts/{post}', as: 'admin', body: { excerpt: 'A second excerpt.', sticky: true } },
    { method: 'POST', path: '/wp/v2/posts/{post}', as: 'admin', body: { sticky: false } },
    { method: 'POST', path: '/wp/v2/posts/{post}/autosaves', as: 'admin', body: { title: `${t} post`, content: '<p>Autosaved.</p>', excerpt: 'An excerpt.' }, save: 'autosave' },
    { path: '/wp/v2/posts/{post}/autosaves', as: 'admin' },
    { path: '/wp/v2/posts/{post}/revisions', as: 'admin' },
    { path: '/wp/v2/posts/{post}/revisions?per_page=1&page=2', as: 'admin' },
    { path: '/wp/v2/posts/{post}/autosaves/{autosave}', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/posts/{post}/revisions/{autosave}', as: 'admin' },
    { method: 'POST', path: '/wp/v2/pages', as: 'admin', body: { title: `${t} page`, content: '<p>A page.</p>', status: 'draft' }, save: 'page' },
    { path: '/wp/v2/pages/{page}?context=edit', as: 'admin' },
    { path: '/wp/v2/pages/{page}' },
    { method: 'POST', path: '/wp/v2/pages', as: 'admin', body: { title: `${t} child`, status: 'publish', parent: '{page}' }, save: 'child' },
    { path: '/wp/v2/pages/{child}' },
    { method: 'DELETE', path: '/wp/v2/pages/{child}?force=true', as: 'admin' },
    { method: 'POST', path: '/wp/v2/pages/{page}/autosaves', as: 'admin', body: { content: '<p>A page, autosaved.</p>' } },
    { method: 'POST', path: '/wp/v2/comments', as: 'admin', body: { post: '{post}', content: 'A comment from the probe.' }, save: 'comment' },
    { method: 'POST', path: '/wp/v2/comments', body: { post: '{post}', content: 'Anonymous.', author_name: 'Visitor', author_email: 'visitor@example.com' } },
    { path: '/wp/v2/comments?post={post}' },
    { path: '/wp/v2/comments/{comment}?context=edit', as: 'admin' },
    { path: '/wp/v2/posts/{post}?_embed=replies' },
    { method: 'POST', path: '/wp/v2/media', as: 'admin', file: { type: 'image/png', name: `${t}.png`, bytes: PNG }, save: 'media' },
    { path: '/wp/v2/media/{media}' },
    { path: `/wp/v2/search?search=${t}` },
    { path: `/wp/v2/search?search=${t}&type=term` },
    { path: '/wp/v2/search?search=standard&type=post-format' },
    // Menus and navigation.
    { method: 'POST', path: '/wp/v2/menus', as: 'admin', body: { name: `${t} menu` }, save: 'menu' },
    { method: 'POST', path: '/wp/v2/menus', as: 'admin', body: { name: `${t} menu` } },
    { method: 'POST', path: '/wp/v2/menu-items', as: 'admin', body: { title: 'Home', url: 'https://example.com/', menus: '{menu}', status: 'publish' }, save: 'item' },
    { path: '/wp/v2/menu-items/{item}?context=edit', as: 'admin' },
    { path: '/wp/v2/menu-items?menus={menu}', as: 'admin' },
    { path: '/wp/v2/menus/{menu}', as: 'admin' },
    { method: 'POST', path: '/wp/v2/navigation', as: 'admin', body: { title: `${t} navigation`, content: '<!-- wp:navigation-link {"label":"Home","url":"/"} /-->', status: 'publish' }, save: 'navigation' },
    { path: '/wp/v2/navigation/{navigation}?context=edit', as: 'admin' },
    // Users and application passwords.
    { method: 'POST', path: '/wp/v2/users', as: 'admin', body: { username: `${t}-user`, email: `${t}@example.com`, password: 'a long password 123', roles: ['author'] }, save: 'user' },
    { path: '/wp/v2/users/{user}?context=edit', as: 'admin' },
    { path: '/wp/v2/users/{user}' },
    { method: 'POST', path: '/wp/v2/users', as: 'admin', body: { username: `${t}-user`, email: `${t}-2@example.com`, password: 'x' } },
    { method: 'POST', path: '/wp/v2/users', as: 'admin', body: { username: `${t}-other`, email: 'not an email', password: 'x' } },
    { method: 'POST', path: '/wp/v2/users/{user}', as: 'admin', body: { username: 'renamed' } },
    { method: 'DELETE', path: '/wp/v2/users/{user}', as: 'admin' },
    { method: 'POST', path: '/wp/v2/users/me/application-passwords', as: 'admin', body: { name: `${t} app` }, save: 'app' },
    { path: '/wp/v2/users/me/application-passwords/{app}', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/users/me/application-passwords/{app}', as: 'admin' },
    { path: '/wp/v2/users/me/application-passwords/{app}', as: 'admin' },
    // Errors a client meets.
    { path: '/wp/v2/posts/999999' },
    { method: 'POST', path: '/wp/v2/posts', body: { title: 'No' } },
    { path: '/wp/v2/posts?per_page=1000' },
    { path: '/wp/v2/posts?orderby=nope' },
    { path: '/wp/v2/posts?page=999' },
    { path: '/wp/v2/posts?status=draft' },
    { path: '/wp/v2/posts?context=edit' },
    { path: '/wp/v2/posts?after=yesterday' },
    { path: '/wp/v2/posts?include[]=abc' },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: 'x', status: 'nope' } },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: 'x', categories: [999999] } },
    { method: 'POST', path: '/wp/v2/posts', as: 'admin', body: { title: 'x', author: 999999 } },
    { method: 'POST', path: '/wp/v2/comments', as: 'admin', body: { post: 999999, content: 'x' } },
    { method: 'POST', path: '/wp/v2/categories', as: 'admin', body: { name: '' } },
    { method: 'DELETE', path: '/wp/v2/posts/999999', as: 'admin' },
    { path: '/wp/v2/users/999999' },
    { path: '/wp/v2/comments/999999' },
    { path: '/wp/v2/categories/999999' },
    { path: '/wp/v2/media/999999' },
    { path: '/wp/v2/types/nope' },
    { path: '/wp/v2/taxonomies/nope' },
    { path: '/wp/v2/nope' },
    { path: '/wp/v2/settings' },
    { method: 'PUT', path: '/wp/v2/users/me', body: { name: 'x' } },
    { method: 'DELETE', path: '/wp/v2/categories/{category}', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/posts/{post}/revisions/1', as: 'admin' },
    // The plugin installer, with WordPress.org out of reach.
    { method: 'POST', path: '/wp/v2/plugins', as: 'admin', body: { slug: 'hello-dolly-parity-probe' } },
    { method: 'POST', path: '/wp/v2/plugins', as: 'admin', body: {} },
    { method: 'DELETE', path: '/wp/v2/plugins/no-such/plugin', as: 'admin' },
    // Clean-up, itself compared.
    { method: 'DELETE', path: '/wp/v2/posts/{post}', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/posts/{post}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/pages/{page}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/media/{media}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/navigation/{navigation}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/menu-items/{item}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/menus/{menu}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/categories/{category}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/tags/{tag}?force=true', as: 'admin' },
    { method: 'DELETE', path: '/wp/v2/users/{user}?force=true&reassign=1', as: 'admin' },
  ];
}
