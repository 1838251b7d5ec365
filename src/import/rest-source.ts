import { setTimeout as delay } from 'node:timers/promises';
import { guardedFetch } from '../net/fetch.ts';
import { OutboundError, OutboundStatusError, OutboundTimeoutError } from '../net/errors.ts';
import { phpStoredMetaValue, storedMetaValue } from './php-serialized.ts';
import { RecordSpool } from './record-spool.ts';
import type { WxrAuthor, WxrComment, WxrMeta, WxrPost, WxrPostTerm, WxrRecord } from './wxr-parser.ts';

/**
 * A live WordPress read through its REST API (`/wp-json/wp/v2`, `context=edit` for the raw
 * fields), as the records a WXR file holds, so that the WXR importer brings it in with the same
 * rules, remapping and resumption. What is read is spooled to a file of JSON lines first (one
 * record a line, in the order a WXR file has them: authors, categories, tags, other terms, menus,
 * then media, posts of every type and menu items), which the importer then reads as it reads a
 * WXR file's records; the comments are read first and kept by post to go with their posts.
 *
 * Requests are polite: a few at a time, every collection paged by `X-WP-TotalPages`, a 429 or
 * 5xx answer or a request that timed out asked again after a growing wait (or the Retry-After
 * the site gives).
 */

export interface RestSourceOptions {
  /** The old site's address (its home; the API is found at `/wp-json/`). */
  url: string;
  /** An application password's user and password (Basic auth); without it only what the public sees is read. */
  auth?: { user: string; password: string };
  /** Hosts the reads may reach although they are non-public addresses. */
  allowHosts?: string[];
  /** Where the records are spooled. */
  spool: string;
  /** Pages in flight at once. */
  concurrency?: number;
  /** Waits before asking again after a 429 or 5xx, in ms (the last failure is final). */
  retryDelaysMs?: readonly number[];
  /** A collection's items read so far, of how many. */
  progress?: (collection: string, done: number, total: number) => void;
}

/** A failure to read the old site, worded for the one line the command prints. */
export class RestSourceError extends Error {}

type Json = Record<string, any>;

const PER_PAGE = 100;
const DEFAULT_RETRIES = [500, 2000, 5000];
/** A page of 100 posts in edit context is heavy work for a busy WordPress: each request may take this long. */
const REQUEST_TIMEOUT_MS = 60_000;
/** WordPress's own collections, read by name below; other post types and taxonomies are found in /types and /taxonomies. */
const KNOWN_TYPES = new Set(['post', 'page', 'attachment', 'nav_menu_item', 'wp_block', 'wp_template', 'wp_template_part', 'wp_navigation', 'cms_block', 'cms_template', 'cms_template_part', 'cms_navigation']);
const KNOWN_TAXONOMIES = new Set(['category', 'post_tag', 'nav_menu']);
/** Every status an editor may list (WordPress's REST statuses for posts; attachments' own). */
const POST_STATUSES = 'publish,future,draft,pending,private,trash';
const MEDIA_STATUSES = 'inherit,private,trash';
/** The REST API's comment statuses as WordPress stores them. */
const COMMENT_APPROVED: Readonly<Record<string, string>> = { approved: '1', hold: '0', spam: 'spam', trash: 'trash' };
/** get_post_format_strings. */
const FORMAT_NAMES: Readonly<Record<string, string>> = { aside: 'Aside', chat: 'Chat', gallery: 'Gallery', link: 'Link', image: 'Image', quote: 'Quote', status: 'Status', video: 'Video', audio: 'Audio' };

/** A REST date ('YYYY-MM-DDTHH:MM:SS') as WordPress stores it. */
const dbDate = (d: unknown) => (typeof d === 'string' && d ? d.replace('T', ' ').slice(0, 19) : '');
const raw = (field: unknown) => (field && typeof field === 'object' ? String((field as Json).raw ?? (field as Json).rendered ?? '') : String(field ?? ''));

class RestClient {
  private readonly api: string;
  private readonly headers: Record<string, string>;
  private readonly retries: readonly number[];

