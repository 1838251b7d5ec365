import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { parse as parseDisposition } from 'content-disposition';
import { invalidParam, missingObject, RestError, RestResponse, type UploadedFile } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { cap, type PostTypeInfo } from '../../core/content-types.ts';
import { contentChanged } from '../../core/events.ts';
import { ATTACHED_FILE, IMAGE_ALT, resizeDimensions, type AttachmentMetadata, type ImageEdit } from '../../core/media.ts';
import { authorFilters, listQueryOf, parentFilters, queryPosts, rawText, statusesFor, typeFilters } from '../../core/post-list.ts';
import { canEdit, may, readablePost } from '../../core/post-access.ts';
import { metaOfPosts, writeRequestMeta } from '../../core/post-meta.ts';
import { collection, contextOf, CURIES, denied, nsUrl, pageOf, parseDateArg, pick, restDate, routePostType, type Context } from '../../core/rest.ts';
import { availableActions } from '../../core/post-links.ts';
import { escapeAttr } from '../../format/format.ts';
import { renderedExcerpt, theContent } from '../../core/hooks.ts';
import type { Store } from '../../store/index.ts';
import type { PostPatch, PostRow } from '../../store/posts.ts';
import { sanitizeSlug } from '../../store/transact.ts';

/** Field order of each context, as WP_REST_Attachments_Controller's schema gives them. */
const FIELDS: Record<Context, readonly string[]> = {
  view: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author', 'comment_status', 'ping_status', 'template', 'meta', 'description', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'post', 'source_url'],
  edit: ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author', 'comment_status', 'ping_status', 'template', 'meta', 'permalink_template', 'generated_slug', 'description', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'post', 'source_url', 'missing_image_sizes'],
  embed: ['id', 'date', 'slug', 'type', 'link', 'title', 'author', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'source_url'],
};

/** wp_attachment_is_image: the types WordPress shows as images. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/x-icon', 'image/tiff', 'image/heic']);


/** The attachment the route's id names; `lock` for a read that a write in the same transaction follows (PostsRepo.get). */
async function attachmentOfRoute(ctx: Ctx, store: Store = ctx.store, lock = false): Promise<PostRow> {
  const post = await store.posts.get(Number(ctx.args.id), lock);
  if (!post || post.type !== 'attachment') throw missingObject(ctx.fail('rest_post_invalid_id'));
  return post;
}

/** read_post for an attachment: `inherit` follows the post it is attached to (readable when unattached); private needs its owner or read_private_posts. */
function canReadAttachment(ctx: Ctx, type: PostTypeInfo, post: PostRow, parents: Map<number, PostRow>): boolean {
  if (post.status === 'inherit') {
    const parent = post.parent ? parents.get(post.parent) : undefined;
    return !parent || readablePost(ctx, parent);
  }
  if (post.status === 'private') return ctx.user?.id === post.author || ctx.can(cap(type, 'read_private_posts'));
  return canEdit(ctx, type, post);
}

async function parentsOf(store: Store, posts: PostRow[]): Promise<Map<number, PostRow>> {
  const ids = [...new Set(posts.map((p) => p.parent).filter(Boolean))];
  return new Map((await store.posts.getMany(ids)).map((p) => [p.id, p]));
}

// --- the attachment object ---

interface Related {
  meta: Map<number, Record<string, string>>;
  registered: Map<number, Record<string, unknown>>;
}

async function relatedOf(ctx: Ctx, posts: PostRow[]): Promise<Related> {
  const ids = posts.map((p) => p.id);
  const [meta, registered] = await Promise.all([
    ctx.store.posts.meta.ofMany(ids, [ATTACHED_FILE, '_wp_attachment_metadata', IMAGE_ALT]),
    metaOfPosts(ctx.store, (t) => ctx.site.types.postMeta(t), posts),
  ]);
  return { meta, registered };
}

function parseMetadata(raw: string | undefined): AttachmentMetadata | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as AttachmentMetadata;
  } catch {
    return null;
  }
}

