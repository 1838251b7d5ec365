import { parseBlocks, type BlockContext, type BlockRenderContext, type ParsedBlock, type RenderedBlock } from '../../blocks.ts';
import { escapeAttr, stripAllTags } from '../../../format/format.ts';
import { escUrl } from '../../../format/esc-url.ts';
import { kses } from '../../../format/kses.ts';
import { safeCss, wrapperAttributes } from './wrapper.ts';
import { uniqueId } from './shared.ts';

/**
 * A navigation's items: core/navigation-link and core/navigation-submenu (a wp_navigation post's
 * content, or the links inside a Navigation block), each coloured and sized from the context the
 * Navigation block provides. The item of the page being rendered is the current one.
 */

type Json = Record<string, unknown>;
export const has = (context: BlockContext, key: string) => Object.prototype.hasOwnProperty.call(context, key);

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
export function fontSizesOf(context: BlockContext): { classes: string[]; style: string } {
  if (has(context, 'fontSize')) return { classes: [`has-${String(context.fontSize)}-font-size`], style: '' };
  const custom = ((context.style as Json | undefined)?.typography as Json | undefined)?.fontSize;
  return { classes: [], style: custom !== undefined && custom !== null ? `font-size: ${String(custom)};` : '' };
}

export const SUBMENU_ICON = '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="12" viewBox="0 0 12 12" fill="none" aria-hidden="true" focusable="false"><path d="M1.50002 4L6.00002 8L10.5 4" stroke-width="1.5"></path></svg>';

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
  const submenu = hasSubmenu ? `<ul class="wp-block-navigation__submenu-container">${(await block.renderInnerBlocks()).join('')}</ul>` : '';
  return { wrapper, linkAttributes, hasSubmenu, submenu, label: await kses(String(a.label), 'post') };
}

/** esc_url of a link's address. */
const href = (url: unknown) => escUrl(String(url));

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

/**
 * render_block_core_home_link: a link to the site's home (with WordPress's stray quote before its
 * `rel`), coloured from the Navigation block's text and background colour. WordPress marks it the
 * current page on the home or static front page's main query, which the page context does not
 * carry (a REST rendering has none either), so it is never marked here.
 */
export async function homeLink(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  if (!a.label) return '';
  const c = block.context;
  const color = ((c.style as Json | undefined)?.color ?? {}) as Json;
  const classes: string[] = [];
  let style = '';
  if (has(c, 'textColor') || (color.text !== undefined && color.text !== null)) classes.push('has-text-color');
  if (has(c, 'textColor')) classes.push(`has-${String(c.textColor)}-color`);
  else if (color.text !== undefined && color.text !== null) style += `color: ${String(color.text)};`;
  if (has(c, 'backgroundColor') || (color.background !== undefined && color.background !== null)) classes.push('has-background');
  if (has(c, 'backgroundColor')) classes.push(`has-${String(c.backgroundColor)}-background-color`);
  else if (color.background !== undefined && color.background !== null) style += `background-color: ${String(color.background)};`;
  const sizes = fontSizesOf(c);
  const wrapper = wrapperAttributes(block, { class: `${[...classes, ...sizes.classes].join(' ').trim()} wp-block-navigation-item`, style: style + sizes.style });
  return `<li ${wrapper}><a class="wp-block-home-link__content wp-block-navigation-item__content" href="${href(ctx.site.home)}" "rel="home">${await kses(String(a.label), 'post')}</a></li>`;
}

/** The post type of navigation menus (WordPress's wp_navigation; the block editor plugin registers it). */
const NAVIGATION_POST_TYPE = 'cms_navigation';

/** The blocks a navigation shows in a row of list items; any other closes the list before it. */
const LIST_ITEMS = new Set(['core/navigation-link', 'core/home-link', 'core/site-title', 'core/site-logo', 'core/navigation-submenu']);

const LAYOUT_JUSTIFICATION: Record<string, string> = { left: 'items-justified-left', right: 'items-justified-right', center: 'items-justified-center', 'space-between': 'items-justified-space-between' };

