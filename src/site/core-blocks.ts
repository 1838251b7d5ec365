import type { BlockRenderContext, BlockSet, BlockTypeDefinition, RenderedBlock } from '../core/blocks.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import { escapeAttr, escapeHtml, excerptText, renderContent } from './format.ts';
import { dateArchivePermalink, permalink, termPermalink } from './permalinks.ts';
import { formatLocalDate } from './templates.ts';

/**
 * The core blocks this site renders, with WordPress 6.1's block.json metadata (name, title,
 * category, description, keywords, attributes, supports, styles), and the core's block patterns
 * and pattern categories. Static blocks print their saved markup; the dynamic ones (latest posts,
 * archives, categories, tag cloud, search, page list, site title and tagline) are rendered here from the
 * stored content, as their render_block_core_* callbacks do.
 */

const TEXT_SUPPORTS = {
  anchor: true,
  color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } },
  spacing: { margin: true, padding: true },
  typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalDefaultControls: { fontSize: true } },
};

const CONTENT = '__experimentalRole';

/** The wrapper's class (get_block_wrapper_attributes): the block's own classes, its generated class name, its alignment and custom class. */
function wrapperClass(block: RenderedBlock, own = ''): string {
  const a = block.attributes;
  const classes = [own, `wp-block-${block.name.replace(/^core\//, '').replace('/', '-')}`];
  if (typeof a.align === 'string' && a.align) classes.push(`align${a.align}`);
  if (typeof a.className === 'string' && a.className.trim()) classes.push(a.className.trim());
  return escapeAttr(classes.filter(Boolean).join(' '));
}

const postLink = (ctx: BlockRenderContext, p: PostRow) => permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date });
const titleOf = (p: PostRow) => escapeHtml(p.title.trim() || '(no title)');
const int = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : fallback);