/** media_details as the REST API shows it: each size with `mime_type` and its `source_url`, plus `full` when it has any (an image too small for every size has `sizes: {}`). */
function mediaDetails(ctx: Ctx, post: PostRow, url: string, relative: string | undefined, m: AttachmentMetadata | null): Record<string, unknown> {
  if (!m) return {};
  const folder = relative?.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
  const sizeUrl = (file: string) => ctx.site.media.urlOf(ctx.site.home, folder ? `${folder}/${file}` : file);
  const { sizes: stored, ...rest } = m;
  if (!IMAGE_TYPES.has(post.mime_type) || m.width === undefined) return { ...rest, sizes: {} };
  const sizes: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(stored ?? {})) sizes[name] = { file: s.file, width: s.width, height: s.height, filesize: s.filesize, mime_type: s['mime-type'], source_url: sizeUrl(s.file) };
  if (Object.keys(sizes).length === 0) return { ...rest, sizes };
  sizes.full = { file: url.slice(url.lastIndexOf('/') + 1), width: m.width, height: m.height, mime_type: post.mime_type, source_url: url };
  return { ...rest, sizes };
}

/** The sizes an image should have and lacks (wp_get_missing_image_subsizes). */
async function missingSizes(ctx: Ctx, post: PostRow, m: AttachmentMetadata | null): Promise<string[]> {
  if (!m || m.width === undefined || m.height === undefined || !IMAGE_TYPES.has(post.mime_type)) return [];
  const registered = await ctx.site.media.imageSizes(ctx.store);
  return registered.filter((s) => resizeDimensions(m.width!, m.height!, s) && !m.sizes?.[s.name]).map((s) => s.name);
}

/**
 * prepend_attachment: the_content of an attachment starts with wp_get_attachment_link to its file
 * (its quotes as 6.1 writes them); an image shows its medium size, or the image itself when it has none.
 */
function attachmentParagraph(post: PostRow, url: string, details: Record<string, unknown>, m: AttachmentMetadata | null, alt: string): string {
  const sizes = details.sizes as Record<string, { source_url: string; width: number; height: number }> | undefined;
  const full = IMAGE_TYPES.has(post.mime_type) && m?.width !== undefined && m.height !== undefined ? { source_url: url, width: m.width, height: m.height } : undefined;
  const shown = sizes?.medium ?? full;
  const inner = shown
    ? `<img width="${shown.width}" height="${shown.height}" src="${escapeAttr(shown.source_url)}" class="attachment-medium size-medium" alt="${escapeAttr(alt)}" decoding="async" loading="lazy" />`
    : escapeAttr(post.title);
  return `<p class="attachment"><a href='${escapeAttr(url)}'>${inner}</a></p>\n`;
}

async function prepareMedia(ctx: Ctx, type: PostTypeInfo, post: PostRow, context: Context, related: Related): Promise<Record<string, unknown>> {
  const meta = related.meta.get(post.id) ?? {};
  const relative = meta[ATTACHED_FILE];
  const url = relative ? ctx.site.media.urlOf(ctx.site.home, relative) : post.guid;
  const metadata = parseMetadata(meta._wp_attachment_metadata);
  const details = mediaDetails(ctx, post, url, relative, metadata);
  const alt = meta[IMAGE_ALT] ?? '';
  const edit = context === 'edit';
  const page = { store: ctx.store, site: ctx.site, kind: 'post', postId: post.id, url };
  const contentHtml = await theContent(post.content, page, ctx.log);
  const descriptionHtml = attachmentParagraph(post, url, details, metadata, alt) + contentHtml;
  const captionHtml = await renderedExcerpt(post.excerpt, { raw: post.content, rendered: contentHtml }, page, ctx.log);
  const data: Record<string, unknown> = {
    id: post.id,
    date: restDate(post.date),
    date_gmt: restDate(post.date_gmt),
    guid: edit ? { rendered: post.guid, raw: post.guid } : { rendered: post.guid },
    modified: restDate(post.modified),
    modified_gmt: restDate(post.modified_gmt),
    slug: post.slug,
    status: post.status,
    type: post.type,
    // with attachment pages off (WordPress's default since 6.4), an attachment's link is its file
    link: url,
    title: edit ? { raw: post.title, rendered: post.title } : { rendered: post.title },
    author: post.author,
    comment_status: post.comment_status,
    ping_status: post.ping_status,
    template: post.template,
    meta: related.registered.get(post.id) ?? [],
    permalink_template: url,
    generated_slug: post.slug || sanitizeSlug(post.title) || String(post.id),
    description: edit ? { raw: post.content, rendered: descriptionHtml } : { rendered: descriptionHtml },
    caption: edit ? { raw: post.excerpt, rendered: captionHtml } : { rendered: captionHtml },
    alt_text: alt,
    media_type: IMAGE_TYPES.has(post.mime_type) ? 'image' : 'file',
    mime_type: post.mime_type,
    media_details: details,
    post: post.parent || null,
    source_url: url,
  };
  if (edit) data.missing_image_sizes = await missingSizes(ctx, post, metadata);
  const out = pick(data, FIELDS[context]);
  const self = nsUrl(ctx, `${type.restBase}/${post.id}`);
  // the posts controller's links: an attachment takes comments, and has no revisions, terms or attachments of its own
  const links: Record<string, unknown> = { self: [{ href: self }], collection: [{ href: nsUrl(ctx, type.restBase) }], about: [{ href: nsUrl(ctx, `types/${type.slug}`) }] };
  if (post.author) links.author = [{ embeddable: true, href: nsUrl(ctx, `users/${post.author}`) }];
  links.replies = [{ embeddable: true, href: `${nsUrl(ctx, 'comments')}?post=${post.id}` }];
  const actions = availableActions(ctx, type, context);
  for (const rel of actions) links[rel] = [{ href: self }];
  // get_compact_response_links adds the curies only when a rel was compacted to `wp:`
  if (actions.length) links.curies = CURIES;
  out._links = links;
  return out;
}

