import type { BlockContext, BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr, stripAllTags } from '../../../format/format.ts';
import { kses } from '../../../format/kses.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * A navigation's items: core/navigation-link and core/navigation-submenu (a wp_navigation post's
 * content, or the links inside a Navigation block), each coloured and sized from the context the
 * Navigation block provides. The item of the page being rendered is the current one.
 */

type Json = Record<string, unknown>;
const has = (context: BlockContext, key: string) => Object.prototype.hasOwnProperty.call(context, key);

/** block_core_navigation_link_build_css_colors: the text and background colour from the context, the overlay ones inside a submenu. */
function colorsOf(context: BlockContext, isSubmenu: boolean): { classes: string[]; style: string } {
  const classes: string[] = [];
  let style = '';
  const pick = (overlayCustom: string, overlayNamed: string, custom: string, named: string, styleKey: string): [named: unknown, custom: unknown] => {
    if (isSubmenu && has(context, overlayCustom)) return [null, context[overlayCustom]];
    if (isSubmenu && has(context, overlayNamed)) return [context[overlayNamed], null];
    if (has(context, custom)) return [null, context[custom]];
    if (has(context, named)) return [context[named], null];
    const fromStyle = ((context.style as Json | undefined)?.color as Json | undefined)?.[styleKey];
    return [null, fromStyle ?? null];
  };
  const [namedText, customText] = pick('customOverlayTextColor', 'overlayTextColor', 'customTextColor', 'textColor', 'text');
  if (namedText !== null && namedText !== undefined) classes.push('has-text-color', `has-${String(namedText)}-color`);
  else if (customText !== null && customText !== undefined) {
    classes.push('has-text-color');
    style += `color: ${String(customText)};`;
  }
  const [namedBackground, customBackground] = pick('customOverlayBackgroundColor', 'overlayBackgroundColor', 'customBackgroundColor', 'backgroundColor', 'background');
  if (namedBackground !== null && namedBackground !== undefined) classes.push('has-background', `has-${String(namedBackground)}-background-color`);
  else if (customBackground !== null && customBackground !== undefined) {
    classes.push('has-background');
    style += `background-color: ${String(customBackground)};`;
  }
  return { classes, style };
}

/** block_core_navigation_link_build_css_font_sizes: a named size's class, else the custom size inline (this site's theme has no fluid typography). */
function fontSizesOf(context: BlockContext): { classes: string[]; style: string } {
  if (has(context, 'fontSize')) return { classes: [`has-${String(context.fontSize)}-font-size`], style: '' };
  const custom = ((context.style as Json | undefined)?.typography as Json | undefined)?.fontSize;
  return { classes: [], style: custom !== undefined && custom !== null ? `font-size: ${String(custom)};` : '' };
}

const SUBMENU_ICON = '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12" fill="none" aria-hidden="true" focusable="false"><path d="M1.50002 4L6.00002 8L10.5 4" stroke-width="1.5"></path></svg>';

/** What a link and a submenu share: whether it is shown at all (a post or page that is not published is not), and its wrapper and link attributes. */
async function itemOf(block: RenderedBlock, ctx: BlockRenderContext, topLevelKey: string, extraClasses: (hasSubmenu: boolean, active: boolean) => string) {
  const a = block.attributes;
  const id = typeof a.id === 'number' ? a.id : undefined;
  const postType = a.kind === 'post-type' || a.type === 'post' || a.type === 'page';
  if (postType && id !== undefined) {
    const post = await ctx.store.posts.get(id);
    if (!post || post.status !== 'publish') return null;
  }
  if (!a.label) return null;
  const isSubmenu = a[topLevelKey] !== undefined ? !a[topLevelKey] : false;
  const colors = colorsOf(block.context, isSubmenu);
  const sizes = fontSizesOf(block.context);
  const cssClasses = [...colors.classes, ...sizes.classes].join(' ').trim();
  const hasSubmenu = block.innerBlocks.length > 0;
  const active = Boolean(id) && ctx.postId === id;
  const wrapper = wrapperAttributes(block, { class: `${cssClasses} wp-block-navigation-item${extraClasses(hasSubmenu, active)}`, style: colors.style + sizes.style });
  let linkAttributes = '';
  if (active) linkAttributes += ' aria-current="page"';
  if (a.opensInNewTab === true) linkAttributes += ' target="_blank"  ';
  if (a.rel !== undefined) linkAttributes += ` rel="${escapeAttr(String(a.rel))}"`;
  else if (a.nofollow) linkAttributes += ' rel="nofollow"';
  if (a.title !== undefined) linkAttributes += ` title="${escapeAttr(String(a.title))}"`;
  const submenu = hasSubmenu ? `<ul class="wp-block-navigation__submenu-container">${await block.renderInnerBlocks()}</ul>` : '';
  return { wrapper, linkAttributes, hasSubmenu, submenu, label: await kses(String(a.label), 'post') };
}

/** esc_url of a link's address. */
const href = (url: unknown) => escapeAttr(String(url)).replace(/&amp;/g, '&#038;');

/** render_block_core_navigation_link: the link in a list item, its description, and its submenu when it holds links. */
export async function navigationLink(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const item = await itemOf(block, ctx, 'isTopLevelLink', (sub, active) => `${sub ? ' has-child' : ''}${active ? ' current-menu-item' : ''}`);
  if (!item) return '';
  const a = block.attributes;
  let html = `<li ${item.wrapper}><a class="wp-block-navigation-item__content" ${a.url !== undefined ? ` href="${href(a.url)}"` : ''}${item.linkAttributes}><span class="wp-block-navigation-item__label">${item.label}</span>`;
  if (a.description) html += `<span class="wp-block-navigation-item__description">${await kses(String(a.description), 'post')}</span>`;
  html += '</a>';
  if (block.context.showSubmenuIcon && item.hasSubmenu) html += `<span class="wp-block-navigation__submenu-icon">${SUBMENU_ICON}</span>`;
  return `${html}${item.submenu}</li>`;
}

/** render_block_core_navigation_submenu: its link (or, opening on click, a toggle button) and its links below. */
export async function navigationSubmenu(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const c = block.context;
  const showIcon = Boolean(c.showSubmenuIcon);
  const onClick = Boolean(c.openSubmenusOnClick);
  const onHoverAndClick = c.openSubmenusOnClick !== undefined && !c.openSubmenusOnClick && showIcon;
  const item = await itemOf(block, ctx, 'isTopLevelItem', (sub, active) => `${sub ? ' has-child' : ''}${onClick ? ' open-on-click' : ''}${onHoverAndClick ? ' open-on-hover-click' : ''}${active ? ' current-menu-item' : ''}`);
  if (!item) return '';
  const a = block.attributes;
  const ariaLabel = escapeAttr(`${stripAllTags(item.label)} submenu`);
  let html = `<li ${item.wrapper}>`;
  if (!onClick) {
    html += `<a class="wp-block-navigation-item__content"${a.url ? ` href="${href(a.url)}"` : ''}${item.linkAttributes}>${item.label}</a>`;
    if (showIcon) html += `<button aria-label="${ariaLabel}" class="wp-block-navigation__submenu-icon wp-block-navigation-submenu__toggle" aria-expanded="false">${SUBMENU_ICON}</button>`;
  } else {
    html += `<button aria-label="${ariaLabel}" class="wp-block-navigation-item__content wp-block-navigation-submenu__toggle" aria-expanded="false"><span class="wp-block-navigation-item__label">${item.label}</span></button>`;
    html += `<span class="wp-block-navigation__submenu-icon">${SUBMENU_ICON}</span>`;
  }
  return `${html}${item.submenu}</li>`;
}
