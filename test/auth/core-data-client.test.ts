// The block editor's data layer as a client, unchanged from npm: @wordpress/core-data's store in an
// @wordpress/data registry, fetching through @wordpress/api-fetch, runs a whole editorial round
// trip against a fresh server, at /wp-json/ (core-data's hardcoded /wp/v2 paths as they are), at
// /cms-json/ (the same paths renamed /cms/v2 by one api-fetch middleware) and at ?rest_route= (the
// root a site without pretty permalinks gives). What the test expects is what WordPress 6.1
// answers to the same requests.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { JSDOM, VirtualConsole } from 'jsdom';
import { basicAuth, useServer } from '../helpers/server.ts';

// core-data reads `window` and `document` as it loads (its sync package, the block editor's
// modules) and as it runs (feature flags on window): a jsdom window stands for the browser's. Its
// ES build imports directories Node's ESM resolver refuses, so the packages load as CommonJS.
const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', virtualConsole: new VirtualConsole() });
const { window } = dom;
// defined, not assigned: Node 21 and later have a navigator of their own, as a getter
for (const [name, value] of Object.entries({ window, document: window.document, navigator: window.navigator, MutationObserver: window.MutationObserver })) {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}
const require = createRequire(import.meta.url);
const apiFetch = require('@wordpress/api-fetch').default as ApiFetch;
const { createRegistry } = require('@wordpress/data') as { createRegistry: () => Registry };
const { store: coreStore } = require('@wordpress/core-data') as { store: unknown };

interface FetchOptions {
  path?: string;
  url?: string;
  method?: string;
  data?: unknown;
  headers?: Record<string, string>;
}
type Middleware = (options: FetchOptions, next: (options: FetchOptions) => Promise<unknown>) => Promise<unknown>;
interface ApiFetch {
  <T = any>(options: FetchOptions): Promise<T>;
  use(middleware: Middleware): void;
  createRootURLMiddleware(root: string): Middleware;
}
type Rec = Record<string, any>;
/** The core store's selectors and actions as the block editor calls them (untyped CommonJS). */
interface Core {
  getEntityRecord(kind: string, name: string, key?: unknown, query?: Rec): Promise<Rec>;
  getEntityRecords(kind: string, name: string, query?: Rec): Promise<Rec[]>;
  getRevisions(kind: string, name: string, parent: number, query?: Rec): Promise<Rec[]>;
  getCurrentUser(): Promise<Rec>;
  canUser(action: string, resource: Rec): Promise<boolean>;
}
interface CoreActions {
  saveEntityRecord(kind: string, name: string, record: Rec, options?: Rec): Promise<Rec>;
  editEntityRecord(kind: string, name: string, key: unknown, edits: Rec): Promise<void>;
  saveEditedEntityRecord(kind: string, name: string, key: unknown, options?: Rec): Promise<Rec>;
  deleteEntityRecord(kind: string, name: string, key: unknown, query?: Rec, options?: Rec): Promise<Rec>;
}
interface Registry {
  register(store: unknown): void;
  resolveSelect(store: unknown): Core;
  dispatch(store: unknown): CoreActions;
}

// api-fetch keeps one middleware chain for the whole process: these three read the variant under
// test and the actor whose turn it is. `use` puts a middleware in front, so the renaming (last
// added) sees the path before the root-URL middleware turns it into a URL.
const client = { root: apiFetch.createRootURLMiddleware('http://localhost/'), rename: (path: string) => path, auth: '' };
/**
 * Every request the data layer sent as it went out (api-fetch calls the global fetch last):
 * `METHOD /path?query`, a method override as the method, the query decoded (api-fetch encodes a
 * `rest_route` value's slashes or not, depending on the middleware that built the URL).
 */
const sent: string[] = [];
const wire = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = new URL(String(input));
  const headers = new Headers(init?.headers);
  sent.push(`${headers.get('X-HTTP-Method-Override') ?? init?.method ?? 'GET'} ${url.pathname}${decodeURIComponent(url.search)}`);
  return wire(input, init);
};
apiFetch.use((options, next) => next(client.auth ? { ...options, headers: { ...options.headers, Authorization: client.auth } } : options));
apiFetch.use((options, next) => client.root(options, next));
apiFetch.use((options, next) => next(options.path === undefined ? options : { ...options, path: client.rename(options.path) }));

