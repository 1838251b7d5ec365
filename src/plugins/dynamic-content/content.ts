import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import type { Ctx } from '../../core/context.ts';
import { attachmentImageSrc } from '../../core/attachment-image.ts';
import { canEdit, readablePost } from '../../core/post-access.ts';
import { avatarUrls, renderedTitle } from '../../core/rest.ts';
import { escapeHtml, excerptText, stripAllTags } from '../../format/format.ts';
import { authorPermalink, permalink, termLink } from '../../core/permalinks.ts';
import { formatLocalDate } from '../../format/date.ts';
import type { PostRow } from '../../store/posts.ts';
import { fieldFor, isHtmlField, type FieldDef } from './fields.ts';

/**
 * Kadence_Blocks_Pro_Dynamic_Content::get_content over this site: a field of a post (core
 * fields, custom fields, related posts, repeater rows), its author, an archive's term, the site
 * or the current user, shaped for where it goes: text (escaped, or sanitized HTML for HTML
 * fields), a background URL, an image `[url, width, height, resized, alt, id]`, a gallery of
 * those, a list, or HTML. Nothing a field holds is executed: HTML is sanitized to post markup.
 */

export type Kind = 'text' | 'background' | 'image' | 'gallery' | 'list' | 'html';

export interface DynamicRequest {
  kind: Kind;
  source: string;
  group: string;
  field: string;
  para: string;
  custom: string;
  current: string;
  relate: string;
  relcustom: string;
  before?: string;
  after?: string;
  fallback?: string;
  forceString: boolean;
  repeaterRow: string;
}

export type ImageData = [string, number, number, boolean, string, number];
export type Content = string | number | ImageData | ImageData[] | string[];

const IMAGE_SIZES = new Set(['large', 'medium', 'thumbnail', 'medium_large']);

/** sanitize-html with what a post's HTML may hold when shown: WordPress's post tags, no scripts, handlers or styles. */
let postHtml: { sanitize: typeof sanitizeHtml; options: sanitizeHtml.IOptions } | undefined;

function postHtmlSanitizer(): NonNullable<typeof postHtml> {
  // loaded on first use, as kses loads it: its parser is dozens of modules no start should wait for
  const sanitize = createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  return {
    sanitize,
    options: {
      allowedTags: [...sanitize.defaults.allowedTags, 'img', 'figure', 'figcaption', 'del', 'ins', 'sub', 'sup', 'span'],
      allowedAttributes: { a: ['href', 'title', 'rel', 'target'], img: ['src', 'alt', 'width', 'height', 'title'], '*': ['class', 'id'] },
      allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    },
  };
}

