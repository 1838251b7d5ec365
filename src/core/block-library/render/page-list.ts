import type { BlockContext, BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostRow } from '../../../store/posts.ts';
import { escapeAttr, stripAllTags } from '../../../format/format.ts';
import { permalink } from '../../permalinks.ts';
import { titleOf } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';
import { fontSizesOf, has, SUBMENU_ICON } from './navigation.ts';
import { kebabCase } from '../supports/style-engine.ts';

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
  // get_option( 'page_on_front' ), whatever show_on_front says
  const frontPage = Number(ctx.site.info.page_on_front) || 0;
  const context = block.context;
  // the ancestors of the page being shown (get_post_ancestors of the active page)
  const ancestors = new Set<number>();
  for (let p = byId.get(ctx.postId ?? 0); p && p.parent && !ancestors.has(p.parent); p = byId.get(p.parent)) ancestors.add(p.parent);
  const colors = pageListColors(context);
  const fontSizes = fontSizesOf(context);
  // inside a Navigation block, which provides showSubmenuIcon
  const inNavigation = has(context, 'showSubmenuIcon');
  const openOnClick = inNavigation && Boolean(has(context, 'openSubmenusOnClick') && context.openSubmenusOnClick);
  const submenuIcons = Boolean(context.showSubmenuIcon);
  const contentClass = inNavigation ? ' wp-block-navigation-item__content' : '';
  /** block_core_page_list_render_nested_page_list */
  const items = (parent: number, depth: number): string =>
    pages
      .filter((p) => p.parent === parent)
      .map((p) => {
        const children = pages.some((c) => c.parent === p.id) ? items(p.id, depth + 1) : '';
        const active = ctx.postId === p.id;
        let classes = `${active ? ' current-menu-item' : ''}${ancestors.has(p.id) ? ' current-menu-ancestor' : ''}${children ? ' has-child' : ''}`;
        if (inNavigation) classes += ` wp-block-navigation-item${openOnClick ? ' open-on-click' : submenuIcons ? ' open-on-hover-click' : ''}`;
        // the first level of submenus gets the overlay colours: a space even when there are none
        let style = '';
        if (depth === 1) {
          classes += ` ${colors.overlayClasses.join(' ')}`;
          if (colors.overlayStyle) style = ` style="${escapeAttr(colors.overlayStyle)}"`;
        }
        if (p.id === frontPage) classes += ' menu-item-home';
        const title = titleOf(p);
        const label = escapeAttr(`${stripAllTags(title)} submenu`);
        const link = permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath: pathOf(p) });
        let out = `<li class="wp-block-pages-list__item${escapeAttr(classes)}"${style}>`;
        if (children && inNavigation && openOnClick) {
          out += `<button aria-label="${label}" class="${contentClass} wp-block-navigation-submenu__toggle" aria-expanded="false">${title}</button><span class="wp-block-page-list__submenu-icon wp-block-navigation__submenu-icon">${SUBMENU_ICON}</span>`;
        } else out += `<a class="wp-block-pages-list__item__link${contentClass}" href="${escapeAttr(link)}"${active ? ' aria-current="page"' : ''}>${title}</a>`;
        if (children) {
          if (inNavigation && submenuIcons && !openOnClick) out += `<button aria-label="${label}" class="wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle" aria-expanded="false">${SUBMENU_ICON}</button>`;
          out += `<ul class="submenu-container${inNavigation ? ' wp-block-navigation__submenu-container' : ''}">${children}</ul>`;
        }
        return `${out}</li>`;
      })
      .join('');
  const top = items(0, 0);
  const wrapper = wrapperAttributes(block, { class: [...colors.classes, ...fontSizes.classes].join(' '), style: colors.style + fontSizes.style });
  return top ? `<ul ${wrapper}>${top}</ul>` : '';
}

/** block_core_page_list_build_css_colors: the colours the context gives, its overlay's for the first level of submenus. */
function pageListColors(context: BlockContext) {
  const out = { classes: [] as string[], style: '', overlayClasses: [] as string[], overlayStyle: '' };
  const color = ((context.style as Record<string, unknown> | undefined)?.color ?? {}) as Record<string, unknown>;
  for (const [named, picked, fromStyle, hasClass, classOf, property] of [
    ['textColor', 'customTextColor', color.text, 'has-text-color', (v: string) => `has-${v}-color`, 'color'],
    ['backgroundColor', 'customBackgroundColor', color.background, 'has-background', (v: string) => `has-${v}-background-color`, 'background-color'],
  ] as const) {
    if (has(context, named) || has(context, picked) || (fromStyle !== undefined && fromStyle !== null)) out.classes.push(hasClass);
    if (has(context, named)) out.classes.push(classOf(kebabCase(String(context[named]))));
    else if (has(context, picked)) out.style += `${property}: ${String(context[picked])};`;
    else if (fromStyle !== undefined && fromStyle !== null) out.style += `${property}: ${String(fromStyle)};`;
  }
  for (const [named, picked, hasClass, classOf, property] of [
    ['overlayTextColor', 'customOverlayTextColor', 'has-text-color', (v: string) => `has-${v}-color`, 'color'],
    ['overlayBackgroundColor', 'customOverlayBackgroundColor', 'has-background', (v: string) => `has-${v}-background-color`, 'background-color'],
  ] as const) {
    if (has(context, named) || has(context, picked)) out.overlayClasses.push(hasClass);
    if (has(context, named)) out.overlayClasses.push(classOf(kebabCase(String(context[named]))));
    else if (has(context, picked)) out.overlayStyle += `${property}: ${String(context[picked])};`;
  }
  return out;
}
