import { RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { STYLESHEET, partArea } from '../../core/active-theme.ts';
import { rawText } from '../../core/post-list.ts';
import { saveRevision } from '../../core/revisions.ts';
import { CURIES, contextOf, nsUrl, routePostType, type Context } from '../../core/rest.ts';
import { TEMPLATE_META, fileTemplate, findTemplate, queryTemplates, resolveTemplate, templateHierarchy, type BlockTemplate, type TemplateType } from '../../core/templates.ts';
import { kses, type KsesContext } from '../../format/kses.ts';
import type { Store } from '../../store/index.ts';
import type { PostPatch } from '../../store/posts.ts';

/**
 * WP_REST_Templates_Controller (6.1), once for templates and once for template parts: the route's
 * `config.post_type` says which. Every route needs edit_theme_options (the spec checks it).
 */


/**
 * _sanitize_template_id: an id with one `/` between theme and slug means `//` (the router also
 * drops the empty segment of a `//` in the path, which this puts back).
 */
function templateId(ctx: Ctx): string {
  const id = String(ctx.args.id ?? '');
  const last = id.lastIndexOf('/');
  if (last < 0 || id[last - 1] === '/') return id;
  return `${id.slice(0, last)}//${id.slice(last + 1)}`;
}

const typeOf = (ctx: Ctx) => routePostType(ctx).slug as TemplateType;

/** block_version: 1 for content made of blocks, else 0. */
const blockVersion = (content: string) => (content.includes('<!-- wp:') ? 1 : 0);

/** prepare_item_for_response: the template's fields (all of them in every context but content's), with its links. */
function prepareTemplate(ctx: Ctx, t: BlockTemplate, context: Context): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  if (context !== 'embed') content.raw = t.content;
  if (context === 'edit') content.block_version = blockVersion(t.content);
  const data: Record<string, unknown> = {
    id: t.id,
    theme: t.theme,
    // an object with nothing left in it is an empty PHP array, a JSON list
    content: Object.keys(content).length ? content : [],
    slug: t.slug,
    source: t.source,
    origin: t.origin,
    type: t.type,
    description: t.description,
    title: { raw: t.title, rendered: t.title },
    status: t.status,
    wp_id: t.wpId,
    has_theme_file: t.hasThemeFile,
  };
  if (t.type === 'cms_template') data.is_custom = t.isCustom;
  data.author = t.author;
  if (t.type === 'cms_template_part') data.area = t.area ?? null;
  const type = routePostType(ctx);
  const self = nsUrl(ctx, `${type.restBase}/${t.id}`);
  const links: Record<string, unknown> = {
    self: [{ href: self }],
    collection: [{ href: nsUrl(ctx, type.restBase) }],
    about: [{ href: nsUrl(ctx, `types/${type.slug}`) }],
  };
  // get_available_actions: the template types' publish_posts is edit_theme_options
  if (ctx.can('edit_theme_options')) links['wp:action-publish'] = [{ href: self }];
  if (ctx.can('unfiltered_html')) links['wp:action-unfiltered-html'] = [{ href: self }];
  links.curies = CURIES;
  data._links = links;
  return data;
}

export async function listTemplates(ctx: Ctx<'cms-v2:templates.listTemplates'>) {
  const a = ctx.args;
  const templates = await queryTemplates(ctx.store, ctx.site, typeOf(ctx), {
    wpId: typeof a.wp_id === 'number' ? a.wp_id : undefined,
    area: typeof a.area === 'string' ? a.area : undefined,
    postType: typeof a.post_type === 'string' && a.post_type ? a.post_type : undefined,
  });
  const context = contextOf(ctx);
  return templates.map((t) => prepareTemplate(ctx, t, context));
}

export async function getTemplate(ctx: Ctx<'cms-v2:templates.getTemplate'>) {
  const type = typeOf(ctx);
  const id = templateId(ctx);
  // `source=theme` asks for the theme's file even where a stored template overrides it
  const t = ctx.args.source === 'theme' ? fileTemplate(type, id) : await findTemplate(ctx.store, ctx.site, type, id);
  if (!t) throw ctx.fail('rest_template_not_found');
  return prepareTemplate(ctx, t, contextOf(ctx));
}

/** get_template_fallback: the template the site would show for a slug not made yet (the first of its hierarchy it has). */
export async function lookupTemplate(ctx: Ctx<'cms-v2:templates.lookupTemplate'>) {
  const hierarchy = templateHierarchy(String(ctx.args.slug), ctx.args.is_custom === true, typeof ctx.args.template_prefix === 'string' ? ctx.args.template_prefix : '');
  const t = await resolveTemplate(ctx.store, ctx.site, hierarchy);
  // the theme always has index.html, the last of every hierarchy
  if (!t) throw ctx.fail('rest_template_not_found');
  return prepareTemplate(ctx, t, 'view');
}

/** What the caller may store: without unfiltered_html, kses filters it as wp_insert_post does. */
async function saved(ctx: Ctx, text: string | undefined, context: KsesContext): Promise<string | undefined> {
  return text === undefined || ctx.can('unfiltered_html') ? text : kses(text, context);
}

interface Changes {
  post: PostPatch;
  theme?: string;
  area?: string;
}

/**
 * prepare_item_for_database: the post a create (no template), a first edit of a theme file (a
 * new post carrying the file's fields) or an edit of a stored template writes. Templates are
 * always published.
 */