/** One person at the block editor: their own registry (store, caches) and credentials. */
class Editor {
  private readonly registry = createRegistry();
  constructor(readonly auth: string) {
    this.registry.register(coreStore);
  }
  /**
   * Runs a call as this person: api-fetch's requests carry their Authorization header. The test
   * awaits each call before the next, so no request of one person's is sent during another's turn.
   */
  private async as<T>(call: () => Promise<T>): Promise<T> {
    client.auth = this.auth;
    return call();
  }
  select<T>(pick: (core: Core) => Promise<T>) {
    return this.as(() => pick(this.registry.resolveSelect(coreStore)));
  }
  /** Saves a record; a REST error rejects as core-data caught it (`throwOnError`), code, message and data. */
  save(kind: string, name: string, record: Rec, options: Rec = {}): Promise<Rec> {
    return this.as(() => this.registry.dispatch(coreStore).saveEntityRecord(kind, name, record, { throwOnError: true, ...options }));
  }
  /** The editor's own save: edits on the record in the store, then only those edits sent (the site entity has no key: `undefined`). */
  edit(kind: string, name: string, id: number | undefined, edits: Rec): Promise<Rec> {
    const actions = this.registry.dispatch(coreStore);
    return this.as(async () => {
      await actions.editEntityRecord(kind, name, id, edits);
      return actions.saveEditedEntityRecord(kind, name, id, { throwOnError: true });
    });
  }
  remove(kind: string, name: string, id: number, query?: Rec): Promise<Rec> {
    return this.as(() => this.registry.dispatch(coreStore).deleteEntityRecord(kind, name, id, query, { throwOnError: true }));
  }
  fetch<T = any>(options: FetchOptions): Promise<T> {
    return this.as(() => apiFetch<T>(options));
  }
}

const server = useServer();

const unchanged = (path: string) => path;
/**
 * Where the data layer is pointed: `root` as a site's wpApiSettings.root gives it (plain permalinks
 * give `?rest_route=/`), `rename` its paths' namespace, and `wire(path, query)` what a request for
 * `/wp/v2{path}` then looks like as it leaves (api-fetch adds `_locale=user` to every request).
 */
const VARIANTS = [
  { tag: 'wp', root: '/wp-json/', rename: unchanged, wire: (path: string, query = '') => `/wp-json/wp/v2${path}?${query}_locale=user` },
  {
    tag: 'cms', root: '/cms-json/', rename: (path: string) => path.replace(/^\/wp\/v2(?=\/|$|\?)/, '/cms/v2'),
    wire: (path: string, query = '') => `/cms-json/cms/v2${path}?${query}_locale=user`,
  },
  { tag: 'route', root: '/?rest_route=/', rename: unchanged, wire: (path: string, query = '') => `/?rest_route=/wp/v2${path}&${query}_locale=user` },
];