export function sanitizePostHtml(html: string): string {
  const { sanitize, options } = (postHtml ??= postHtmlSanitizer());
  return sanitize(html, options);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Characters a URL carries as they are (RFC 3986's unreserved and reserved ones, and `%`). */
const URL_CHARACTER = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]/;

/**
 * esc_url for a link or image URL: http(s) or a relative path, else nothing. What a URL may not
 * hold as it is gets percent-encoded, its escapes kept as written (malformed ones included: a
 * stored value can hold anything).
 */
export function safeUrl(url: string): string {
  const u = url.trim().replace(LONE_SURROGATE, '\ufffd');
  if (!(/^(https?:)?\/\//i.test(u) || u.startsWith('/'))) return '';
  return [...u].map((c) => (URL_CHARACTER.test(c) ? c : encodeURIComponent(c))).join('');
}

/** A source: a post id, or `current` (the `current` post id the editor names, if any). */
export async function sourcePost(ctx: Ctx, source: string, current: string): Promise<PostRow | undefined> {
  const id = source === 'current' || source === '' ? current : source;
  if (!/^\d+$/.test(id)) return undefined;
  const post = await ctx.store.posts.get(Number(id));
  if (!post || !readablePost(ctx, post)) return undefined;
  // a password-protected post shows its fields only to those who may edit it
  if (post.password && !canEdit(ctx, ctx.site.types.postType(post.type)!, post)) return undefined;
  return post;
}

/** The meta key a custom-field request names: `kb_custom_input` with `custom`, a `provider|key`, or the key itself. */
export function metaKeyOf(para: string, custom: string): string {
  if (para === 'kb_custom_input') return custom;
  const bar = para.indexOf('|');
  return bar >= 0 ? para.slice(bar + 1) : para;
}

/** A post's meta value: a declared field typed by its type, any other key as stored. */
async function metaValue(ctx: Ctx, post: PostRow, key: string): Promise<{ value: unknown; def?: FieldDef }> {
  if (!key) return { value: undefined };
  const stored = await ctx.store.posts.meta.get(post.id, key);
  const def = fieldFor(ctx.site.spec, post.type, key);
  if (stored === undefined || !def || typeof stored !== 'string') return { value: stored, def };
  const isString = !['number', 'range', 'true_false', 'image', 'file', 'post_object', 'gallery', 'relationship', 'checkbox', 'text_list', 'repeater'].includes(def.type);
  if (isString) return { value: stored, def };
  try {
    return { value: JSON.parse(stored), def };
  } catch {
    return { value: undefined, def };
  }
}

/** The image data of an attachment at a size: wp_get_attachment_image_src with the alt text and id added. */
export async function imageData(ctx: Ctx, id: number, size: string): Promise<ImageData | ''> {
  const src = await attachmentImageSrc(ctx.store, id, size);
  if (!src) return '';
  const alt = (await ctx.store.posts.meta.get(id, '_wp_attachment_image_alt')) ?? '';
  return [src[0], src[1], src[2], src[3], alt, id];
}

const sizeOf = (r: DynamicRequest) => (r.before && IMAGE_SIZES.has(r.before) ? r.before : 'full');
const ids = (v: unknown): number[] => (Array.isArray(v) ? v : [v]).map(Number).filter((n) => Number.isInteger(n) && n > 0);

/** A field's value shaped for the request's kind. */
async function shaped(ctx: Ctx, r: DynamicRequest, value: unknown, def: FieldDef | undefined): Promise<Content> {
  if (value === undefined || value === null || value === '') return '';
  switch (r.kind) {
    case 'image': {
      const [id] = ids(value);
      return id ? imageData(ctx, id, sizeOf(r)) : '';
    }
    case 'background': {
      const [id] = def && (def.type === 'image' || def.type === 'gallery') ? ids(value) : [];
      if (id) return (await attachmentImageSrc(ctx.store, id, sizeOf(r)))?.[0] ?? '';
      return typeof value === 'string' ? safeUrl(value) : '';
    }
    case 'gallery': {
      const list = await Promise.all(ids(value).map((id) => imageData(ctx, id, sizeOf(r))));
      return list.filter((i): i is ImageData => i !== '');
    }
    case 'list':
      return Array.isArray(value) ? value.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => escapeHtml(String(v))) : '';
    case 'text':
    case 'html': {
      if (isHtmlField(def) && typeof value === 'string') return sanitizePostHtml(value);
      if (Array.isArray(value)) return value.every((v) => typeof v !== 'object') ? escapeHtml(value.join(', ')) : '';
      if (typeof value === 'boolean') return value ? '1' : '';
      if (typeof value === 'number') return value;
      return typeof value === 'string' ? escapeHtml(value) : '';
    }
  }
}

const shapedText = (r: DynamicRequest, text: string): Content => (r.kind === 'html' ? sanitizePostHtml(text) : escapeHtml(text));

/** A core field of a post. */
async function postField(ctx: Ctx, r: DynamicRequest, post: PostRow): Promise<Content> {
  switch (r.field) {
    case 'post_title':
      return sanitizePostHtml(renderedTitle(post));
    case 'post_date':
      return formatLocalDate(ctx.site.options.date_format || 'F j, Y', post.date);
    case 'post_date_modified':
      return formatLocalDate(ctx.site.options.date_format || 'F j, Y', post.modified);
    case 'post_type':
      return post.type;
    case 'post_status':
      return post.status;
    case 'post_id':
      return post.id;
    case 'post_url':
      return postLink(ctx, post);
    case 'post_excerpt':
      return escapeHtml(stripAllTags(excerptText(post.excerpt, post.content)));
    case 'post_content':
      return r.kind === 'html' ? sanitizePostHtml(post.content) : escapeHtml(stripAllTags(post.content));
    case 'post_custom_field': {
      const { value, def } = await metaValue(ctx, post, metaKeyOf(r.para, r.custom));
      return shaped(ctx, r, value, def);
    }
    case 'post_featured_image_url':
    case 'post_featured_image': {
      const thumbnail = Number(await ctx.store.posts.meta.get(post.id, '_thumbnail_id')) || 0;
      if (!thumbnail) return '';
      if (r.field === 'post_featured_image') return imageData(ctx, thumbnail, sizeOf(r));
      return (await attachmentImageSrc(ctx.store, thumbnail, r.kind === 'background' ? sizeOf(r) : 'full'))?.[0] ?? '';
    }
    default:
      return '';
  }
}

export async function postLink(ctx: Ctx, post: PostRow): Promise<string> {
  const parentPath = post.parent ? (await ctx.store.posts.ancestorSlugs(post)).join('/') || undefined : undefined;
  return permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

/** The post the source post's relationship field (`relate`, or the meta key `relcustom`) points at, readable by the caller. */
export async function relatedPost(ctx: Ctx, post: PostRow, relate: string, relcustom: string): Promise<PostRow | undefined> {
  const key = relate === 'kb_custom_input' || !relate ? relcustom : metaKeyOf(relate, '');
  const { value } = await metaValue(ctx, post, key);
  const [id] = ids(typeof value === 'string' ? value.split(',') : value);
  return id ? sourcePost(ctx, String(id), '') : undefined;
}

/** An author field of the source post's author. */
async function authorField(ctx: Ctx, r: DynamicRequest, post: PostRow): Promise<Content> {
  if (!ctx.site.types.postType(post.type)?.supports.includes('author')) return '';
  const author = await ctx.store.users.get(post.author);
  if (!author) return '';
  const meta = (key: string) => ctx.store.users.meta.get(author.id, key).then((v) => escapeHtml(v ?? ''));
  const avatarSize = r.before === 'large' ? 1024 : r.before === 'medium_large' ? 768 : 96;
  switch (r.field) {
    case 'author_name':
      return escapeHtml(author.display_name);
    case 'author_first_name':
      return meta('first_name');
    case 'author_last_name':
      return meta('last_name');
    case 'author_info':
      return meta('description');
    case 'author_url':
      return authorPermalink(ctx.site, author);
    case 'author_image_url':
    case 'author_image': {
      const url = avatarUrls(author.email, ctx.site.home)['96'].replace('s=96', `s=${avatarSize}`);
      return r.field === 'author_image' ? [url, avatarSize, avatarSize, true, '', 0] : url;
    }
    case 'author_custom_field':
      return meta(metaKeyOf(r.para, r.custom));
    default:
      return '';
  }
}

/** A field of the signed-in user. */
async function userField(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  if (!ctx.user) return '';
  const user = await ctx.store.users.get(ctx.user.id);
  if (!user) return '';
  const meta = async (key: string) => escapeHtml((await ctx.store.users.meta.get(user.id, key)) ?? '');
  switch (r.field) {
    case 'id':
      return user.id;
    case 'username':
      return escapeHtml(user.login);
    case 'display_name':
      return escapeHtml(user.display_name);
    case 'email':
      return escapeHtml(user.email);
    case 'website':
      return escapeHtml(user.url);
    case 'first_name':
    case 'last_name':
      return meta(r.field);
    case 'bio':
      return meta('description');
    case 'user_custom_field':
      return meta(r.para);
    default:
      return '';
  }
}

/** A field of the site; an arbitrary option only for those who may manage options. */
async function siteField(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  switch (r.field) {
    case 'site_title':
      return escapeHtml(ctx.site.info.name);
    case 'site_tagline':
      return escapeHtml(ctx.site.info.description);
    case 'site_url':
      return `${ctx.site.home}/`;
    case 'custom_setting': {
      if (r.para !== 'kb_custom_input' || !r.custom || !ctx.can('manage_options')) return '';
      return shapedText(r, (await ctx.store.options.get(r.custom)) ?? '');
    }
    case 'logo': {
      const logo = Number(await ctx.store.options.get('site_logo')) || 0;
      return logo ? imageData(ctx, logo, sizeOf(r)) : '';
    }
    default:
      return '';
  }
}

/** A field of the term an archive source names (a REST request has no current archive). */
async function archiveField(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  if (!/^\d+$/.test(r.source)) return '';
  const term = await ctx.store.terms.get(Number(r.source));
  const tax = term && ctx.site.types.taxonomy(term.taxonomy);
  if (!term || !tax) return '';
  switch (r.field) {
    case 'archive_title':
      return escapeHtml(`${tax.singular}: ${term.name}`);
    case 'archive_description':
      return sanitizePostHtml(term.description);
    case 'archive_url':
      return termLink(ctx.store, ctx.site, tax, term);
    default:
      return '';
  }
}

/** A repeater row's sub-field: the source is `postId|provider|repeater`, the row `repeaterRow`. */
async function repeaterField(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  const [postId, , repeater] = r.source.split('|');
  const post = await sourcePost(ctx, postId ?? '', r.current);
  if (!post || !repeater || !/^\d+$/.test(r.repeaterRow)) return '';
  const { value, def } = await metaValue(ctx, post, repeater);
  if (!Array.isArray(value) || def?.type !== 'repeater') return '';
  const row = value[Number(r.repeaterRow)] as Record<string, unknown> | undefined;
  const sub = metaKeyOf(r.field, '');
  const subDef = def.subFields?.find((s) => s.name === sub);
  return row && subDef ? shaped(ctx, r, row[sub], subDef) : '';
}

/** get_field_content: the value of the request's group and field. */
async function fieldContent(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  switch (r.group) {
    case 'post':
    case 'relationship': {
      let post = await sourcePost(ctx, r.source, r.current);
      if (post && r.group === 'relationship') post = await relatedPost(ctx, post, r.relate, r.relcustom);
      return post ? postField(ctx, r, post) : '';
    }
    case 'author': {
      const post = await sourcePost(ctx, r.source, r.current);
      return post ? authorField(ctx, r, post) : '';
    }
    case 'user':
      return userField(ctx, r);
    case 'site':
      return siteField(ctx, r);
    case 'archive':
      return archiveField(ctx, r);
    case 'repeater':
      return repeaterField(ctx, r);
    default:
      return '';
  }
}

const isEmpty = (c: Content) => c === '' || (Array.isArray(c) && c.length === 0);

/**
 * get_content: the field's content, joined into a string when `force_string` asks, the fallback
 * when it is empty, and `before`/`after` around text (for images `before` names the size).
 */
export async function dynamicContent(ctx: Ctx, r: DynamicRequest): Promise<Content> {
  let out = await fieldContent(ctx, r);
  if (r.forceString && Array.isArray(out)) out = out.join(',');
  if (isEmpty(out) && r.fallback !== undefined && r.fallback !== '') out = shapedText(r, r.fallback);
  const wraps = (typeof out === 'string' || typeof out === 'number') && (r.kind === 'text' || r.kind === 'html') && !isEmpty(out);
  if (wraps && (r.before || r.after)) out = `${r.before ? sanitizePostHtml(r.before) : ''}${out}${r.after ? sanitizePostHtml(r.after) : ''}`;
  return out;
}