  constructor(
    root: string,
    private readonly o: RestSourceOptions,
  ) {
    this.api = root;
    this.headers = { accept: 'application/json' };
    if (o.auth) this.headers.authorization = `Basic ${Buffer.from(`${o.auth.user}:${o.auth.password}`).toString('base64')}`;
    this.retries = o.retryDelaysMs ?? DEFAULT_RETRIES;
  }

  /** One GET, asked again after a 429 or 5xx; the answer's JSON and headers. */
  async get(path: string): Promise<{ body: any; headers: Record<string, string> }> {
    const url = `${this.api}${path}`;
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await guardedFetch(url, { headers: this.headers, allow: this.o.allowHosts, maxBytes: 64 * 1024 * 1024, timeoutMs: REQUEST_TIMEOUT_MS });
        try {
          return { body: JSON.parse(r.text()), headers: r.headers };
        } catch {
          throw new RestSourceError(`${url} did not answer with JSON: is ${this.o.url} a WordPress site with its REST API on?`);
        }
      } catch (e) {
        const passing = (e instanceof OutboundStatusError && (e.status === 429 || e.status >= 500)) || e instanceof OutboundTimeoutError;
        if (!passing || attempt >= this.retries.length) throw describeFailure(e, url);
        const retryAfter = e instanceof OutboundStatusError ? Number(e.headers['retry-after']) : NaN;
        await delay(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 60) * 1000 : this.retries[attempt]);
      }
    }
  }

  /**
   * Every item of a collection, page by page (X-WP-TotalPages), a few pages in flight at once,
   * handed to `each` in order.
   */
  async each(collection: string, query: string, each: (items: Json[]) => Promise<void>): Promise<void> {
    // the raw fields need an editor; the public gets the rendered ones
    const context = this.o.auth ? 'edit' : 'view';
    const path = (page: number) => `${collection}?${query ? `${query}&` : ''}context=${context}&per_page=${PER_PAGE}&page=${page}`;
    const first = await this.get(path(1));
    if (!Array.isArray(first.body)) throw new RestSourceError(`${this.api}${collection} did not answer with a list.`);
    const pages = Number(first.headers['x-wp-totalpages']) || 1;
    const total = Number(first.headers['x-wp-total']) || first.body.length;
    let done = first.body.length;
    await each(first.body);
    this.o.progress?.(collection, done, total);
    const inFlight: Promise<{ body: any }>[] = [];
    let next = 2;
    const fill = () => {
      while (next <= pages && inFlight.length < (this.o.concurrency ?? 4)) inFlight.push(this.get(path(next++)));
    };
    fill();
    while (inFlight.length) {
      const { body } = await inFlight.shift()!;
      fill();
      if (!Array.isArray(body)) throw new RestSourceError(`${this.api}${collection} did not answer with a list.`);
      await each(body);
      done += body.length;
      this.o.progress?.(collection, done, total);
    }
  }

  /** Every item of a collection, in memory (terms, users, comments: what posts refer to). */
  async all(collection: string, query = ''): Promise<Json[]> {
    const out: Json[] = [];
    await this.each(collection, query, async (items) => void out.push(...items));
    return out;
  }
}

/** An outbound failure as one line naming the URL's site and what to do. */
function describeFailure(e: unknown, url: string): Error {
  if (e instanceof RestSourceError) return e;
  if (e instanceof OutboundStatusError) {
    let detail = '';
    try {
      const body = JSON.parse(e.body) as Json;
      if (body.code) detail = `: ${body.code}${body.message ? ` (${String(body.message)})` : ''}`;
    } catch {
      // not a WordPress error
    }
    const hint = e.status === 401 || e.status === 403 ? '; check --auth (a user and one of their application passwords)' : e.status === 404 ? '; is it a WordPress site with its REST API on?' : '';
    return new RestSourceError(`${url} answered HTTP ${e.status}${detail}${hint}`);
  }
  if (e instanceof OutboundError) return new RestSourceError(`${url}: ${e.message.replace(/\.$/, "")}`);
  return e instanceof Error ? e : new Error(String(e));
}

/** Registered meta as the WXR has it: values that are not strings as WordPress stores them (PHP serialized). */
function metaOf(meta: unknown): WxrMeta[] {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return [];
  return Object.entries(meta as Json).map(([key, value]) => ({ key, value: phpStoredMetaValue(storedMetaValue(value)) }));
}

