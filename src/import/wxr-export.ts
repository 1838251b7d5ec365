import { readFileSync } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import { ExportRepo, type ExportedAuthor, type ExportedComment, type ExportedPost, type ExportedTerm, type ExportSelection } from '../store/exports.ts';
import { ATTACHED_FILE, IMPORT_SOURCE } from '../core/media.ts';
import { MENU_TAXONOMY } from '../core/menus.ts';
import { TEMPLATE_META } from '../core/templates.ts';
import { permalink } from '../core/permalinks.ts';
import { sanitizeUrl } from '../engine/arg-sanitizers.ts';
import { stripAllTags } from '../format/format.ts';
import { TYPE_NAMES } from './wxr-parser.ts';
import { phpStoredMetaValue } from './php-serialized.ts';

/**
 * WordPress's export (export_wp in wp-admin/includes/export.php, WXR 1.2), written as WordPress
 * 6.1 writes it, white space included (its template's tabs and the newlines its PHP tags eat):
 * the channel, the posts' authors, categories, tags and other terms with their meta, the menus,
 * then every post with its terms, meta and comments, 20 at a time, streamed to `write`.
 *
 * What this site keeps otherwise than WordPress is written as WordPress keeps it: sticky posts,
 * post formats and page templates (columns here) as the `post_format` term, `is_sticky` and
 * `_wp_page_template` meta; values kept as JSON as PHP serialized data; the site editor's types
 * and their theme under WordPress's names (`wp_template`, the `wp_theme` term). This site's own
 * bookkeeping meta (`_cms_*`) is not written.
 */

export const WXR_VERSION = '1.2';

/** What the files' generator comments name: this server and its version, as WordPress names itself (`WordPress/6.1`). */
export const GENERATOR = `cms-spec/${(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version}`;

export interface WxrExportOptions {
  /** One post type (WordPress's name or this site's), as export_wp's `content`; all exportable types when absent. */
  postType?: string;
  /** Only posts by this user (with a post, page or attachment type, as WordPress). */
  author?: number;
  /** Only posts in this category, a term id (with the post type, as WordPress). */
  category?: number;
  /** 'YYYY-MM-DD': posts from this date on / before the month after this date (with a post, page or attachment type). */
  startDate?: string;
  endDate?: string;
  /** Only posts of this status (with a post or page type). */
  status?: string;
  /** What the generator comments name, e.g. `cms-spec/0.1.0`. */
  generator: string;
  /** The export's time (WordPress's gmdate() calls); now when absent. */
  now?: Date;
}

/** A post type or taxonomy name as WordPress calls it, and back. */
const WORDPRESS_NAMES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(TYPE_NAMES).map(([wp, here]) => [here, wp]));
const wordpressName = (type: string) => WORDPRESS_NAMES[type] ?? type;

/** WordPress's own taxonomies (_builtin): export_wp lists the terms of the others as `wp:term`, and every term when there are none. */
const BUILTIN_TAXONOMIES = new Set(['category', 'post_tag', 'nav_menu', 'link_category', 'post_format', 'wp_theme', 'wp_template_part_area']);
/** Types WordPress registers with can_export false. */
const NOT_EXPORTED = new Set(['revision', 'customize_changeset', 'oembed_cache', 'user_request']);
/** get_post_format_strings: a format's term name. */
const FORMAT_NAMES: Readonly<Record<string, string>> = { aside: 'Aside', chat: 'Chat', gallery: 'Gallery', link: 'Link', image: 'Image', quote: 'Quote', status: 'Status', video: 'Video', audio: 'Audio' };
/** export_wp fetches this many posts at a time. */
const PAGE = 20;