async function prepareOne(ctx: Ctx, type: PostTypeInfo, post: PostRow, context: Context): Promise<Record<string, unknown>> {
  return prepareMedia(ctx, type, post, context, await relatedOf(ctx, [post]));
}

// --- reading ---

export async function listMedia(ctx: Ctx<'cms-v2:media.listMedia'>) {
  const type = routePostType(ctx);
  // the status arg is sanitized (and may be refused) before the permission check, as WordPress does
  const statuses = statusesFor(ctx, type, ['inherit']);
  const context = contextOf(ctx);
  if (context === 'edit' && !ctx.can(cap(type, 'edit_posts')))
    throw denied(ctx, 'rest_forbidden_context', { action: 'edit posts in this post type' });
  const page = pageOf(ctx, ctx.args.offset);
  const mimeTypes = [ctx.args.media_type ? `${ctx.args.media_type}/` : undefined, ctx.args.mime_type ?? undefined].filter((m): m is string => Boolean(m));
  // WP_REST_Attachments_Controller offers neither sticky, menu_order nor a taxonomy filter
  const filters = { ...typeFilters(ctx), ...authorFilters(ctx), ...parentFilters(ctx), mimeTypes };
  const { rows, total } = await queryPosts(ctx, listQueryOf(ctx, type, statuses, page, filters));
  const parents = await parentsOf(ctx.store, rows);
  const readable = rows.filter((r) => canReadAttachment(ctx, type, r, parents));
  const related = await relatedOf(ctx, readable);
  const items = ctx.request.head ? [] : await Promise.all(readable.map((r) => prepareMedia(ctx, type, r, context, related)));
  return collection(ctx, items, total, page, 'rest_post_invalid_page_number');
}

export async function getMedia(ctx: Ctx<'cms-v2:media.getMedia'>) {
  const type = routePostType(ctx);
  const post = await attachmentOfRoute(ctx);
  const context = contextOf(ctx);
  if (context === 'edit' && !canEdit(ctx, type, post)) throw denied(ctx, 'rest_forbidden_context', { action: 'edit this post' });
  if (!canReadAttachment(ctx, type, post, await parentsOf(ctx.store, [post]))) throw denied(ctx, 'rest_forbidden');
  return prepareOne(ctx, type, post, context);
}

// --- writing ---