async function changesOf(ctx: Ctx, store: Store, type: TemplateType, template: BlockTemplate | null): Promise<Changes> {
  const a = ctx.args;
  const fromFile = template !== null && template.source !== 'custom';
  const changes: Changes = { post: { status: 'publish' } };
  if (!template) changes.theme = typeof a.theme === 'string' ? a.theme : STYLESHEET;
  else if (fromFile) changes.theme = template.theme;
  if (template) changes.post.slug = template.slug;
  const content = rawText(a.content);
  if (content !== undefined) changes.post.content = await saved(ctx, content, 'post');
  else if (fromFile) changes.post.content = template.content;
  // a title object counts only with a non-empty raw title
  const title = typeof a.title === 'string' ? a.title : rawText(a.title) || undefined;
  if (title !== undefined) changes.post.title = await saved(ctx, title, 'data');
  else if (fromFile) changes.post.title = template.title;
  if (typeof a.description === 'string') changes.post.excerpt = await saved(ctx, a.description, 'post');
  else if (fromFile) changes.post.excerpt = template.description;
  if (type === 'cms_template_part') {
    if (typeof a.area === 'string') changes.area = partArea(a.area);
    else if (fromFile && template.area) changes.area = partArea(template.area);
    else if (!template?.area) changes.area = 'uncategorized';
  }
  if (a.author) {
    const author = Number(a.author);
    if (author !== ctx.user?.id && !(await store.users.get(author))) throw ctx.fail('rest_invalid_author');
    changes.post.author = author;
  }
  return changes;
}

/** wp_insert_post refuses a post of a type with a title, editor and excerpt when all three are empty. */
const isEmpty = (p: PostPatch) => !p.title && !p.content && !p.excerpt;

async function writeTemplateMeta(store: Store, postId: number, changes: Changes): Promise<void> {
  if (changes.theme !== undefined) await store.posts.meta.set(postId, TEMPLATE_META.theme, changes.theme);
  if (changes.area !== undefined) await store.posts.meta.set(postId, TEMPLATE_META.area, changes.area);
}

/** wp_insert_post for a template: its author is the caller unless given. */
async function insertTemplate(ctx: Ctx, store: Store, type: TemplateType, changes: Changes): Promise<number> {
  const id = await store.posts.insert({ author: ctx.user?.id ?? 0, comment_status: 'closed', ping_status: 'closed', ...changes.post, type });
  await writeTemplateMeta(store, id, changes);
  return id;
}

export async function createTemplate(ctx: Ctx<'cms-v2:templates.createTemplate'>) {
  const type = typeOf(ctx);
  const template = await ctx.store.transaction(async (store) => {
    const changes = await changesOf(ctx, store, type, null);
    changes.post.slug = String(ctx.args.slug);
    if (isEmpty(changes.post)) throw ctx.fail('empty_content');
    const postId = await insertTemplate(ctx, store, type, changes);
    const [created] = await queryTemplates(store, ctx.site, type, { wpId: postId });
    if (!created) throw ctx.fail('rest_template_insert_error');
    return findTemplate(store, ctx.site, type, created.id);
  });
  const data = prepareTemplate(ctx, template!, contextOf(ctx));
  return new RestResponse(data, 201, { Location: nsUrl(ctx, `${routePostType(ctx).restBase}/${template!.id}`) });
}

export async function updateTemplate(ctx: Ctx<'cms-v2:templates.updateTemplate'>) {
  const type = typeOf(ctx);
  const id = templateId(ctx);
  const template = await ctx.store.transaction(async (store) => {
    const current = await findTemplate(store, ctx.site, type, id);
    if (!current) throw ctx.fail('rest_template_not_found');
    // `source=theme` reverts to the theme's file: the stored template goes
    if (ctx.args.source === 'theme') {
      if (current.wpId) await store.posts.delete(current.wpId);
      return findTemplate(store, ctx.site, type, id);
    }
    const changes = await changesOf(ctx, store, type, current);
    if (current.source === 'custom') {
      // wp_update_post keeps the stored fields not given; one left with nothing in title, content and excerpt is not saved
      const stored = (await store.posts.get(current.wpId, true))!;
      if (!isEmpty({ ...stored, ...changes.post })) {
        await store.posts.update(current.wpId, changes.post);
        await writeTemplateMeta(store, current.wpId, changes);
        // wp_update_post saves a revision of a template as of any post (core/revisions.ts)
        await saveRevision(store, routePostType(ctx), (await store.posts.get(current.wpId))!, ctx.user?.id ?? 0);
      }
    } else if (!isEmpty(changes.post)) {
      await insertTemplate(ctx, store, type, changes);
    }
    return findTemplate(store, ctx.site, type, id);
  });
  if (!template) throw ctx.fail('rest_template_not_found');
  return prepareTemplate(ctx, template, 'edit');
}

export async function deleteTemplate(ctx: Ctx<'cms-v2:templates.deleteTemplate'>) {
  const type = typeOf(ctx);
  const id = templateId(ctx);
  return ctx.store.transaction(async (store) => {
    const template = await findTemplate(store, ctx.site, type, id);
    if (!template) throw ctx.fail('rest_template_not_found');
    if (template.source !== 'custom') throw ctx.fail('rest_invalid_template');
    if (ctx.args.force === true) {
      const previous = prepareTemplate(ctx, template, 'edit');
      await store.posts.delete(template.wpId);
      return { deleted: true, previous };
    }
    if (template.status === 'trash') throw ctx.fail('rest_template_already_trashed');
    // wp_trash_post (PostsRepo.update): the trashed post's slug gets `__trashed`, so that the
    // theme's file (or a new template) takes the id again
    await store.posts.update(template.wpId, { status: 'trash' });
    return prepareTemplate(ctx, { ...template, status: 'trash' }, 'edit');
  });
}