/** wxr_cdata: the text in a CDATA section, a `]]>` inside it split across two. */
const cdata = (text: string) => `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
/** esc_url as the guid and link print: `&` and `'` as entities. */
const escUrl = (url: string) => url.replace(/&(?!#038;)/g, '&#038;').replaceAll("'", '&#039;');
/** bloginfo_rss: tags stripped, a bare `&` as an entity (convert_chars). */
const rssText = (text: string) => stripAllTags(text).replace(/&(?!#?\w+;)/g, '&#038;');
/** MySQL's ORDER BY name under WordPress's case- and accent-insensitive collation. */
const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id - b.id;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
/** gmdate('D, d M Y H:i:s +0000'). */
function rfc822(d: Date): string {
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
/**
 * An item's pubDate: get_post_time('Y-m-d H:i:s', true) turns the GMT date into the site's time,
 * which mysql2date prints followed by a literal +0000, so it is the local date; nothing for a post
 * without a GMT date (a draft's zero date).
 */
const pubDate = (p: ExportedPost) => (!p.date_gmt || p.date_gmt.startsWith('0000-00-00') ? '' : rfc822(new Date(`${p.date.replace(' ', 'T')}Z`)));

/**
 * Children after their parents, as export_wp orders categories and terms: a term whose parent is
 * not placed yet goes to the back of the queue. (WordPress would loop for ever on a parent that is
 * not in the list; here such a term comes last, with no parent slug.)
 */
function parentsFirst(terms: ExportedTerm[]): Map<number, ExportedTerm> {
  const placed = new Map<number, ExportedTerm>();
  let queue = terms;
  while (queue.length) {
    const later = queue.filter((t) => t.parent && !placed.has(t.parent));
    for (const t of queue) if (!later.includes(t)) placed.set(t.id, t);
    if (later.length === queue.length) {
      for (const t of later) placed.set(t.id, t);
      break;
    }
    queue = later;
  }
  return placed;
}

/**
 * The file as a stream, written as it is read (export_wp echoes as it goes): the writer waits
 * while the reader is behind and stops, its queries with it, once the reader is gone; a failure
 * part way ends the stream with that error, so the download is cut short rather than complete-looking.
 */
export function wxrStream(store: Store, site: Site, o: WxrExportOptions): Readable {
  const out = new PassThrough();
  const gone = new Error('the reader of the export went away');
  const readerCaughtUp = () =>
    new Promise<void>((resolve) => {
      const go = () => {
        out.off('drain', go).off('close', go);
        resolve();
      };
      out.on('drain', go).on('close', go);
    });
  const write = async (chunk: string) => {
    if (out.destroyed) throw gone;
    if (!out.write(chunk)) await readerCaughtUp();
  };
  new WxrWriter(store, site, o, write).run().then(
    () => out.end(),
    (e) => e === gone || out.destroy(e instanceof Error ? e : new Error(String(e))),
  );
  return out;
}

/** The post type names export_wp's `content` resolves to (this site's names). */
export function exportedTypes(site: Site, postType?: string): string[] {
  const all = site.types.postTypes.map((t) => t.slug).filter((slug) => !NOT_EXPORTED.has(slug) && (!slug.startsWith('cms_') || WORDPRESS_NAMES[slug]));
  if (postType === undefined || postType === 'all') return all;
  const here = TYPE_NAMES[postType] ?? postType;
  // an unknown type exports everything, as WordPress's does
  return all.includes(here) ? [here] : all;
}

export class WxrWriter {
  private readonly repo: ExportRepo;
  private readonly now: Date;

  constructor(
    private readonly store: Store,
    private readonly site: Site,
    private readonly o: WxrExportOptions,
    private readonly write: (chunk: string) => Promise<void>,
  ) {
    this.repo = new ExportRepo(store.db);
    this.now = o.now ?? new Date();
  }

  /** Writes the whole file; returns how many posts it holds. */
  async run(): Promise<number> {
    const types = exportedTypes(this.site, this.o.postType);
    const all = types.length > 1;
    const one = types.length === 1 ? types[0] : '';
    const selection: ExportSelection = { types };
    if (this.o.status && (one === 'post' || one === 'page')) selection.status = this.o.status;
    if (this.o.category !== undefined && one === 'post') selection.category = this.o.category;
    if (one === 'post' || one === 'page' || one === 'attachment') {
      selection.author = this.o.author;
      if (this.o.startDate) selection.from = this.o.startDate.slice(0, 10);
      if (this.o.endDate) {
        const end = new Date(`${this.o.endDate.slice(0, 10)}T00:00:00Z`);
        end.setUTCMonth(end.getUTCMonth() + 1);
        selection.until = end.toISOString().slice(0, 10);
      }
    }
    const ids = await this.repo.postIds(selection);
    await this.write(this.head());
    await this.write(this.authors(await this.repo.authorsOf(ids)));
    // the one category posts are filtered by is listed, as export_wp lists it
    const filtered = selection.category === undefined ? undefined : (await this.repo.terms(['category'])).find((t) => t.id === selection.category);
    await this.write(all || filtered ? await this.termLists(filtered) : '\t\t\t');
    await this.write(all ? await this.menuTerms() : '');
    // rss2_head's the_generator, then the blank lines and tabs around the loop
    await this.write(`\n\t<generator>${this.o.generator}</generator>\n\n\t`);
    for (let i = 0; i < ids.length; i += PAGE) await this.write(await this.items(ids.slice(i, i + PAGE)));
    await this.write('</channel>\n</rss>\n\t');
    return ids.length;
  }

  private head(): string {
    const d = this.now;
    const created = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
    const home = this.site.home;
    return `<?xml version="1.0" encoding="UTF-8" ?>
<!-- This is a WordPress eXtended RSS file generated by WordPress as an export of your site. -->
<!-- It contains information about your site's posts, pages, comments, categories, and other content. -->
<!-- You may use this file to transfer that content from one site to another. -->
<!-- This file is not intended to serve as a complete backup of your site. -->

<!-- To import this information into a WordPress site follow these steps: -->
<!-- 1. Log in to that site as an administrator. -->
<!-- 2. Go to Tools: Import in the WordPress admin panel. -->
<!-- 3. Install the "WordPress" importer from the list. -->
<!-- 4. Activate & Run Importer. -->
<!-- 5. Upload this file using the form provided on that page. -->
<!-- 6. You will first be asked to map the authors in this export file to users -->
<!--    on the site. For each author, you may choose to map to an -->
<!--    existing user on the site or to create a new user. -->
<!-- 7. WordPress will then import each of the posts, pages, comments, categories, etc. -->
<!--    contained in this file into your site. -->

\t<!-- generator="${this.o.generator}" created="${created}" -->
<rss version="2.0"
\txmlns:excerpt="http://wordpress.org/export/${WXR_VERSION}/excerpt/"
\txmlns:content="http://purl.org/rss/1.0/modules/content/"
\txmlns:wfw="http://wellformedweb.org/CommentAPI/"
\txmlns:dc="http://purl.org/dc/elements/1.1/"
\txmlns:wp="http://wordpress.org/export/${WXR_VERSION}/"
>

<channel>
\t<title>${rssText(this.site.info.name)}</title>
\t<link>${home}</link>
\t<description>${rssText(this.site.info.description)}</description>
\t<pubDate>${rfc822(d)}</pubDate>
\t<language>en-US</language>
\t<wp:wxr_version>${WXR_VERSION}</wp:wxr_version>
\t<wp:base_site_url>${home}</wp:base_site_url>
\t<wp:base_blog_url>${home}</wp:base_blog_url>

\t`;
  }

  /** wxr_authors_list. */
  private authors(authors: ExportedAuthor[]): string {
    let out = '';
    for (const a of authors) {
      out += `\t<wp:author><wp:author_id>${a.id}</wp:author_id><wp:author_login>${cdata(a.login)}</wp:author_login><wp:author_email>${cdata(a.email)}</wp:author_email>`;
      out += `<wp:author_display_name>${cdata(a.display_name)}</wp:author_display_name><wp:author_first_name>${cdata(a.first_name)}</wp:author_first_name><wp:author_last_name>${cdata(a.last_name)}</wp:author_last_name></wp:author>\n`;
    }
    return `${out}\n\t`;
  }

  /** wxr_term_meta: every meta row of the term. */
  private termMeta(meta: { key: string; value: string }[] | undefined): string {
    return (meta ?? []).map((m) => `\t\t<wp:termmeta>\n\t\t\t<wp:meta_key>${cdata(m.key)}</wp:meta_key>\n\t\t\t<wp:meta_value>${cdata(phpStoredMetaValue(m.value))}</wp:meta_value>\n\t\t</wp:termmeta>\n`).join('');
  }

  /** The categories, the tags and the other terms, each list by name with children after their parents; only `category` when the posts are filtered by it. */
  private async termLists(category?: ExportedTerm): Promise<string> {
    const everything = category ? [category] : (await this.repo.terms()).sort(byName);
    const custom = this.site.types.taxonomies.map((t) => t.slug).filter((slug) => !BUILTIN_TAXONOMIES.has(slug));
    const cats = parentsFirst(everything.filter((t) => t.taxonomy === 'category'));
    const tags = category ? [] : everything.filter((t) => t.taxonomy === 'post_tag');
    // get_terms with an empty list of taxonomies asks for every taxonomy's terms: what WordPress lists when no plugin registers one
    const terms = parentsFirst(category ? [] : custom.length ? everything.filter((t) => custom.includes(t.taxonomy)) : everything);
    const meta = await this.repo.meta('term_meta', everything.map((t) => t.id));
    const name = (element: string, text: string, indent = '') => (text ? `${indent}<wp:${element}>${cdata(text)}</wp:${element}>\n` : '');

    let out = '';
    for (const c of cats.values()) {
      out += `\t<wp:category>\n\t\t<wp:term_id>${c.id}</wp:term_id>\n\t\t<wp:category_nicename>${cdata(c.slug)}</wp:category_nicename>\n`;
      out += `\t\t<wp:category_parent>${cdata(c.parent ? (cats.get(c.parent)?.slug ?? '') : '')}</wp:category_parent>\n\t\t`;
      out += name('cat_name', c.name) + name('category_description', c.description) + this.termMeta(meta.get(c.id)) + '\t</wp:category>\n\t';
    }
    out += '\t';
    for (const t of tags) {
      out += `\t<wp:tag>\n\t\t<wp:term_id>${t.id}</wp:term_id>\n\t\t<wp:tag_slug>${cdata(t.slug)}</wp:tag_slug>\n\t\t`;
      out += name('tag_name', t.name) + name('tag_description', t.description) + this.termMeta(meta.get(t.id)) + '\t</wp:tag>\n\t';
    }
    out += '\t';
    for (const t of terms.values()) {
      out += `\t<wp:term>\n\t\t<wp:term_id>${t.id}</wp:term_id>\n\t\t<wp:term_taxonomy>${cdata(t.taxonomy)}</wp:term_taxonomy>\n\t\t<wp:term_slug>${cdata(t.slug)}</wp:term_slug>\n`;
      out += `\t\t<wp:term_parent>${cdata(t.parent ? (terms.get(t.parent)?.slug ?? '') : '')}</wp:term_parent>\n\t\t`;
      out += name('term_name', t.name) + name('term_description', t.description, '\t\t') + this.termMeta(meta.get(t.id)) + '\t</wp:term>\n\t';
    }
    return `${out}\t`;
  }

  /** wxr_nav_menu_terms: the menus (wp_get_nav_menus, by name). */
  private async menuTerms(): Promise<string> {
    const menus = (await this.repo.terms([MENU_TAXONOMY])).sort(byName);
    return menus.map((m) => `\t<wp:term><wp:term_id>${m.id}</wp:term_id><wp:term_taxonomy>nav_menu</wp:term_taxonomy><wp:term_slug>${cdata(m.slug)}</wp:term_slug>${m.name ? `<wp:term_name>${cdata(m.name)}</wp:term_name>\n` : ''}</wp:term>\n`).join('');
  }

  /** A page of posts with their terms, meta and comments. */
  private async items(ids: number[]): Promise<string> {
    const posts = await this.repo.posts(ids);
    const [meta, terms, comments, parentPaths] = await Promise.all([
      this.repo.meta('post_meta', ids),
      this.repo.termsOf(ids),
      this.repo.comments(ids),
      this.store.posts.ancestorSlugsOfMany(posts.filter((p) => p.type === 'page' && p.parent)),
    ]);
    const commentMeta = await this.repo.meta('comment_meta', [...comments.values()].flat().map((c) => c.id));
    const logins = new Map((await this.repo.authorsOf(ids)).map((a) => [a.id, a.login]));
    let out = '';
    for (const p of posts) {
      const own = meta.get(p.id) ?? [];
      out += await this.item(p, own, this.postTerms(p, terms.get(p.id) ?? [], own), comments.get(p.id) ?? [], commentMeta, logins.get(p.author) ?? '', parentPaths.get(p.id));
    }
    return out;
  }

  /** wxr_post_taxonomy's terms: the post's, with its format and a template's theme and area as WordPress keeps them, by name. */
  private postTerms(p: ExportedPost, stored: ExportedTerm[], meta: { key: string; value: string }[]): { taxonomy: string; slug: string; name: string; id: number }[] {
    const list = stored.map((t) => ({ taxonomy: t.taxonomy, slug: t.slug, name: t.name, id: t.id }));
    if (p.format && p.format !== 'standard' && FORMAT_NAMES[p.format] && !list.some((t) => t.taxonomy === 'post_format')) {
      list.push({ taxonomy: 'post_format', slug: `post-format-${p.format}`, name: FORMAT_NAMES[p.format], id: 0 });
    }
    const theme = meta.find((m) => m.key === TEMPLATE_META.theme)?.value;
    if (theme) list.push({ taxonomy: 'wp_theme', slug: theme, name: theme, id: 0 });
    const area = meta.find((m) => m.key === TEMPLATE_META.area)?.value;
    if (area) list.push({ taxonomy: 'wp_template_part_area', slug: area, name: area, id: 0 });
    return list.sort(byName);
  }

  private async item(p: ExportedPost, meta: { key: string; value: string }[], terms: { taxonomy: string; slug: string; name: string }[], comments: ExportedComment[], commentMeta: Map<number, { key: string; value: string }[]>, login: string, parentPath?: string[]): Promise<string> {
    const type = wordpressName(p.type);
    const link = await this.link(p, parentPath);
    let out = `\t<item>
\t\t<title>${cdata(p.title)}</title>
\t\t<link>${escUrl(link)}</link>
\t\t<pubDate>${pubDate(p)}</pubDate>
\t\t<dc:creator>${cdata(login)}</dc:creator>
\t\t<guid isPermaLink="false">${escUrl(p.guid)}</guid>
\t\t<description></description>
\t\t<content:encoded>${cdata(p.content)}</content:encoded>
\t\t<excerpt:encoded>${cdata(p.excerpt)}</excerpt:encoded>
\t\t<wp:post_id>${p.id}</wp:post_id>
\t\t<wp:post_date>${cdata(p.date)}</wp:post_date>
\t\t<wp:post_date_gmt>${cdata(p.date_gmt)}</wp:post_date_gmt>
\t\t<wp:post_modified>${cdata(p.modified)}</wp:post_modified>
\t\t<wp:post_modified_gmt>${cdata(p.modified_gmt)}</wp:post_modified_gmt>
\t\t<wp:comment_status>${cdata(p.comment_status)}</wp:comment_status>
\t\t<wp:ping_status>${cdata(p.ping_status)}</wp:ping_status>
\t\t<wp:post_name>${cdata(p.slug)}</wp:post_name>
\t\t<wp:status>${cdata(p.status)}</wp:status>
\t\t<wp:post_parent>${p.parent}</wp:post_parent>
\t\t<wp:menu_order>${p.menu_order}</wp:menu_order>
\t\t<wp:post_type>${cdata(type)}</wp:post_type>
\t\t<wp:post_password>${cdata(p.password)}</wp:post_password>
\t\t<wp:is_sticky>${p.sticky ? 1 : 0}</wp:is_sticky>
\t\t\t\t`;
    if (p.type === 'attachment') {
      const file = meta.find((m) => m.key === ATTACHED_FILE)?.value;
      out += `\t\t<wp:attachment_url>${cdata(file ? this.site.media.urlOf(this.site.home, file) : p.guid)}</wp:attachment_url>\n\t`;
    }
    out += '\t\t\t\t';
    for (const t of terms) out += `\t\t<category domain="${t.taxonomy}" nicename="${t.slug}">${cdata(t.name)}</category>\n`;
    out += '\t\t\t\t';
    const written = [...(p.template ? [{ key: '_wp_page_template', value: p.template }] : []), ...meta.filter((m) => m.key !== IMPORT_SOURCE && !m.key.startsWith('_cms_') && m.key !== '_edit_lock')];
    for (const m of written) out += `\t\t<wp:postmeta>\n\t\t<wp:meta_key>${cdata(m.key)}</wp:meta_key>\n\t\t<wp:meta_value>${cdata(phpStoredMetaValue(m.value))}</wp:meta_value>\n\t\t</wp:postmeta>\n\t\t\t\t\t`;
    for (const c of comments) {
      out += `\t\t<wp:comment>
\t\t\t<wp:comment_id>${c.id}</wp:comment_id>
\t\t\t<wp:comment_author>${cdata(c.author_name)}</wp:comment_author>
\t\t\t<wp:comment_author_email>${cdata(c.author_email)}</wp:comment_author_email>
\t\t\t<wp:comment_author_url>${sanitizeUrl(c.author_url)}</wp:comment_author_url>
\t\t\t<wp:comment_author_IP>${cdata(c.author_ip)}</wp:comment_author_IP>
\t\t\t<wp:comment_date>${cdata(c.date)}</wp:comment_date>
\t\t\t<wp:comment_date_gmt>${cdata(c.date_gmt)}</wp:comment_date_gmt>
\t\t\t<wp:comment_content>${cdata(c.content)}</wp:comment_content>
\t\t\t<wp:comment_approved>${cdata(c.approved)}</wp:comment_approved>
\t\t\t<wp:comment_type>${cdata(c.type)}</wp:comment_type>
\t\t\t<wp:comment_parent>${c.parent}</wp:comment_parent>
\t\t\t<wp:comment_user_id>${c.author}</wp:comment_user_id>
\t\t\t\t\t`;
      for (const m of commentMeta.get(c.id) ?? []) out += `\t<wp:commentmeta>\n\t<wp:meta_key>${cdata(m.key)}</wp:meta_key>\n\t\t\t<wp:meta_value>${cdata(phpStoredMetaValue(m.value))}</wp:meta_value>\n\t\t\t</wp:commentmeta>\n\t\t\t\t\t`;
      out += '\t\t</wp:comment>\n\t\t\t';
    }
    return `${out}\t\t</item>\n\t\t\t\t`;
  }

  /**
   * the_permalink_rss: get_permalink, which gives WordPress's own types other than pages and
   * attachments (menu items, the site editor's) the posts' permalink structure, and an
   * attachment its parent's link followed by its name, or its name under the home (get_attachment_link).
   */
  private async link(p: ExportedPost, parentPath?: string[]): Promise<string> {
    const builtin = p.type === 'nav_menu_item' || WORDPRESS_NAMES[p.type] !== undefined;
    const of = (post: ExportedPost, path?: string[]) => permalink(this.site, { id: post.id, type: builtin && post === p ? 'post' : post.type, slug: post.slug, status: post.status, date: post.date, parentPath: path?.join('/') || undefined });
    if (p.type !== 'attachment' || !this.site.options.permalink_structure) return of(p, parentPath);
    const parent = p.parent && p.parent !== p.id ? (await this.repo.posts([p.parent]))[0] : undefined;
    if (p.parent && (!parent || !this.site.types.postType(parent.type)?.viewable)) return `${this.site.home}/?attachment_id=${p.id}`;
    if (!parent) return `${this.site.home}/${p.slug}/`;
    const parentLink = of(parent, parent.type === 'page' && parent.parent ? await this.store.posts.ancestorSlugs(parent) : undefined);
    const name = /^\d+$/.test(p.slug) || this.site.options.permalink_structure.includes('%category%') ? `attachment/${p.slug}` : p.slug;
    return parentLink.includes('?') ? `${this.site.home}/?attachment_id=${p.id}` : `${parentLink.replace(/\/?$/, '/')}${name}/`;
  }
}