/** The attachment's columns a create or update request sets (prepare_item_for_database). */
async function fieldsOf(ctx: Ctx, type: PostTypeInfo, store: Store, current?: PostRow): Promise<PostPatch> {
  const a = ctx.args;
  const f: PostPatch = {};
  const title = rawText(a.title);
  const caption = rawText(a.caption);
  const description = rawText(a.description);
  if (title !== undefined) f.title = title;
  if (caption !== undefined) f.excerpt = caption;
  if (description !== undefined) f.content = description;
  if (typeof a.slug === 'string') f.slug = a.slug;
  if (typeof a.comment_status === 'string') f.comment_status = a.comment_status;
  if (typeof a.ping_status === 'string') f.ping_status = a.ping_status;
  // wp_insert_post keeps an attachment `inherit` unless it is made private
  if (typeof a.status === 'string') f.status = a.status === 'private' ? 'private' : 'inherit';
  if (typeof a.date === 'string') {
    const d = parseDateArg(a.date);
    if (d.utc) f.date_gmt = d.wall;
    else f.date = d.wall;
  }
  if (typeof a.date_gmt === 'string') f.date_gmt = parseDateArg(a.date_gmt).wall;
  // check_template: no theme templates are registered here, so its list of the allowed ones is empty
  if (typeof a.template === 'string' && a.template !== '')
    throw invalidParam('template', 'template is not one of .');
  if (typeof a.author === 'number' && a.author !== (current?.author ?? ctx.user?.id)) {
    if (!ctx.can(cap(type, 'edit_others_posts'))) throw denied(ctx, 'rest_cannot_edit_others', { action: current ? 'update' : 'create' });
    if (!(await store.users.get(a.author))) throw ctx.fail('rest_invalid_author');
    f.author = a.author;
  }
  if (typeof a.post === 'number') {
    if (a.post !== 0) {
      const parent = await store.posts.get(a.post);
      if (!parent) throw ctx.fail('rest_post_invalid_id', {}, { status: 400 });
      // create_item's own check: WordPress answers it without has_valid_params' params and details
      if (parent.type === 'attachment') throw new RestError('rest_invalid_param', 'Invalid parent type.', 400);
      const parentType = ctx.site.types.postType(parent.type);
      if (!parentType || !canEdit(ctx, parentType, parent)) throw denied(ctx, 'rest_cannot_edit', { action: 'upload media to this post' });
    }
    f.parent = a.post;
  }
  return f;
}


/** upload_from_data's checks of a raw body: its type, and its name from Content-Disposition (RFC 6266). */
function rawUploadName(ctx: Ctx, file: UploadedFile): string {
  if (!file.contentType) throw ctx.fail('rest_upload_no_content_type');
  const disposition = ctx.request.headers['content-disposition'];
  if (!disposition) throw ctx.fail('rest_upload_no_content_disposition');
  let filename: string | undefined;
  try {
    filename = parseDisposition(disposition).parameters.filename;
  } catch {
    filename = undefined;
  }
  if (!filename?.trim())
    throw ctx.fail('rest_upload_invalid_disposition');
  return filename.trim();
}

/** Content-MD5, when sent, must be the md5 of the file (412 otherwise). */
async function checkHash(ctx: Ctx, file: UploadedFile): Promise<void> {
  const expected = ctx.request.headers['content-md5']?.trim();
  if (!expected) return;
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file.path)) hash.update(chunk as Buffer);
  if (hash.digest('hex') !== expected) throw ctx.fail('rest_upload_hash_mismatch');
}

export async function createMedia(ctx: Ctx<'cms-v2:media.createMedia'>) {
  const type = routePostType(ctx);
  const files = ctx.request.files;
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (!file || file.size === 0) throw ctx.fail('rest_upload_no_data');
  const name = file.field === null ? rawUploadName(ctx, file) : file.filename || 'unnamed-file';
  await checkHash(ctx, file);
  const f = await fieldsOf(ctx, type, ctx.store);
  const dot = name.lastIndexOf('.');
  const id = await ctx.site.media.add(ctx.store, ctx.site.home, {
    path: file.path,
    filename: name,
    author: ctx.user!.id,
    parent: f.parent,
    // the title defaults to the file's name without its extension
    title: f.title || (dot > 0 ? name.slice(0, dot) : name),
    caption: f.excerpt,
    description: f.content,
    status: f.status,
  });
  const post = await ctx.store.transaction(async (store) => {
    const { title: _t, excerpt: _e, content: _c, parent: _p, status: _s, ...rest } = f;
    if (Object.keys(rest).length) await store.posts.update(id, rest);
    if (typeof ctx.args.alt_text === 'string' && ctx.args.alt_text) await store.posts.meta.set(id, IMAGE_ALT, ctx.args.alt_text.trim());
    await writeRequestMeta(ctx, type, store, id);
    return (await store.posts.get(id))!;
  });
  await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: post.type });
  const data = await prepareOne(ctx, type, post, 'edit');
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `${type.restBase}/${post.id}`), 'X-WP-Upload-Attachment-ID': String(post.id) });
}

