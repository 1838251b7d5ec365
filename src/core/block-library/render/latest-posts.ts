import type { BlockRenderContext, ParsedBlock, RenderedBlock } from '../../blocks.ts';
import { phpInt } from '../../../format/php-values.ts';
import { escapeAttr, escapeHtml, excerptText, renderContent } from '../../../format/format.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { int, postLink, titleOf } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * block_core_latest_posts_migrate_categories (render_block_data): a category the block's first
 * versions saved as one id in a string (`"categories":"6"`) becomes the list of `{id}` later ones save.
 */
export function latestPostsCategories(block: ParsedBlock): ParsedBlock {
  const saved = block.attrs.categories;
  if (typeof saved !== 'string' || saved === '' || saved === '0') return block;
  return { ...block, attrs: { ...block.attrs, categories: [{ id: Math.abs(phpInt(saved)) }] } };
}

/** render_block_core_latest_posts: the newest published posts as a list (or grid), with the dates, authors and excerpts asked for. */
export async function latestPosts(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const categories = Array.isArray(a.categories) ? a.categories.map((c) => int((c as { id?: unknown })?.id, 0)).filter((id) => id > 0) : [];
  const author = int(a.selectedAuthor, 0);
  const { rows } = await ctx.store.posts.query({
    types: ['post'],
    statuses: ['publish'],
    ...(categories.length ? { categories } : {}),
    ...(author > 0 ? { authors: [author] } : {}),
    orderby: a.orderBy === 'title' ? 'title' : 'date',
    order: a.order === 'asc' ? 'asc' : 'desc',
    offset: 0,
    limit: Math.max(1, Math.min(100, int(a.postsToShow, 5))),
  });
  const authors = a.displayAuthor ? new Map((await Promise.all([...new Set(rows.map((p) => p.author))].map((id) => ctx.store.users.get(id)))).filter((u) => u).map((u) => [u!.id, u!])) : null;
  const dateFormat = ctx.site.options.date_format || 'F j, Y';
  let items = '';
  for (const p of rows) {
    items += `<li><a class="wp-block-latest-posts__post-title" href="${escapeAttr(postLink(ctx, p))}">${titleOf(p)}</a>`;
    const by = authors?.get(p.author);
    if (by) items += `<div class="wp-block-latest-posts__post-author">by ${escapeHtml(by.display_name)}</div>`;
    if (a.displayPostDate) items += `<time datetime="${escapeAttr(ctx.site.isoDate(p.date))}" class="wp-block-latest-posts__post-date">${escapeHtml(formatLocalDate(dateFormat, p.date))}</time>`;
    if (a.displayPostContent && a.displayPostContentRadio === 'excerpt') {
      const excerpt = p.password ? 'There is no excerpt because this is a protected post.' : excerptText(p.excerpt, renderContent(p.content), int(a.excerptLength, 55), ' &hellip;');
      items += `<div class="wp-block-latest-posts__post-excerpt">${excerpt}</div>`;
    }
    if (a.displayPostContent && a.displayPostContentRadio === 'full_post')
      items += `<div class="wp-block-latest-posts__post-full-content">${p.password ? 'This content is password protected.' : renderContent(p.content)}</div>`;
    items += '</li>\n';
  }
  let own = 'wp-block-latest-posts__list';
  if (a.postLayout === 'grid') own += ` is-grid columns-${int(a.columns, 3)}`;
  if (a.displayPostDate) own += ' has-dates';
  if (a.displayAuthor) own += ' has-author';
  return `<ul ${wrapperAttributes(block, { class: own })}>${items}</ul>`;
}
