import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostRow } from '../../../store/posts.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { permalink } from '../../permalinks.ts';
import { gravatarBase } from '../../rest.ts';
import { BlockSupportsState } from '../supports/state.ts';

/** What the core's block renderers share: the post of a block's context, a post's link, title and dates, an integer attribute, an avatar, wp_unique_id. */

export const postLink = (ctx: BlockRenderContext, p: PostRow) => permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date });
export const titleOf = (p: PostRow) => escapeHtml(p.title.trim() || '(no title)');
export const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback);

/** The post of a block's context (`postId`), when there is one. */
export async function contextPost(block: RenderedBlock, ctx: BlockRenderContext): Promise<PostRow | undefined> {
  const id = block.context.postId;
  return typeof id === 'number' ? ctx.store.posts.get(id) : undefined;
}

/** get_permalink of a post, a page's parents' slugs included. */
export async function postPermalink(ctx: BlockRenderContext, p: PostRow): Promise<string> {
  const parentPath = p.parent ? (await ctx.store.posts.ancestorSlugs(p)).join('/') : undefined;
  return permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath });
}

/**
 * get_avatar: the gravatar of an address at a size, twice that size for 2x screens, as WordPress
 * writes the tag (`extraAttributes` before its loading and decoding), from the host avatar_urls
 * use (gravatarBase: secure.gravatar.com on a site served over https).
 */
export function avatarImage(ctx: BlockRenderContext, email: string, size: number, alt = '', extraClass = '', extraAttributes = ''): string {
  const base = gravatarBase(email, ctx.site.home);
  const url = (s: number) => `${base}?s=${s}&#038;d=mm&#038;r=g`;
  const classes = ['avatar', `avatar-${size}`, 'photo', ...(extraClass ? [extraClass] : [])].join(' ');
  return `<img alt='${escapeAttr(alt)}' src='${url(size)}' srcset='${url(size * 2)} 2x' class='${escapeAttr(classes)}' height='${size}' width='${size}' ${extraAttributes ? `${extraAttributes} ` : ''}loading='lazy' decoding='async'/>`;
}

/** wp_unique_id: the prefix and the request's next number, shared with the block supports' ids (`wp-container-N`). */
export const uniqueId = (ctx: BlockRenderContext, prefix: string) => (ctx.supports ??= new BlockSupportsState()).uniqueId(prefix);

/** wp_login_url: the login screen (this site's, under the admin's address), sending the browser back to `redirect` afterwards. */
export function loginUrl(ctx: BlockRenderContext, redirect: string): string {
  const url = ctx.site.url(`${ctx.site.adminPath}login`);
  return redirect ? `${url}?${new URLSearchParams({ redirect_to: redirect }).toString()}` : url;
}