/** render_block_core_latest_posts: the newest published posts as a list (or grid), with the dates, authors and excerpts asked for. */
async function latestPosts(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
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
    if (a.displayPostDate) items += `<time datetime="${escapeAttr(p.date_gmt.replace(' ', 'T'))}+00:00" class="wp-block-latest-posts__post-date">${escapeHtml(formatLocalDate(dateFormat, p.date))}</time>`;
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
  return `<ul class="${wrapperClass(block, own)}">${items}</ul>`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// WordPress 6.1 appends these to an empty class (`$class .= ' wp-block-archives-list'`), and the wrapper keeps the leading space
const ARCHIVES_LIST = ' wp-block-archives-list';
const ARCHIVES_DROPDOWN = ' wp-block-archives-dropdown';

/** render_block_core_archives: wp_get_archives' monthly or yearly list (or dropdown) of the published posts. */
async function archives(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const by = a.type === 'yearly' ? 'yearly' : 'monthly';
  const periods = await ctx.store.archives.periods('post', by);
  const label = (y: number, m?: number) => (m ? `${MONTHS[m - 1]} ${y}` : String(y));
  if (a.displayAsDropdown) {
    const title = by === 'yearly' ? 'Select Year' : 'Select Month';
    const id = 'wp-block-archives-1';
    const options = periods.map((p) => `\t<option value='${escapeAttr(dateArchivePermalink(ctx.site, p.year, p.month))}'> ${label(p.year, p.month)}${a.showPostCounts ? `&nbsp;(${p.count})` : ''}</option>\n`).join('');
    const labelHtml = `<label for="${id}" class="wp-block-archives__label${a.showLabel === false ? ' screen-reader-text' : ''}">Archives</label>`;
    return `<div class="${wrapperClass(block, ARCHIVES_DROPDOWN)}">${labelHtml}\n\t\t<select id="${id}" name="archive-dropdown" onchange="document.location.href=this.options[this.selectedIndex].value;">\n\t\t<option value="">${title}</option>${options}</select></div>`;
  }
  if (!periods.length) return `<div class="${wrapperClass(block)}">No archives to show.</div>`;
  const items = periods.map((p) => `\t<li><a href='${escapeAttr(dateArchivePermalink(ctx.site, p.year, p.month))}'>${label(p.year, p.month)}</a>${a.showPostCounts ? `&nbsp;(${p.count})` : ''}</li>\n`).join('');
  return `<ul class="${wrapperClass(block, ARCHIVES_LIST)}">${items}</ul>`;
}

/** render_block_core_categories: wp_list_categories of the category taxonomy, flat or nested, with counts when asked. */
async function categories(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const tax = ctx.site.types.taxonomy('category')!;
  const { rows } = await ctx.store.terms.query({ taxonomy: 'category', hideEmpty: !a.showEmpty, ...(a.showOnlyTopLevel ? { parent: 0 } : {}), orderby: 'name', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const byId = new Map(rows.map((t) => [t.id, t]));
  const ancestors = (t: TermRow): string[] => {
    const slugs: string[] = [];
    const seen = new Set([t.id]);
    for (let p = byId.get(t.parent); p && !seen.has(p.id); p = byId.get(p.parent)) {
      seen.add(p.id);
      slugs.unshift(p.slug);
    }
    return slugs;
  };
  const item = (t: TermRow, children: string) =>
    `\t<li class="cat-item cat-item-${t.id}"><a href="${escapeAttr(termPermalink(ctx.site, tax, t, ancestors(t)))}">${escapeHtml(t.name)}</a>${a.showPostCounts ? ` (${t.count})` : ''}${children}\n</li>\n`;
  // nested: each term under its parent when the parent is listed too, as wp_list_categories' walker does
  const nested = a.showHierarchy === true;
  const childrenOf = (parent: number): string => {
    const kids = rows.filter((t) => (byId.has(t.parent) ? t.parent : 0) === parent);
    return kids.map((t) => item(t, nested ? list(t.id) : '')).join('');
  };
  const list = (parent: number) => {
    const inner = childrenOf(parent);
    return inner ? `\n<ul class='children'>\n${inner}</ul>` : '';
  };
  const body = nested ? childrenOf(0) : rows.map((t) => item(t, '')).join('');
  return `<ul class="${wrapperClass(block, 'wp-block-categories-list')}">${body || '<li class="cat-item-none">No categories</li>'}</ul>`;
}

/** PHP's float printing (precision 14), for the font sizes wp_generate_tag_cloud writes. */
const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

/** render_block_core_tag_cloud: wp_tag_cloud of the most used terms, sized by use, by name. */
async function tagCloud(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const tax = ctx.site.types.taxonomy(typeof a.taxonomy === 'string' ? a.taxonomy : 'post_tag');
  const size = (v: unknown, fallback: number) => (typeof v === 'string' && /^\d+(\.\d+)?pt$/.test(v) ? Number.parseFloat(v) : fallback);
  const smallest = size(a.smallestFontSize, 8);
  const largest = size(a.largestFontSize, 22);
  const { rows } = tax
    ? await ctx.store.terms.query({ taxonomy: tax.slug, hideEmpty: true, orderby: 'count', order: 'desc', offset: 0, limit: Math.max(1, int(a.numberOfTags, 45)) })
    : { rows: [] as TermRow[] };
  if (!tax || !rows.length) {
    const name = (tax?.name ?? 'Tags').toLowerCase();
    return `<p class="${wrapperClass(block)}">Your site doesn&#8217;t have any ${escapeHtml(name)}, so there&#8217;s nothing to display here at the moment.</p>`;
  }
  const counts = rows.map((t) => t.count);
  const min = Math.min(...counts);
  const spread = Math.max(1, Math.max(...counts) - min);
  const step = (largest - smallest) / spread;
  const sorted = [...rows].sort((x, y) => x.name.localeCompare(y.name));
  const links = sorted.map((t, i) => {
    const items = `${t.count} item${t.count === 1 ? '' : 's'}`;
    const count = a.showTagCounts ? `<span class="tag-link-count"> (${t.count})</span>` : '';
    return `<a href="${escapeAttr(termPermalink(ctx.site, tax, t))}" class="tag-cloud-link tag-link-${t.id} tag-link-position-${i + 1}" style="font-size: ${phpFloat(smallest + (t.count - min) * step)}pt;" aria-label="${escapeAttr(`${t.name} (${items})`)}">${escapeHtml(t.name)}${count}</a>`;
  });
  return `<p class="${wrapperClass(block)}">${links.join('\n')}</p>`;
}

/** render_block_core_search: a search form to the home URL, labelled, with its button inside or outside the field. */
function search(block: RenderedBlock, ctx: BlockRenderContext): string {
  const a = block.attributes;
  const id = 'wp-block-search__input-1';
  const label = typeof a.label === 'string' ? a.label : 'Search';
  const buttonText = typeof a.buttonText === 'string' && a.buttonText ? a.buttonText : 'Search';
  const position = typeof a.buttonPosition === 'string' ? a.buttonPosition : 'button-outside';
  const classes = [`wp-block-search__${position}`, a.buttonUseIcon ? 'wp-block-search__icon-button' : 'wp-block-search__text-button'];
  const labelHtml = `<label for="${id}" class="wp-block-search__label${a.showLabel === false ? ' screen-reader-text' : ''}">${escapeHtml(label)}</label>`;
  const input = `<input type="search" id="${id}" class="wp-block-search__input" name="s" value="" placeholder="${escapeAttr(typeof a.placeholder === 'string' ? a.placeholder : '')}" required />`;
  const button = position === 'no-button' ? '' : `<button type="submit" class="wp-block-search__button"${a.buttonUseIcon ? ` aria-label="${escapeAttr(buttonText)}"` : ''}>${a.buttonUseIcon ? '' : escapeHtml(buttonText)}</button>`;
  return `<form role="search" method="get" action="${escapeAttr(`${ctx.site.home}/`)}" class="${wrapperClass(block, classes.join(' '))}">${labelHtml}<div class="wp-block-search__inside-wrapper">${input}${button}</div></form>`;
}

/**
 * render_block_core_page_list: the published pages by menu order then title, each page's children
 * nested under it, the page being shown marked current.
 */
async function pageList(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
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
  return top ? `<ul class="${wrapperClass(block)}">${top}</ul>` : '';
}

/** render_block_core_site_title: the site's name in a heading (or paragraph at level 0), linked home unless asked not to. */
function siteTitle(block: RenderedBlock, ctx: BlockRenderContext): string {
  const name = ctx.site.info.name;
  if (!name) return '';
  const a = block.attributes;
  const level = int(a.level, 1);
  const tag = level >= 1 && level <= 6 ? `h${level}` : 'p';
  const target = a.linkTarget === '_blank' ? ' target="_blank"' : '';
  const inner = a.isLink === false ? escapeHtml(name) : `<a href="${escapeAttr(`${ctx.site.home}/`)}"${target} rel="home">${escapeHtml(name)}</a>`;
  return `<${tag} class="${wrapperClass(block, typeof a.textAlign === 'string' ? `has-text-align-${a.textAlign}` : '')}">${inner}</${tag}>`;
}

/** render_block_core_site_tagline: the site's description, when it has one. */
function siteTagline(block: RenderedBlock, ctx: BlockRenderContext): string {
  const text = ctx.site.info.description;
  if (!text) return '';
  const a = block.attributes;
  return `<p class="${wrapperClass(block, typeof a.textAlign === 'string' ? `has-text-align-${a.textAlign}` : '')}">${escapeHtml(text)}</p>`;
}

// no textdomain: register_block_type_from_metadata of WordPress 6.1 does not carry block.json's, so REST shows null
const block = (def: Omit<BlockTypeDefinition, 'apiVersion' | 'textdomain'> & { apiVersion?: number }): BlockTypeDefinition => ({ apiVersion: 2, ...def });

const STATIC_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/paragraph', title: 'Paragraph', category: 'text',
    description: 'Start with the basic building block of all narrative.', keywords: ['text'],
    attributes: {
      align: { type: 'string' },
      content: { type: 'string', source: 'html', selector: 'p', default: '', [CONTENT]: 'content' },
      dropCap: { type: 'boolean', default: false },
      placeholder: { type: 'string' },
      direction: { type: 'string', enum: ['ltr', 'rtl'] },
    },
    supports: { ...TEXT_SUPPORTS, className: false, __experimentalSelector: 'p', __unstablePasteTextInline: true },
    editorStyleHandles: ['wp-block-paragraph-editor'], styleHandles: ['wp-block-paragraph'],
  }),
  block({
    name: 'core/heading', title: 'Heading', category: 'text',
    description: 'Introduce new sections and organize content to help visitors (and search engines) understand the structure of your content.',
    keywords: ['title', 'subtitle'],
    attributes: {
      textAlign: { type: 'string' },
      content: { type: 'string', source: 'html', selector: 'h1,h2,h3,h4,h5,h6', default: '', [CONTENT]: 'content' },
      level: { type: 'number', default: 2 },
      placeholder: { type: 'string' },
    },
    supports: { align: ['wide', 'full'], ...TEXT_SUPPORTS, className: true, __experimentalSelector: 'h1,h2,h3,h4,h5,h6', __unstablePasteTextInline: true, __experimentalSlashInserter: true },
    editorStyleHandles: ['wp-block-heading-editor'], styleHandles: ['wp-block-heading'],
  }),
  block({
    name: 'core/list', title: 'List', category: 'text',
    description: 'Create a bulleted or numbered list.', keywords: ['bullet list', 'ordered list', 'numbered list'],
    attributes: {
      ordered: { type: 'boolean', default: false, [CONTENT]: 'content' },
      values: { type: 'string', source: 'html', selector: 'ol,ul', multiline: 'li', __unstableMultilineWrapperTags: ['ol', 'ul'], default: '', [CONTENT]: 'content' },
      type: { type: 'string' },
      start: { type: 'number' },
      reversed: { type: 'boolean' },
      placeholder: { type: 'string' },
    },
    supports: { ...TEXT_SUPPORTS, className: false, __unstablePasteTextInline: true, __experimentalSelector: 'ol,ul', __experimentalSlashInserter: true },
    editorStyleHandles: ['wp-block-list-editor'], styleHandles: ['wp-block-list'],
  }),
  block({
    name: 'core/list-item', title: 'List item', category: 'text', parent: ['core/list'],
    description: 'Create a list item.',
    attributes: {
      placeholder: { type: 'string' },
      content: { type: 'string', source: 'html', selector: 'li', default: '', [CONTENT]: 'content' },
    },
    supports: { className: false, __experimentalSelector: 'li', typography: { fontSize: true, lineHeight: true } },
  }),
  block({
    name: 'core/quote', title: 'Quote', category: 'text',
    description: 'Give quoted text visual emphasis. "In quoting others, we cite ourselves." — Julio Cortázar', keywords: ['blockquote', 'cite'],
    attributes: {
      value: { type: 'string', source: 'html', selector: 'blockquote', multiline: 'p', default: '', [CONTENT]: 'content' },
      citation: { type: 'string', source: 'html', selector: 'cite', default: '', [CONTENT]: 'content' },
      align: { type: 'string' },
    },
    supports: { anchor: true, __experimentalOnEnter: true, typography: { fontSize: true, lineHeight: true }, color: { gradients: true, link: true } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'plain', label: 'Plain' }],
    editorStyleHandles: ['wp-block-quote-editor'], styleHandles: ['wp-block-quote'],
  }),
  block({
    name: 'core/image', title: 'Image', category: 'media',
    description: 'Insert an image to make a visual statement.', keywords: ['img', 'photo', 'picture'],
    attributes: {
      align: { type: 'string' },
      url: { type: 'string', source: 'attribute', selector: 'img', attribute: 'src', [CONTENT]: 'content' },
      alt: { type: 'string', source: 'attribute', selector: 'img', attribute: 'alt', default: '', [CONTENT]: 'content' },
      caption: { type: 'string', source: 'html', selector: 'figcaption', [CONTENT]: 'content' },
      title: { type: 'string', source: 'attribute', selector: 'img', attribute: 'title', [CONTENT]: 'content' },
      href: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'href', [CONTENT]: 'content' },
      rel: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'rel' },
      linkClass: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'class' },
      id: { type: 'number', [CONTENT]: 'content' },
      width: { type: 'number' },
      height: { type: 'number' },
      sizeSlug: { type: 'string' },
      linkDestination: { type: 'string' },
      linkTarget: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'target' },
    },
    supports: { anchor: true, color: { __experimentalDuotone: 'img', text: false, background: false }, __experimentalBorder: { color: true, radius: true, width: true } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'rounded', label: 'Rounded' }],
    editorStyleHandles: ['wp-block-image-editor'], styleHandles: ['wp-block-image'],
  }),
  block({
    name: 'core/code', title: 'Code', category: 'text',
    description: 'Display code snippets that respect your spacing and tabs.',
    attributes: { content: { type: 'string', source: 'html', selector: 'code' } },
    supports: { typography: { fontSize: true, lineHeight: true }, spacing: { margin: ['top', 'bottom'], padding: true }, __experimentalBorder: { radius: true, color: true, width: true, style: true }, color: { text: true, background: true, gradients: true } },
    styleHandles: ['wp-block-code'],
  }),
  block({
    name: 'core/preformatted', title: 'Preformatted', category: 'text',
    description: 'Add text that respects your spacing and tabs, and also allows styling.',
    attributes: { content: { type: 'string', source: 'html', selector: 'pre', default: '', __unstablePreserveWhiteSpace: true, [CONTENT]: 'content' } },
    supports: { anchor: true, color: { gradients: true }, typography: { fontSize: true, lineHeight: true } },
    styleHandles: ['wp-block-preformatted'],
  }),
  block({
    name: 'core/separator', title: 'Separator', category: 'design',
    description: 'Create a break between ideas or sections with a horizontal separator.', keywords: ['horizontal-line', 'hr', 'divider'],
    attributes: { opacity: { type: 'string', default: 'alpha-channel' } },
    supports: { anchor: true, align: ['center', 'wide', 'full'], color: { enableContrastChecker: false, __experimentalSkipSerialization: true, gradients: true, background: true, text: false }, spacing: { margin: ['top', 'bottom'] } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'wide', label: 'Wide Line' }, { name: 'dots', label: 'Dots' }],
    editorStyleHandles: ['wp-block-separator-editor'], styleHandles: ['wp-block-separator'],
  }),
  block({
    name: 'core/html', title: 'Custom HTML', category: 'widgets',
    description: 'Add custom HTML code and preview it as you edit.', keywords: ['embed'],
    attributes: { content: { type: 'string', source: 'html' } },
    supports: { customClassName: false, className: false, html: false },
    editorStyleHandles: ['wp-block-html-editor'],
  }),
  block({
    name: 'core/group', title: 'Group', category: 'design',
    description: 'Gather blocks in a layout container.', keywords: ['container', 'wrapper', 'row', 'section'],
    attributes: { tagName: { type: 'string', default: 'div' }, templateLock: { type: ['string', 'boolean'], enum: ['all', 'insert', 'contentOnly', false] } },
    supports: { align: ['wide', 'full'], anchor: true, html: false, color: { gradients: true, link: true }, spacing: { margin: ['top', 'bottom'], padding: true, blockGap: true }, __experimentalBorder: { color: true, radius: true, style: true, width: true }, __experimentalLayout: { allowSizingOnChildren: true } },
    editorStyleHandles: ['wp-block-group-editor'], styleHandles: ['wp-block-group'],
  }),
  block({
    name: 'core/columns', title: 'Columns', category: 'design',
    description: 'Display content in multiple columns, with blocks added to each column.',
    attributes: { verticalAlignment: { type: 'string' }, isStackedOnMobile: { type: 'boolean', default: true } },
    supports: { anchor: true, align: ['wide', 'full'], html: false, color: { gradients: true, link: true }, spacing: { blockGap: { __experimentalDefault: '2em', sides: ['horizontal', 'vertical'] }, margin: ['top', 'bottom'], padding: true }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, allowEditing: false, default: { type: 'flex', flexWrap: 'nowrap' } } },
    editorStyleHandles: ['wp-block-columns-editor'], styleHandles: ['wp-block-columns'],
  }),
  block({
    name: 'core/column', title: 'Column', category: 'text', parent: ['core/columns'],
    description: 'A single column within a columns block.',
    attributes: { verticalAlignment: { type: 'string' }, width: { type: 'string' }, allowedBlocks: { type: 'array' }, templateLock: { type: ['string', 'boolean'], enum: ['all', 'insert', 'contentOnly', false] } },
    supports: { anchor: true, reusable: false, html: false, color: { gradients: true, link: true }, spacing: { blockGap: true, padding: true }, __experimentalLayout: true },
  }),
  block({
    name: 'core/buttons', title: 'Buttons', category: 'design',
    description: 'Prompt visitors to take action with a group of button-style links.', keywords: ['link'],
    supports: { anchor: true, align: ['wide', 'full'], __experimentalExposeControlsToChildren: true, spacing: { blockGap: true, margin: ['top', 'bottom'] }, typography: { fontSize: true, lineHeight: true }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, default: { type: 'flex' } } },
    editorStyleHandles: ['wp-block-buttons-editor'], styleHandles: ['wp-block-buttons'],
  }),
  block({
    name: 'core/button', title: 'Button', category: 'design', parent: ['core/buttons'],
    description: 'Prompt visitors to take action with a button-style link.', keywords: ['link'],
    attributes: {
      url: { type: 'string', source: 'attribute', selector: 'a', attribute: 'href', [CONTENT]: 'content' },
      title: { type: 'string', source: 'attribute', selector: 'a', attribute: 'title', [CONTENT]: 'content' },
      text: { type: 'string', source: 'html', selector: 'a', [CONTENT]: 'content' },
      linkTarget: { type: 'string', source: 'attribute', selector: 'a', attribute: 'target', [CONTENT]: 'content' },
      rel: { type: 'string', source: 'attribute', selector: 'a', attribute: 'rel', [CONTENT]: 'content' },
      placeholder: { type: 'string' },
      backgroundColor: { type: 'string' },
      textColor: { type: 'string' },
      gradient: { type: 'string' },
      width: { type: 'number' },
    },
    supports: { anchor: true, align: true, alignWide: false, color: { __experimentalSkipSerialization: true, gradients: true }, typography: { fontSize: true, lineHeight: true }, reusable: false, spacing: { __experimentalSkipSerialization: true, padding: ['horizontal', 'vertical'] }, __experimentalBorder: { radius: true, __experimentalSkipSerialization: true }, __experimentalSelector: '.wp-block-button .wp-block-button__link' },
    styles: [{ name: 'fill', label: 'Fill', isDefault: true }, { name: 'outline', label: 'Outline' }],
    editorStyleHandles: ['wp-block-button-editor'], styleHandles: ['wp-block-button'],
  }),
];