/** Terms ordered with every parent before its children (the importer finds a parent by its slug). */
function parentsFirst(terms: Json[]): Json[] {
  const byId = new Map(terms.map((t) => [t.id, t]));
  const out: Json[] = [];
  const placed = new Set<number>();
  const place = (t: Json, depth = 0) => {
    if (placed.has(t.id)) return;
    const parent = t.parent ? byId.get(t.parent) : undefined;
    if (parent && depth < 100) place(parent, depth + 1);
    placed.add(t.id);
    out.push(t);
  };
  for (const t of terms) place(t);
  return out;
}

/**
 * Reads the site at `o.url` into the spool; returns its address (the WXR's base_site_url) and
 * how many records the spool holds.
 */
export async function spoolRestSite(o: RestSourceOptions): Promise<{ baseUrl: string; records: number }> {
  let index: Json;
  const home = o.url.replace(/\/+$/, '');
  const root = await discoverApi(home, o);
  const api = new RestClient(`${root}wp/v2/`, o);
  try {
    index = (await new RestClient(root, o).get('')).body as Json;
  } catch (e) {
    throw e instanceof RestSourceError ? e : describeFailure(e, root);
  }
  const baseUrl = String(index.home ?? index.url ?? home).replace(/\/+$/, '');
  const spool = new RecordSpool(o.spool, true);
  try {
    await spool.add({ kind: 'header', line: 0, header: { version: '1.2', baseUrl, baseBlogUrl: baseUrl } });

    // authors: with list_users the logins (context=edit); otherwise each user's slug is the best there is
    let users: Json[];
    try {
      users = await api.all('users');
    } catch (e) {
      // a user who may not list users (rest_forbidden_context) still reads the authors the public sees
      if (!(e instanceof RestSourceError) || !/HTTP 403/.test(e.message)) throw e;
      users = await new RestClient(`${root}wp/v2/`, { ...o, auth: undefined }).all('users');
    }
    const login = new Map<number, string>();
    for (const u of users) {
      const author: WxrAuthor = { author_id: u.id, author_login: String(u.username ?? u.slug), author_email: String(u.email ?? ''), author_display_name: String(u.name ?? ''), author_first_name: String(u.first_name ?? ''), author_last_name: String(u.last_name ?? '') };
      login.set(u.id, author.author_login);
      await spool.add({ kind: 'author', line: 0, author });
    }

    const [types, taxonomies] = await Promise.all([api.get('types').then((r) => r.body as Json), api.get('taxonomies').then((r) => r.body as Json)]);
    // term id → what a post's <category> says of it, by taxonomy's REST field
    const termsByField = new Map<string, { taxonomy: string; terms: Map<number, WxrPostTerm> }>();
    const remember = (field: string, taxonomy: string, list: Json[]) => termsByField.set(field, { taxonomy, terms: new Map(list.map((t) => [t.id, { name: String(t.name), slug: String(t.slug), domain: taxonomy }])) });

    const categories = parentsFirst(await api.all('categories'));
    const slugOf = new Map(categories.map((c) => [c.id, String(c.slug)]));
    for (const c of categories) {
      await spool.add({ kind: 'category', line: 0, category: { term_id: c.id, category_nicename: String(c.slug), category_parent: c.parent ? (slugOf.get(c.parent) ?? '') : '', cat_name: String(c.name), category_description: String(c.description ?? ''), termmeta: metaOf(c.meta) } });
    }
    remember('categories', 'category', categories);
    const tags = await api.all('tags');
    for (const t of tags) await spool.add({ kind: 'tag', line: 0, tag: { term_id: t.id, tag_slug: String(t.slug), tag_name: String(t.name), tag_description: String(t.description ?? ''), termmeta: metaOf(t.meta) } });
    remember('tags', 'post_tag', tags);
    for (const [slug, tax] of Object.entries(taxonomies)) {
      if (KNOWN_TAXONOMIES.has(slug) || !tax.rest_base) continue;
      const terms = parentsFirst(await api.all(String(tax.rest_base)));
      const slugs = new Map(terms.map((t) => [t.id, String(t.slug)]));
      for (const t of terms) {
        await spool.add({ kind: 'term', line: 0, term: { term_id: t.id, term_taxonomy: slug, slug: String(t.slug), term_parent: t.parent ? (slugs.get(t.parent) ?? '') : '', term_name: String(t.name), term_description: String(t.description ?? ''), termmeta: metaOf(t.meta) } });
      }
      remember(String(tax.rest_base), slug, terms);
    }
    const menus = o.auth ? await api.all('menus') : [];
    for (const m of menus) await spool.add({ kind: 'term', line: 0, term: { term_id: m.id, term_taxonomy: 'nav_menu', slug: String(m.slug), term_parent: '', term_name: String(m.name), term_description: String(m.description ?? ''), termmeta: metaOf(m.meta) } });
    remember('menus', 'nav_menu', menus);

    // the comments, by post, to go with their posts (the REST API lists one comment type at a time)
    const comments = new Map<number, WxrComment[]>();
    if (o.auth) {
      for (const type of ['comment', 'pingback', 'trackback']) {
        for (const c of await api.all('comments', `status=all&type=${type}`)) {
          let list = comments.get(c.post);
          if (!list) comments.set(c.post, (list = []));
          list.push({
            comment_id: c.id, comment_author: String(c.author_name ?? ''), comment_author_email: String(c.author_email ?? ''), comment_author_IP: String(c.author_ip ?? ''), comment_author_url: String(c.author_url ?? ''),
            comment_date: dbDate(c.date), comment_date_gmt: dbDate(c.date_gmt), comment_content: raw(c.content), comment_approved: COMMENT_APPROVED[c.status] ?? '0', comment_type: String(c.type ?? 'comment'),
            comment_parent: Number(c.parent) || 0, comment_user_id: Number(c.author) || 0, commentmeta: metaOf(c.meta),
          });
        }
      }
    } else {
      for (const c of await api.all('comments')) {
        let list = comments.get(c.post);
        if (!list) comments.set(c.post, (list = []));
        list.push({ comment_id: c.id, comment_author: String(c.author_name ?? ''), comment_author_email: '', comment_author_IP: '', comment_author_url: String(c.author_url ?? ''), comment_date: dbDate(c.date), comment_date_gmt: dbDate(c.date_gmt), comment_content: raw(c.content), comment_approved: '1', comment_type: String(c.type ?? 'comment'), comment_parent: Number(c.parent) || 0, comment_user_id: Number(c.author) || 0, commentmeta: [] });
      }
    }

    const post = (p: Json, type: string, extra: Partial<WxrPost> = {}): WxrPost => {
      const terms: WxrPostTerm[] = [];
      for (const [field, { terms: known }] of termsByField) {
        const ids = p[field];
        for (const id of Array.isArray(ids) ? ids : typeof ids === 'number' && ids ? [ids] : []) {
          const t = known.get(id);
          if (t) terms.push(t);
        }
      }
      if (p.format && p.format !== 'standard' && FORMAT_NAMES[p.format]) terms.push({ name: FORMAT_NAMES[p.format], slug: `post-format-${p.format}`, domain: 'post_format' });
      const postmeta = metaOf(p.meta);
      if (p.featured_media) postmeta.push({ key: '_thumbnail_id', value: String(p.featured_media) });
      if (p.template) postmeta.push({ key: '_wp_page_template', value: String(p.template) });
      return {
        post_title: raw(p.title), guid: raw(p.guid), post_author: login.get(p.author) ?? '', post_content: raw(p.content), post_excerpt: raw(p.excerpt), post_id: Number(p.id) || 0,
        post_date: dbDate(p.date), post_date_gmt: dbDate(p.date_gmt), post_modified: dbDate(p.modified), post_modified_gmt: dbDate(p.modified_gmt),
        comment_status: String(p.comment_status ?? 'closed'), ping_status: String(p.ping_status ?? 'closed'), post_name: String(p.slug ?? ''), status: String(p.status ?? 'publish'),
        post_parent: Number(p.parent) || 0, menu_order: Number(p.menu_order) || 0, post_type: type, post_password: String(p.password ?? ''), is_sticky: p.sticky ? 1 : 0, attachment_url: '',
        terms, postmeta, comments: comments.get(p.id) ?? [], ...extra,
      };
    };
    const read = async (collection: string, query: string, make: (p: Json) => WxrPost | undefined) =>
      api.each(collection, query, async (items) => {
        for (const p of items) {
          const item = make(p);
          if (item) await spool.add({ kind: 'post', line: 0, post: item });
        }
      });
    const statuses = o.auth ? `status=${POST_STATUSES}` : '';

    await read('media', o.auth ? `status=${MEDIA_STATUSES}` : '', (m) => {
      const item = post(m, 'attachment', { post_excerpt: raw(m.caption), post_content: raw(m.description), attachment_url: String(m.source_url ?? '') });
      if (m.alt_text) item.postmeta.push({ key: '_wp_attachment_image_alt', value: String(m.alt_text) });
      // the file's place under the old uploads folder, which the importer keeps
      if (typeof m.media_details?.file === 'string') item.postmeta.push({ key: '_wp_attached_file', value: m.media_details.file });
      return item;
    });
    await read('pages', statuses, (p) => post(p, 'page'));
    await read('posts', statuses, (p) => post(p, 'post'));
    for (const [slug, t] of Object.entries(types)) {
      if (KNOWN_TYPES.has(slug) || !t.rest_base || (t.rest_namespace && t.rest_namespace !== 'wp/v2')) continue;
      await read(String(t.rest_base), statuses, (p) => post(p, slug));
    }
    if (o.auth) {
      const typeOf = (base: string, fallback: string) => Object.entries(types).find(([, t]) => t.rest_base === base)?.[0] ?? fallback;
      await read('blocks', statuses, (p) => post(p, typeOf('blocks', 'wp_block')));
      await read('navigation', statuses, (p) => post(p, typeOf('navigation', 'wp_navigation')));
      // templates saved on the site (a theme's own files are the theme's), with their theme and area as WordPress's terms
      for (const [base, fallback] of [['templates', 'wp_template'], ['template-parts', 'wp_template_part']] as const) {
        const type = typeOf(base, fallback);
        for (const t of await api.all(base)) {
          if (t.source !== 'custom' || !t.wp_id) continue;
          const terms: WxrPostTerm[] = [{ name: String(t.theme), slug: String(t.theme), domain: 'wp_theme' }];
          if (t.area) terms.push({ name: String(t.area), slug: String(t.area), domain: 'wp_template_part_area' });
          await spool.add({ kind: 'post', line: 0, post: post({ ...t, id: t.wp_id, excerpt: t.description, guid: '' }, type, { terms }) });
        }
      }
      await read('menu-items', 'status=publish,draft', (i) =>
        post(i, 'nav_menu_item', {
          post_content: String(i.description ?? ''),
          post_excerpt: String(i.attr_title ?? ''),
          postmeta: [
            { key: '_menu_item_type', value: String(i.type) },
            { key: '_menu_item_menu_item_parent', value: String(i.parent ?? 0) },
            { key: '_menu_item_object_id', value: String(i.object_id ?? 0) },
            { key: '_menu_item_object', value: String(i.object ?? '') },
            { key: '_menu_item_target', value: String(i.target ?? '') },
            { key: '_menu_item_classes', value: phpStoredMetaValue(JSON.stringify(Array.isArray(i.classes) ? i.classes : [])) },
            { key: '_menu_item_xfn', value: (Array.isArray(i.xfn) ? i.xfn : []).join(' ') },
            { key: '_menu_item_url', value: String(i.url ?? '') },
          ],
        }),
      );
    }
    return { baseUrl, records: await spool.close() };
  } catch (e) {
    await spool.close().catch(() => {});
    throw e;
  }
}

/** The API root of a site at `home` (WordPress's `{home}/wp-json/`), checked to be an http(s) address. */
async function discoverApi(home: string, o: RestSourceOptions): Promise<string> {
  let url: URL;
  try {
    url = new URL(home);
  } catch {
    throw new RestSourceError(`--from takes the old site's address (https://old.example), not "${o.url}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RestSourceError(`--from takes an http(s) address, not "${o.url}".`);
  return `${home}/wp-json/`;
}