const MENU_ICON = '<svg width="24" height="24" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect x="4" y="7.5" width="16" height="1.5" /><rect x="4" y="15" width="16" height="1.5" /></svg>';
const MENU_ICON_ALT = '<svg width="24" height="24" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M5 5v1.5h14V5H5zm0 7.8h14v-1.5H5v1.5zM5 19h14v-1.5H5V19z" /></svg>';
const CLOSE_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false"><path d="M13 11.8l6.1-6.3-1-1-6.1 6.2-6.1-6.2-1 1 6.1 6.3-6.5 6.7 1 1 6.5-6.6 6.5 6.6 1-1z"></path></svg>';

/** block_core_navigation_build_css_colors: the navigation's own colours and its overlay's. */
function navigationColors(a: Json) {
  const colors = { classes: [] as string[], style: '', overlayClasses: [] as string[], overlayStyle: '' };
  const one = (named: string, custom: string, classOf: (v: string) => string, kind: 'has-text-color' | 'has-background', property: string, overlay: boolean) => {
    const classes = overlay ? colors.overlayClasses : colors.classes;
    if (named in a || custom in a) classes.push(kind);
    if (named in a) classes.push(classOf(String(a[named])));
    else if (custom in a) {
      if (overlay) colors.overlayStyle += `${property}: ${String(a[custom])};`;
      else colors.style += `${property}: ${String(a[custom])};`;
    }
  };
  one('textColor', 'customTextColor', (v) => `has-${v}-color`, 'has-text-color', 'color', false);
  one('backgroundColor', 'customBackgroundColor', (v) => `has-${v}-background-color`, 'has-background', 'background-color', false);
  one('overlayTextColor', 'customOverlayTextColor', (v) => `has-${v}-color`, 'has-text-color', 'color', true);
  one('overlayBackgroundColor', 'customOverlayBackgroundColor', (v) => `has-${v}-background-color`, 'has-background', 'background-color', true);
  return colors;
}

/** The blocks of a navigation menu post, without the text between them (block_core_navigation_filter_out_empty_blocks). */
const menuBlocks = (post: { content: string }): ParsedBlock[] => parseBlocks(post.content).filter((p): p is ParsedBlock => typeof p !== 'string');

/**
 * render_block_core_navigation: its items (its own inner blocks, else the published menu post its
 * `ref` names, else the most recently published menu, else a page list), list items grouped in a
 * `<ul>`, in a `<nav>` with its colours, sizes and layout classes; a navigation that collapses on
 * small screens (`overlayMenu`, by default on mobile) wraps them in the responsive container
 * with its open and close buttons.
 */