const DYNAMIC_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/latest-posts', title: 'Latest Posts', category: 'widgets',
    description: 'Display a list of your most recent posts.', keywords: ['recent posts'],
    attributes: {
      categories: { type: 'array', items: { type: 'object' } },
      selectedAuthor: { type: 'number' },
      postsToShow: { type: 'number', default: 5 },
      displayPostContent: { type: 'boolean', default: false },
      displayPostContentRadio: { type: 'string', default: 'excerpt' },
      excerptLength: { type: 'number', default: 55 },
      displayAuthor: { type: 'boolean', default: false },
      displayPostDate: { type: 'boolean', default: false },
      postLayout: { type: 'string', default: 'list' },
      columns: { type: 'number', default: 3 },
      order: { type: 'string', default: 'desc' },
      orderBy: { type: 'string', default: 'date' },
      displayFeaturedImage: { type: 'boolean', default: false },
      featuredImageAlign: { type: 'string', enum: ['left', 'center', 'right'] },
      featuredImageSizeSlug: { type: 'string', default: 'thumbnail' },
      featuredImageSizeWidth: { type: 'number', default: null },
      featuredImageSizeHeight: { type: 'number', default: null },
      addLinkToFeaturedImage: { type: 'boolean', default: false },
    },
    supports: { align: true, html: false, color: { gradients: true, link: true }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true } },
    editorStyleHandles: ['wp-block-latest-posts-editor'], styleHandles: ['wp-block-latest-posts'],
    render: latestPosts,
  }),
  block({
    name: 'core/archives', title: 'Archives', category: 'widgets',
    description: 'Display a date archive of your posts.',
    attributes: {
      displayAsDropdown: { type: 'boolean', default: false },
      showLabel: { type: 'boolean', default: true },
      showPostCounts: { type: 'boolean', default: false },
      type: { type: 'string', default: 'monthly' },
    },
    supports: { align: true, html: false, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true } },
    editorStyleHandles: ['wp-block-archives-editor'],
    render: archives,
  }),
  block({
    name: 'core/categories', title: 'Categories', category: 'widgets',
    description: 'Display a list of all categories.',
    attributes: {
      displayAsDropdown: { type: 'boolean', default: false },
      showHierarchy: { type: 'boolean', default: false },
      showPostCounts: { type: 'boolean', default: false },
      showOnlyTopLevel: { type: 'boolean', default: false },
      showEmpty: { type: 'boolean', default: false },
    },
    supports: { align: true, html: false, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true } },
    editorStyleHandles: ['wp-block-categories-editor'], styleHandles: ['wp-block-categories'],
    render: categories,
  }),
  block({
    name: 'core/tag-cloud', title: 'Tag Cloud', category: 'widgets',
    description: 'A cloud of your most used tags.',
    attributes: {
      numberOfTags: { type: 'number', default: 45, minimum: 1, maximum: 100 },
      taxonomy: { type: 'string', default: 'post_tag' },
      showTagCounts: { type: 'boolean', default: false },
      smallestFontSize: { type: 'string', default: '8pt' },
      largestFontSize: { type: 'string', default: '22pt' },
    },
    supports: { html: false, align: true, spacing: { margin: true, padding: true } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'outline', label: 'Outline' }],
    editorStyleHandles: ['wp-block-tag-cloud-editor'], styleHandles: ['wp-block-tag-cloud'],
    render: tagCloud,
  }),
  block({
    name: 'core/search', title: 'Search', category: 'widgets',
    description: 'Help visitors find your content.', keywords: ['find'],
    attributes: {
      label: { type: 'string', [CONTENT]: 'content' },
      showLabel: { type: 'boolean', default: true },
      placeholder: { type: 'string', default: '', [CONTENT]: 'content' },
      width: { type: 'number' },
      widthUnit: { type: 'string' },
      buttonText: { type: 'string', [CONTENT]: 'content' },
      buttonPosition: { type: 'string', default: 'button-outside' },
      buttonUseIcon: { type: 'boolean', default: false },
      query: { type: 'object', default: {} },
    },
    supports: { align: ['left', 'center', 'right'], color: { gradients: true, __experimentalSkipSerialization: true }, typography: { __experimentalSkipSerialization: true, __experimentalSelector: '.wp-block-search__label, .wp-block-search__input, .wp-block-search__button', fontSize: true, lineHeight: true }, __experimentalBorder: { color: true, radius: true, width: true, __experimentalSkipSerialization: true }, html: false },
    editorStyleHandles: ['wp-block-search-editor'], styleHandles: ['wp-block-search'],
    render: search,
  }),
  block({
    name: 'core/page-list', title: 'Page List', category: 'widgets',
    description: 'Display a list of all pages.', keywords: ['menu', 'navigation'],
    usesContext: ['textColor', 'customTextColor', 'backgroundColor', 'customBackgroundColor', 'overlayTextColor', 'customOverlayTextColor', 'overlayBackgroundColor', 'customOverlayBackgroundColor', 'fontSize', 'customFontSize', 'showSubmenuIcon', 'style', 'openSubmenusOnClick'],
    supports: { reusable: false, html: false },
    editorStyleHandles: ['wp-block-page-list-editor'], styleHandles: ['wp-block-page-list'],
    render: pageList,
  }),
  block({
    name: 'core/site-title', title: 'Site Title', category: 'theme',
    description: 'Displays the name of this site. Update the block, and the changes apply everywhere it’s used. This will also appear in the browser title bar and in search results.',
    attributes: {
      level: { type: 'number', default: 1 },
      textAlign: { type: 'string' },
      isLink: { type: 'boolean', default: true },
      linkTarget: { type: 'string', default: '_self' },
    },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, link: true }, spacing: { padding: true, margin: true }, typography: { fontSize: true, lineHeight: true } },
    editorStyleHandles: ['wp-block-site-title-editor'], styleHandles: ['wp-block-site-title'],
    render: siteTitle,
  }),
  block({
    name: 'core/site-tagline', title: 'Site Tagline', category: 'theme',
    description: 'Describe in a few words what the site is about. The tagline can be used in search results or when sharing on social networks even if it’s not displayed in the theme design.',
    keywords: ['description'],
    attributes: { textAlign: { type: 'string' } },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true } },
    editorStyleHandles: ['wp-block-site-tagline-editor'],
    render: siteTagline,
  }),
];