for (const variant of VARIANTS) {
  describe(`core-data at ${variant.root}`, () => {
    let admin: Editor;
    before(async () => {
      client.root = apiFetch.createRootURLMiddleware(`${server.home}${variant.root}`);
      client.rename = variant.rename;
      admin = new Editor(server.admin);
    });

    test("getEntityRecord('root', 'site') reads the settings: WordPress 6.1's twenty, exactly", async () => {
      // core-data's site entity is the settings route
      const site = await admin.select((core) => core.getEntityRecord('root', 'site'));
      assert.deepEqual(Object.keys(site).sort(), [
        'date_format', 'default_category', 'default_comment_status', 'default_ping_status', 'default_post_format', 'description',
        'email', 'language', 'page_for_posts', 'page_on_front', 'posts_per_page', 'show_on_front', 'site_icon', 'site_logo',
        'start_of_week', 'time_format', 'timezone', 'title', 'url', 'use_smilies',
      ]);
      assert.equal(site.url, server.home);

      // the editor's own save of an edited site title: only the edit is sent, the whole settings answered
      await admin.edit('root', 'site', undefined, { title: `Field Station ${variant.tag}` });
      const saved = await admin.select((core) => core.getEntityRecord('root', 'site'));
      assert.equal(saved.title, `Field Station ${variant.tag}`);
      assert.equal(sent.at(-1), `POST ${variant.wire('/settings')}`);
      const fresh = await new Editor(admin.auth).select((core) => core.getEntityRecord('root', 'site'));
      assert.deepEqual(fresh, saved);
      await admin.edit('root', 'site', undefined, { title: site.title });
    });

    test("getEntityRecord('root', '__unstableBase') reads the index's site fields", async () => {
      const base = await admin.select((core) => core.getEntityRecord('root', '__unstableBase'));
      const { _links, ...fields } = base;
      // the reading settings core-data also asks for are in this site's index as the interface document gives it (WordPress 6.1's lacks them)
      assert.deepEqual(fields, {
        name: fields.name, description: fields.description, url: server.home, home: server.home, gmt_offset: fields.gmt_offset,
        timezone_string: fields.timezone_string, page_for_posts: 0, page_on_front: 0, show_on_front: 'posts', site_logo: 0, site_icon: 0, site_icon_url: '',
      });
      assert.equal(typeof fields.name, 'string');
    });

    test('an editorial round trip: user, post with a category, revisions, trash and restore, a moderated comment', async () => {
      const { tag } = variant;
      sent.length = 0;

      // a new author, then an application password for them (no entity for it: api-fetch as the editor's screens do)
      const writer = await admin.save('root', 'user', {
        username: `writer-${tag}`, email: `writer-${tag}@example.test`, password: 'a long Passphrase 1', name: 'Wren Writer', roles: ['author'],
      });
      assert.equal(writer.username, `writer-${tag}`);
      assert.equal(writer.name, 'Wren Writer');
      assert.equal(writer.slug, `writer-${tag}`);
      assert.deepEqual(writer.roles, ['author']);
      assert.equal(writer.capabilities.publish_posts, true);
      assert.equal(writer.capabilities.moderate_comments, undefined);
      const writerKey = await admin.fetch<Rec>({ path: `/wp/v2/users/${writer.id}/application-passwords`, method: 'POST', data: { name: 'block editor' } });
      assert.match(writerKey.password, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
      const author = new Editor(basicAuth(writer.username, writerKey.password));
      const me = await author.select((core) => core.getCurrentUser());
      assert.deepEqual([me.id, me.name, me.slug], [writer.id, 'Wren Writer', `writer-${tag}`]);

      assert.equal(await author.select((core) => core.canUser('create', { kind: 'postType', name: 'post' })), true);
      assert.equal(await author.select((core) => core.canUser('create', { kind: 'root', name: 'user' })), false);

      // a category (authors may not make one: the administrator does) and the author's post in it
      await assert.rejects(author.save('taxonomy', 'category', { name: `Field Notes ${tag}` }), (e: Rec) =>
        e.code === 'rest_cannot_create' && e.message === 'Sorry, you are not allowed to create terms in this taxonomy.' && e.data?.status === 403);
      const category = await admin.save('taxonomy', 'category', { name: `Field Notes ${tag}` });
      assert.equal(category.slug, `field-notes-${tag}`);
      assert.equal(category.taxonomy, 'category');
      assert.equal(category.count, 0);
      const post = await author.save('postType', 'post', {
        title: `Notes from the field ${tag}`, content: '<!-- wp:paragraph -->\n<p>First draft.</p>\n<!-- /wp:paragraph -->', status: 'publish', categories: [category.id],
      });
      assert.equal(post.status, 'publish');
      assert.equal(post.author, writer.id);
      assert.deepEqual(post.categories, [category.id]);
      assert.equal(post.title.raw, `Notes from the field ${tag}`);
      assert.equal(post.slug, `notes-from-the-field-${tag}`);
      assert.equal(post.content.rendered, '\n<p>First draft.</p>\n');

      const latest = await author.select((core) => core.getEntityRecords('postType', 'post'));
      assert.equal(latest[0].id, post.id);
      assert.ok(latest.every((p) => p.status === 'publish'));
      const listed = await author.select((core) => core.getEntityRecords('postType', 'post', { categories: category.id }));
      assert.deepEqual(listed.map((p) => p.id), [post.id]);
      const filed = await admin.select((core) => core.getEntityRecord('taxonomy', 'category', category.id));
      assert.equal(filed.count, 1);

      // revising through the editor's own path: edit, then save the edits (PUT, sent as POST with X-HTTP-Method-Override)
      const revised = await author.edit('postType', 'post', post.id, { content: '<!-- wp:paragraph -->\n<p>Second draft.</p>\n<!-- /wp:paragraph -->' });
      assert.equal(revised.content.rendered, '\n<p>Second draft.</p>\n');
      assert.ok(sent.includes(`PUT ${variant.wire(`/posts/${post.id}`)}`), sent.join('\n'));
      const retitled = await author.edit('postType', 'post', post.id, { title: `Notes from the north field ${tag}` });
      assert.equal(retitled.title.raw, `Notes from the north field ${tag}`);
      // WordPress 6.1 saves no revision as a post is created, one as each update changes it: newest first
      const revisions = await author.select((core) => core.getRevisions('postType', 'post', post.id));
      assert.deepEqual(revisions.map((r) => [r.parent, r.author, r.slug, r.title.rendered, r.content.rendered]), [
        [post.id, writer.id, `${post.id}-revision-v1`, `Notes from the north field ${tag}`, '\n<p>Second draft.</p>\n'],
        [post.id, writer.id, `${post.id}-revision-v1`, `Notes from the field ${tag}`, '\n<p>Second draft.</p>\n'],
      ]);

      // the editor's autosave of a published post is a revision of its own, one per user: the post keeps its content
      const autosave = await author.save('postType', 'post', { id: post.id, content: '<!-- wp:paragraph -->\n<p>Third draft.</p>\n<!-- /wp:paragraph -->' }, { isAutosave: true });
      assert.notEqual(autosave.id, post.id);
      assert.deepEqual([autosave.parent, autosave.author, autosave.slug], [post.id, writer.id, `${post.id}-autosave-v1`]);
      // (core-data's getAutosaves asks the server only for types whose `supports` has `autosave`, which WordPress 6.1's post has not)
      const autosaves = await author.fetch<Rec[]>({ path: `/wp/v2/posts/${post.id}/autosaves?context=edit` });
      assert.deepEqual(autosaves.map((a) => [a.id, a.content.raw]), [[autosave.id, '<!-- wp:paragraph -->\n<p>Third draft.</p>\n<!-- /wp:paragraph -->']]);
      const kept = await admin.fetch<Rec>({ path: `/wp/v2/posts/${post.id}?context=edit` });
      assert.equal(kept.content.raw, '<!-- wp:paragraph -->\n<p>Second draft.</p>\n<!-- /wp:paragraph -->');

      // trash (a DELETE without force answers the trashed post), then restore by saving a status
      const trashed = await author.remove('postType', 'post', post.id);
      assert.equal(trashed.id, post.id);
      assert.equal(trashed.status, 'trash');
      assert.equal(trashed.slug, `notes-from-the-field-${tag}__trashed`);
      const restored = await author.save('postType', 'post', { id: post.id, status: 'publish' });
      assert.equal(restored.status, 'publish');
      assert.equal(restored.slug, `notes-from-the-field-${tag}`);
      assert.deepEqual(restored.categories, [category.id]);

      // a subscriber's comment is held (no earlier approved comment of theirs) until an editor approves it
      const readerAccount = await admin.save('root', 'user', {
        username: `reader-${tag}`, email: `reader-${tag}@example.test`, password: 'another Passphrase 2', name: 'Rhea Reader', roles: ['subscriber'],
      });
      const readerKey = await admin.fetch<Rec>({ path: `/wp/v2/users/${readerAccount.id}/application-passwords`, method: 'POST', data: { name: 'block editor' } });
      const reader = new Editor(basicAuth(readerAccount.username, readerKey.password));
      // per_page -1 is api-fetch's "every page": it asks for 100 at a time and follows the Link header's next
      const everyone = await admin.select((core) => core.getEntityRecords('root', 'user', { per_page: -1 }));
      assert.ok([writer.id, readerAccount.id].every((id) => everyone.some((u) => u.id === id)));
      assert.ok(sent.includes(`GET ${variant.wire('/users', 'context=edit&per_page=100&')}`), sent.join('\n'));
      assert.equal(await author.select((core) => core.canUser('update', { kind: 'postType', name: 'post', id: post.id })), true);
      assert.equal(await reader.select((core) => core.canUser('update', { kind: 'postType', name: 'post', id: post.id })), false);
      const comment = await reader.save('root', 'comment', { post: post.id, content: 'Which field?' });
      assert.equal(comment.status, 'hold');
      assert.equal(comment.post, post.id);
      assert.equal(comment.author, readerAccount.id);
      assert.equal(comment.author_name, 'Rhea Reader');
      // a commenter who may not moderate is answered in the view context: no email, no raw content
      assert.equal('author_email' in comment, false);
      assert.deepEqual(comment.content, { rendered: '<p>Which field?</p>\n' });
      assert.equal(comment.type, 'comment');
      await assert.rejects(reader.save('root', 'comment', { id: comment.id, status: 'approved' }), (e: Rec) => e.code === 'rest_cannot_edit' && e.message === 'Sorry, you are not allowed to edit this comment.' && e.data?.status === 403);

      const approved = await admin.save('root', 'comment', { id: comment.id, status: 'approved' });
      assert.equal(approved.status, 'approved');
      const thread = await admin.select((core) => core.getEntityRecords('root', 'comment', { post: post.id }));
      assert.deepEqual(thread.map((c) => [c.id, c.status, c.content.rendered]), [[comment.id, 'approved', '<p>Which field?</p>\n']]);

      // deleting for good answers what was deleted
      const gone = await admin.remove('postType', 'post', post.id, { force: true });
      assert.equal(gone.deleted, true);
      assert.equal(gone.previous.id, post.id);
      await assert.rejects(admin.fetch({ path: `/wp/v2/posts/${post.id}` }), (e: Rec) => e.code === 'rest_post_invalid_id' && e.message === 'Invalid post ID.' && e.data?.status === 404);
    });
  });
}
