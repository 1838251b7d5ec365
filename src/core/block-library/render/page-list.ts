import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostRow } from '../../../store/posts.ts';
import { escapeAttr } from '../../../format/format.ts';
import { permalink } from '../../permalinks.ts';
import { titleOf } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * render_block_core_page_list: the published pages by menu order then title, each page's children
 * nested under it, the page being shown marked current.
 */
export async function pageList(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const { rows } = await ctx.store.posts.query({ types: ['page'], statuses: ['publish'], orderby: 'menu_order', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const pages = [...rows].sort((x, y) => x.menu_order - y.menu_order || x.title.localeCompare(y.title));
  const byId = new Map(pages.map((p) => [p.id, p]));
  const pathOf = (p: PostRow): string => {
    const slugs: string[] = [];
    const seen = new Set([p.id]);
    for (let parent = byId.get(p.parent); parent && !seen.has(parent.id); parent = byId.get(parent.parent)) {
      seen.add(parent.id);
      slugs.unshift(parent.slug);
    }
    return slugs.join('/');
  };
  const frontPage = ctx.site.info.show_on_front === 'page' ? ctx.site.info.page_on_front : 0;
  const items = (parent: number): string =>
    pages
      .filter((p) => p.parent === parent)
      .map((p) => {
        const children = items(p.id);
        const active = ctx.postId === p.id;
        const classes = `${active ? ' current-menu-item' : ''}${children ? ' has-child' : ''}${p.id === frontPage ? ' menu-item-home' : ''}`;
        const link = permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath: pathOf(p) });
        return `<li class="wp-block-pages-list__item${classes}"><a class="wp-block-pages-list__item__link" href="${escapeAttr(link)}"${active ? ' aria-current="page"' : ''}>${titleOf(p)}</a>${children ? `<ul class="submenu-container">${children}</ul>` : ''}</li>`;
      })
      .join('');
  const top = items(0);
  return top ? `<ul ${wrapperAttributes(block)}>${top}</ul>` : '';
}