/** The core's pattern categories (_register_core_block_patterns_and_categories). */
const PATTERN_CATEGORIES = [
  { name: 'buttons', label: 'Buttons' },
  { name: 'columns', label: 'Columns' },
  { name: 'featured', label: 'Featured' },
  { name: 'footer', label: 'Footers' },
  { name: 'gallery', label: 'Gallery' },
  { name: 'header', label: 'Headers' },
  { name: 'text', label: 'Text' },
  { name: 'query', label: 'Query' },
];

/** The core's patterns, made of blocks this site renders. */
const PATTERNS = [
  {
    name: 'core/heading-paragraph',
    title: 'Heading and paragraph',
    description: 'A heading followed by a paragraph of text.',
    categories: ['text'],
    keywords: ['heading', 'paragraph', 'intro'],
    content: '<!-- wp:heading -->\n<h2>Start with a heading</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Follow it with a paragraph that says what the section is about.</p>\n<!-- /wp:paragraph -->',
  },
  {
    name: 'core/text-two-columns',
    title: 'Two columns of text',
    description: 'Two columns of text side by side.',
    categories: ['columns', 'text'],
    keywords: ['columns', 'text'],
    viewportWidth: 1000,
    content:
      '<!-- wp:columns -->\n<div class="wp-block-columns"><!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>The first column of text.</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column -->\n\n<!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>The second column of text.</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->',
  },
  {
    name: 'core/two-buttons',
    title: 'Two buttons',
    description: 'Two buttons side by side, one filled and one outlined.',
    categories: ['buttons'],
    keywords: ['buttons', 'call to action'],
    viewportWidth: 500,
    content:
      '<!-- wp:buttons {"layout":{"type":"flex","justifyContent":"center"}} -->\n<div class="wp-block-buttons"><!-- wp:button -->\n<div class="wp-block-button"><a class="wp-block-button__link wp-element-button">Get started</a></div>\n<!-- /wp:button -->\n\n<!-- wp:button {"className":"is-style-outline"} -->\n<div class="wp-block-button is-style-outline"><a class="wp-block-button__link wp-element-button">Learn more</a></div>\n<!-- /wp:button --></div>\n<!-- /wp:buttons -->',
  },
  {
    name: 'core/quote-with-citation',
    title: 'Quote',
    description: 'A quote with its citation.',
    categories: ['text'],
    keywords: ['quote', 'testimonial'],
    content: '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><p>A sentence worth repeating.</p><cite>Someone who said it</cite></blockquote>\n<!-- /wp:quote -->',
  },
  {
    name: 'core/latest-posts-with-heading',
    title: 'Latest posts with a heading',
    description: 'A heading above the five latest posts, with their dates.',
    categories: ['query'],
    keywords: ['latest posts', 'recent', 'blog'],
    blockTypes: ['core/latest-posts'],
    content: '<!-- wp:heading -->\n<h2>From the blog</h2>\n<!-- /wp:heading -->\n\n<!-- wp:latest-posts {"displayPostDate":true} /-->',
  },
];

export const CORE_BLOCKS: BlockSet = { owner: 'core', blocks: [...STATIC_BLOCKS, ...DYNAMIC_BLOCKS], patterns: PATTERNS, patternCategories: PATTERN_CATEGORIES };