export async function navigation(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a: Json = { ...block.attributes };
  if (a.rgbTextColor !== undefined && !a.textColor) a.customTextColor = a.rgbTextColor;
  if (a.rgbBackgroundColor !== undefined && !a.backgroundColor) a.customBackgroundColor = a.rgbBackgroundColor;
  delete a.rgbTextColor;
  delete a.rgbBackgroundColor;
  const responsive = (a.overlayMenu !== undefined && a.overlayMenu !== 'never') || Boolean(a.isResponsive);
  if ('navigationMenuId' in a) a.ref = a.navigationMenuId;
  const registry = ctx.site.blocks;
  let items: { name: string; html: string }[] | null = block.innerBlocks.length ? (await block.renderInnerBlocks()).map((html, i) => ({ name: block.innerBlocks[i].name, html })) : null;
  let menuName = '';
  // a menu post's blocks get the navigation's attributes as their context (new WP_Block_List( $blocks, $attributes ))
  const fromPost = async (post: { content: string }) => {
    const blocks = menuBlocks(post);
    return blocks.length ? (await registry.renderEach(blocks, a, ctx)).map((html, i) => ({ name: blocks[i].name, html })) : null;
  };
  if ('ref' in a) {
    const post = typeof a.ref === 'number' ? await ctx.store.posts.get(a.ref) : undefined;
    if (!post) return '';
    if (post.status === 'publish') {
      // render_block_core_navigation's `static $seen_menu_names`: a menu's name met before in the request is numbered
      const seen = ctx.supports ? ctx.supports.staticCounter(`core/navigation menu name ${post.title}`) : 1;
      menuName = seen > 1 ? `${post.title} ${seen}` : post.title;
      items = await fromPost(post);
    }
  }
  let fallback = false;
  if (!items) {
    fallback = true;
    const [latest] = (await ctx.store.posts.query({ types: [NAVIGATION_POST_TYPE], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit: 1 })).rows;
    items = (latest && (await fromPost(latest))) || (registry.get('core/page-list') ? await fromPost({ content: '<!-- wp:page-list /-->' }) : null);
    if (!items) return '';
  }
  const layout = (a.layout ?? {}) as Json;
  let layoutClass = '';
  if (typeof layout.justifyContent === 'string') layoutClass += LAYOUT_JUSTIFICATION[layout.justifyContent] ?? '';
  if (layout.orientation === 'vertical') layoutClass += ' is-vertical';
  if (layout.flexWrap === 'nowrap') layoutClass += ' no-wrap';
  const textDecoration = ((a.style as Json | undefined)?.typography as Json | undefined)?.textDecoration;
  const colors = navigationColors(a);
  const sizeClasses = 'fontSize' in a ? [`has-${String(a.fontSize)}-font-size`] : [];
  const sizeStyle = !('fontSize' in a) && 'customFontSize' in a ? `font-size: ${String(a.customFontSize)}px;` : '';
  const classes = [...colors.classes, ...sizeClasses, ...(responsive ? ['is-responsive'] : []), ...(layoutClass ? [layoutClass] : []), ...(fallback ? ['is-fallback'] : []), ...(textDecoration ? [`has-text-decoration-${String(textDecoration)}`] : [])];
  let html = '';
  let open = false;
  for (const item of items) {
    const listed = LIST_ITEMS.has(item.name);
    if (listed && !open) {
      open = true;
      html += '<ul class="wp-block-navigation__container">';
    }
    if (!listed && open) {
      open = false;
      html += '</ul>';
    }
    html += item.name === 'core/site-title' || (item.name === 'core/site-logo' && item.html) ? `<li class="wp-block-navigation-item">${item.html}</li>` : item.html;
  }
  if (open) html += '</ul>';
  const wrapper = wrapperAttributes(block, { class: classes.join(' '), style: `${typeof a.styles === 'string' ? a.styles : ''}${colors.style}${sizeStyle}`, 'aria-label': menuName });
  const modalId = uniqueId(ctx, 'modal-');
  if (!responsive) return `<nav ${wrapper}>${html}</nav>`;
  const hiddenByDefault = a.overlayMenu === 'always';
  const containerClasses = ['wp-block-navigation__responsive-container', hiddenByDefault ? 'hidden-by-default' : '', colors.overlayClasses.join(' ')].join(' ');
  const openClasses = ['wp-block-navigation__responsive-container-open', hiddenByDefault ? 'always-shown' : ''].join(' ');
  const iconLabel = a.hasIcon === true;
  const openContent = iconLabel ? (a.icon === 'menu' ? MENU_ICON_ALT : MENU_ICON) : 'Menu';
  const closeContent = iconLabel ? CLOSE_ICON : 'Close';
  const openLabel = iconLabel ? 'aria-label="Open menu"' : '';
  const closeLabel = iconLabel ? 'aria-label="Close menu"' : '';
  const container = `<button aria-haspopup="true" ${openLabel} class="${escapeAttr(openClasses)}" data-micromodal-trigger="${modalId}">${openContent}</button>
			<div class="${escapeAttr(containerClasses)}" style="${escapeAttr(safeCss(colors.overlayStyle))}" id="${modalId}">
				<div class="wp-block-navigation__responsive-close" tabindex="-1" data-micromodal-close>
					<div class="wp-block-navigation__responsive-dialog" aria-label="Menu">
							<button ${closeLabel} data-micromodal-close class="wp-block-navigation__responsive-container-close">${closeContent}</button>
						<div class="wp-block-navigation__responsive-container-content" id="${modalId}-content">
							${html}
						</div>
					</div>
				</div>
			</div>`;
  return `<nav ${wrapper}>${container}</nav>`;
}
