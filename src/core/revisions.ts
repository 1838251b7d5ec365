import { RestError } from '../engine/errors.ts';
import type { Ctx } from './context.ts';
import type { PostTypeInfo } from './content-types.ts';
import { nsUrl, renderedTitle, restDate, type Context } from './rest.ts';
import { renderedExcerpt, theContent } from './hooks.ts';
import { permalink } from './permalinks.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';

/**
 * Revisions and autosaves as WordPress keeps them: posts of type `revision`, status `inherit`,
 * whose parent is the post, named `{id}-revision-v1` (a saved state of the post) or
 * `{id}-autosave-v1` (one per user, the editor's unsaved changes).
 */

/** _wp_post_revision_fields: what a revision keeps of its post. */
const REVISION_FIELDS = ['title', 'content', 'excerpt'] as const;

export type RevisionFields = Pick<PostRow, (typeof REVISION_FIELDS)[number]>;

const revisionSlug = (parent: number) => `${parent}-revision-v1`;
export const autosaveSlug = (parent: number) => `${parent}-autosave-v1`;

/** WP_REST_Revisions_Controller::get_parent: the post a revisions or autosaves route names, of the route's type. */
export async function revisionParent(ctx: Ctx, type: PostTypeInfo, id: unknown): Promise<PostRow> {
  const parent = Number(id) > 0 ? await ctx.store.posts.get(Number(id)) : undefined;
  if (!parent || parent.type !== type.slug) throw ctx.fail('rest_post_invalid_parent');
  return parent;
}

/** normalize_whitespace: line breaks and runs of blanks count as one, the ends not at all. */
const normalized = (s: string) => s.trim().replace(/\r/g, '\n').replace(/\n+/g, '\n').replace(/[ \t]+/g, ' ');

/** Whether two states differ in a revisioned field, as wp_save_post_revision compares them. */
export function revisionedFieldsDiffer(a: RevisionFields, b: RevisionFields): boolean {
  return REVISION_FIELDS.some((f) => normalized(a[f]) !== normalized(b[f]));
}

/**
 * wp_save_post_revision, run by every update of a post (the REST routes, batch and the CLI pass
 * through them): the post as it now is becomes a revision, by the user who saved it, unless its
 * type keeps none, it is an auto-draft, or its title, content and excerpt are those of its latest
 * revision. A post's first update always saves one. Inserting a post saves none
 * (wp_save_post_revision_on_insert skips inserts).
 */
export async function saveRevision(store: Store, type: PostTypeInfo, post: PostRow, author: number): Promise<void> {
  if (!type.supports.includes('revisions') || post.status === 'auto-draft') return;
  const latest = await store.posts.newestRevision(post.id, revisionSlug(post.id));
  if (latest && !revisionedFieldsDiffer(post, latest)) return;
  await store.posts.insert({
    type: 'revision',
    status: 'inherit',
    parent: post.id,
    slug: revisionSlug(post.id),
    author,
    title: post.title,
    content: post.content,
    excerpt: post.excerpt,
    // _wp_post_revision_data: the revision is dated when the post was modified
    date: post.modified,
    date_gmt: post.modified_gmt,
    modified: post.modified,
    modified_gmt: post.modified_gmt,
  });
}

/**
 * The `version-history` and `predecessor-version` links of a post whose type keeps revisions
 * (WP_REST_Posts_Controller::prepare_links), from its revision count and newest revision.
 */
export function versionLinks(ctx: Ctx, type: PostTypeInfo, post: PostRow, stats: { count: number; latestId: number } | undefined): Record<string, unknown> {
  if (!type.supports.includes('revisions') && type.slug !== 'post' && type.slug !== 'page') return {};
  const base = `${type.restBase}/${post.id}/revisions`;
  const count = stats?.count ?? 0;
  const links: Record<string, unknown> = { 'version-history': [{ count, href: nsUrl(ctx, base) }] };
  if (count > 0) links['predecessor-version'] = [{ id: stats!.latestId, href: nsUrl(ctx, `${base}/${stats!.latestId}`) }];
  return links;
}