export async function updateMedia(ctx: Ctx<'cms-v2:media.updateMedia'>) {
  const type = routePostType(ctx);
  const post = await ctx.store.transaction(async (store) => {
    const current = await attachmentOfRoute(ctx, store, true);
    if (!canEdit(ctx, type, current)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this post' });
    const f = await fieldsOf(ctx, type, store, current);
    if (Object.keys(f).length) await store.posts.update(current.id, f);
    if (typeof ctx.args.alt_text === 'string') await store.posts.meta.set(current.id, IMAGE_ALT, ctx.args.alt_text.trim());
    await writeRequestMeta(ctx, type, store, current.id);
    return (await store.posts.get(current.id))!;
  });
  await contentChanged(ctx, { type: 'postSaved', postId: post.id, postType: post.type });
  return prepareOne(ctx, type, post, 'edit');
}

export async function deleteMedia(ctx: Ctx<'cms-v2:media.deleteMedia'>) {
  const type = routePostType(ctx);
  const post = await attachmentOfRoute(ctx);
  if (!may('delete', ctx, type, post)) throw denied(ctx, 'rest_cannot_delete', { action: 'delete this post' });
  // MEDIA_TRASH is off in WordPress by default: attachments are deleted for good or not at all
  if (ctx.args.force !== true) throw ctx.fail('rest_trash_not_supported');
  const previous = await prepareOne(ctx, type, post, 'edit');
  await ctx.site.media.deleteFiles(ctx.store, post);
  await ctx.store.posts.delete(post.id);
  await contentChanged(ctx, { type: 'postDeleted', postId: post.id, postType: post.type });
  return { deleted: true, previous };
}

// --- the block editor's image work: post-process and edit ---

/** update_item_permissions_check, as post-process and edit ask it: the attachment exists and the caller may edit it. */
async function editableAttachment(ctx: Ctx, type: PostTypeInfo): Promise<PostRow> {
  const post = await attachmentOfRoute(ctx);
  if (!canEdit(ctx, type, post)) throw denied(ctx, 'rest_cannot_edit', { action: 'edit this post' });
  return post;
}

/** POST media/{id}/post-process: `create-image-subsizes` makes the sizes the image lacks; answers the attachment (edit context). */
export async function postProcessMedia(ctx: Ctx<'cms-v2:media.postProcessMedia'>) {
  const type = routePostType(ctx);
  const post = await editableAttachment(ctx, type);
  if (ctx.args.action === 'create-image-subsizes') await ctx.site.media.createMissingSizes(ctx.store, post);
  return prepareOne(ctx, type, (await ctx.store.posts.get(post.id))!, 'edit');
}

/** The types WordPress's image editor edits. */
const EDITABLE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** The edits asked for: `modifiers` when given, else the deprecated `rotation` and `x`/`y`/`width`/`height`. */
function editsOf(ctx: Ctx): ImageEdit[] {
  const a = ctx.args;
  if (Array.isArray(a.modifiers)) {
    return (a.modifiers as { type: string; args: Record<string, number> }[]).map((m) =>
      m.type === 'rotate' ? { type: 'rotate', angle: m.args.angle } : { type: 'crop', left: m.args.left, top: m.args.top, width: m.args.width, height: m.args.height },
    );
  }
  const edits: ImageEdit[] = [];
  if (a.rotation) edits.push({ type: 'rotate', angle: a.rotation });
  if ([a.x, a.y, a.width, a.height].every((v) => typeof v === 'number')) edits.push({ type: 'crop', left: a.x, top: a.y, width: a.width, height: a.height });
  if (!edits.length) throw ctx.fail('rest_image_not_edited');
  return edits;
}

/** POST media/{id}/edit: applies the edits to the image and saves the result as a new attachment (201, view context). */
export async function editMedia(ctx: Ctx<'cms-v2:media.editMedia'>) {
  const type = routePostType(ctx);
  const post = await editableAttachment(ctx, type);
  if (!(await ctx.site.media.fileMatches(ctx.store, post, String(ctx.args.src))))
    throw ctx.fail('rest_unknown_attachment');
  if (!EDITABLE_TYPES.has(post.mime_type)) throw ctx.fail('rest_cannot_edit_file_type');
  const id = await ctx.site.media.editImage(ctx.store, ctx.site.home, post, editsOf(ctx), ctx.user!.id);
  if (id === null) throw ctx.fail('rest_unknown_attachment');
  const created = (await ctx.store.posts.get(id))!;
  await contentChanged(ctx, { type: 'postSaved', postId: id, postType: created.type });
  const data = await prepareOne(ctx, type, created, contextOf(ctx));
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `${type.restBase}/${id}`), 'X-WP-Upload-Attachment-ID': String(id) });
}