/** The parent's fields a revision shows: its title, content and excerpt where the parent's schema has them. */
function shownFields(type: PostTypeInfo) {
  const s = new Set(type.supports);
  return {
    title: s.has('title'),
    content: s.has('editor'),
    // WordPress's page schema has an excerpt although pages do not support one
    excerpt: s.has('excerpt') || type.slug === 'page',
  };
}

/** The nonce action of a post's preview link (`_show_post_preview` checks it). */
export const previewNonceAction = (postId: number) => `post_preview_${postId}`;

/** The post's address on the site, as its `link` (and get_preview_post_link) gives it. */
async function linkOf(ctx: Ctx, post: PostRow): Promise<string> {
  const parentPath = post.parent ? (await ctx.store.posts.ancestorSlugs(post)).join('/') || undefined : undefined;
  return permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

/**
 * WP_REST_Revisions_Controller::prepare_item_for_response for a revision of `parent` (or, for an
 * autosave that updated a draft, the draft itself), in the request's context; with `preview`, the
 * autosaves controller's `preview_link` in edit context.
 */
export async function prepareRevision(ctx: Ctx, type: PostTypeInfo, parent: PostRow, rev: PostRow, context: Context, preview = false): Promise<Record<string, unknown>> {
  const edit = context === 'edit';
  const embed = context === 'embed';
  // WP_REST_Blocks_Controller shows the raw markup in view context too
  const raw = edit || (type.rawMarkup === true && context === 'view');
  const shown = shownFields(type);
  const parentLink = await linkOf(ctx, parent);
  const data: Record<string, unknown> = { author: rev.author, date: restDate(rev.date) };
  if (!embed) data.date_gmt = restDate(rev.date_gmt);
  data.id = rev.id;
  if (!embed) {
    data.modified = restDate(rev.modified);
    data.modified_gmt = restDate(rev.modified_gmt);
  }
  data.parent = rev.parent;
  data.slug = rev.slug;
  if (!embed) data.guid = edit ? { rendered: rev.guid, raw: rev.guid } : { rendered: rev.guid };
  if (shown.title) data.title = raw ? { raw: rev.title, rendered: renderedTitle(rev) } : { rendered: renderedTitle(rev) };
  if (shown.content && !embed) {
    const kind = type.slug === 'page' ? 'page' : 'post';
    const rendered = await theContent(rev.content, { store: ctx.store, site: ctx.site, kind, postId: parent.id, url: parentLink }, ctx.log);
    data.content = raw ? { raw: rev.content, rendered } : { rendered };
  }
  if (shown.excerpt) {
    // the_excerpt of the revision's own excerpt: none is made from its content
    const page = { store: ctx.store, site: ctx.site, kind: type.slug === 'page' ? 'page' : 'post', postId: parent.id, url: parentLink };
    const rendered = rev.excerpt ? await renderedExcerpt(rev.excerpt, { raw: '', rendered: '' }, page, ctx.log) : '';
    data.excerpt = edit ? { raw: rev.excerpt, rendered } : { rendered };
  }
  if (preview && edit) data.preview_link = previewLink(ctx, type, parentLink, rev);
  // the only link WordPress gives a revision; a draft answered for its autosave has none unless it has a parent
  if (rev.parent) data._links = { parent: [{ href: nsUrl(ctx, `${type.restBase}/${rev.parent}`) }] };
  return data;
}

/**
 * get_preview_post_link: the post's address asking for the preview, naming the autosave's post
 * with the caller's nonce for previewing it (`post_preview_{id}`, which the site checks against the
 * viewer's browser session); empty for a type that is not viewable on the site.
 */
function previewLink(ctx: Ctx, type: PostTypeInfo, parentLink: string, rev: PostRow): string {
  if (!type.viewable) return '';
  const nonce = ctx.user?.nonce?.(previewNonceAction(rev.parent));
  const query = rev.type === 'revision' ? `preview_id=${rev.parent}${nonce ? `&preview_nonce=${nonce}` : ''}&preview=true` : 'preview=true';
  return `${parentLink}${parentLink.includes('?') ? '&' : '?'}${query}`;
}
