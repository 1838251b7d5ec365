import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { PostRow } from '../../../store/posts.ts';
import { escapeAttr, escapeHtml, stripAllTags, theTitle } from '../../../format/format.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { kses } from '../../../format/kses.ts';
import { attachmentImageSrc } from '../../attachment-image.ts';
import { attachmentSrcset } from '../../content-tags.ts';
import { getTheExcerpt, theContent } from '../../hooks.ts';
import { termLink } from '../../permalinks.ts';
import { renderedTitle } from '../../rest.ts';
import { avatarImage, contextPost, postPermalink } from './shared.ts';
import { borderStyles, safeCss, wrapperAttributes } from './wrapper.ts';

/** The blocks that show one post of the context (`postId`): its title, date, excerpt, terms, author, content and a link to it. */

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
/** `has-text-align-…` of a `textAlign` attribute, '' without one. */
const textAlign = (a: Record<string, unknown>) => (a.textAlign ? `has-text-align-${str(a.textAlign)}` : '');

/** The page rendering of a post of the context, for what renders its text (the_content, the excerpt): its blocks get it as their context. */
const pageOf = (ctx: BlockRenderContext, post: PostRow): BlockRenderContext => ({ ...ctx, postId: post.id });

/** render_block_core_post_title: get_the_title in a heading (a paragraph at level 0), linked to the post when asked. */
export async function postTitle(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  let title = renderedTitle(post);
  if (!title) return '';
  const a = block.attributes;
  const tag = a.level === 0 ? 'p' : a.level === undefined ? 'h2' : `h${str(a.level)}`;
  if (a.isLink) title = `<a href="${await postPermalink(ctx, post)}" target="${escapeAttr(str(a.linkTarget))}" ${a.rel ? `rel="${escapeAttr(str(a.rel))}"` : ''}>${title}</a>`;
  return `<${tag} ${wrapperAttributes(block, { class: textAlign(a) })}>${title}</${tag}>`;
}

/** render_block_core_post_date: the post's date (or its last change) in the format asked or the site's, in a `<time>`. */
export async function postDate(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const a = block.attributes;
  const modified = a.displayType === 'modified';
  const local = modified ? post.modified : post.date;
  let formatted = formatLocalDate(str(a.format) || ctx.site.options.date_format || 'F j, Y', local);
  if (a.isLink) formatted = `<a href="${await postPermalink(ctx, post)}">${formatted}</a>`;
  return `<div ${wrapperAttributes(block, { class: textAlign(a) })}><time datetime="${escapeAttr(ctx.site.isoDate(local))}">${formatted}</time></div>`;
}

/** render_block_core_post_excerpt: get_the_excerpt, its `[…]` replaced by the block's own link when it has one. */
export async function postExcerpt(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const a = block.attributes;
  const moreText = a.moreText ? `<a class="wp-block-post-excerpt__more-link" href="${escapeAttr(await postPermalink(ctx, post))}">${await kses(str(a.moreText), 'post')}</a>` : '';
  const excerpt = post.password ? 'There is no excerpt because this is a protected post.' : await getTheExcerpt(post.excerpt, { raw: post.content }, pageOf(ctx, post), ctx.site.blocks.log, moreText ? '' : undefined);
  if (!excerpt) return '';
  const onNewLine = a.showMoreOnNewLine === undefined || Boolean(a.showMoreOnNewLine);
  const content = `<p class="wp-block-post-excerpt__excerpt">${excerpt}${onNewLine && moreText ? `</p><p class="wp-block-post-excerpt__more-text">${moreText}</p>` : ` ${moreText}</p>`}`;
  return `<div ${wrapperAttributes(block, { class: a.textAlign !== undefined ? textAlign(a) : '' })}>${content}</div>`;
}

/** render_block_core_read_more: a link to the post, with the block's text or "Read more". */
export async function readMore(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const a = block.attributes;
  const text = a.content ? await kses(str(a.content), 'post') : 'Read more';
  return `<a ${wrapperAttributes(block, { class: a.justifyContent ? `is-justified-${str(a.justifyContent)}` : '' })} href="${await postPermalink(ctx, post)}" target="${escapeAttr(str(a.linkTarget))}">${text}</a>`;
}

/** render_block_core_post_terms: get_the_term_list of a viewable taxonomy, with the block's prefix, separator and suffix. */
export async function postTerms(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  if (block.context.postId === undefined || a.term === undefined) return '';
  const tax = ctx.site.types.taxonomy(str(a.term));
  if (!tax?.viewable) return '';
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const terms = (await ctx.store.terms.termsOfPosts([post.id], tax.slug)).get(post.id) ?? [];
  if (!terms.length) return '';
  let classes = `taxonomy-${tax.slug}`;
  if (a.textAlign !== undefined) classes += ` has-text-align-${str(a.textAlign)}`;
  const separator = a.separator ? str(a.separator) : ' ';
  // wp_kses_post of the prefix and suffix, the wrapper's opening tag included: kses leaves its
  // class and rewrites its style, as written, with safecss_filter_attr (`a:b;c:d`, no space, no last semicolon)
  const wrapper = wrapperAttributes(block, { class: classes }).replace(/^style="([^"]*)"\s*/, (_, css: string) => (safeCss(css) ? `style="${safeCss(css)}" ` : ''));
  let prefix = `<div ${wrapper}>`;
  if (a.prefix) prefix += await kses(`<span class="wp-block-post-terms__prefix">${str(a.prefix)}</span>`, 'post');
  let suffix = '</div>';
  if (a.suffix) suffix = `${await kses(`<span class="wp-block-post-terms__suffix">${str(a.suffix)}</span>`, 'post')}${suffix}`;
  // get_the_term_list: the terms by name, each linked to its archive with rel="tag"
  const sorted = [...terms].sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const links = await Promise.all(sorted.map(async (t) => `<a href="${escapeAttr(await termLink(ctx.store, ctx.site, tax, t))}" rel="tag">${escapeHtml(t.name)}</a>`));
  return `${prefix}${links.join(`<span class="wp-block-post-terms__separator">${escapeHtml(separator)}</span>`)}${suffix}`;
}

/** render_block_core_post_author: the post's author, with the avatar, byline and biography asked for. */
export async function postAuthor(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  const author = post ? await ctx.store.users.get(post.author) : undefined;
  if (!author) return '';
  const a = block.attributes;
  const size = typeof a.avatarSize === 'number' && a.avatarSize ? a.avatarSize : 0;
  const classes = [...(a.itemsJustification !== undefined ? [`items-justified-${str(a.itemsJustification)}`] : []), ...(a.textAlign !== undefined ? [`has-text-align-${str(a.textAlign)}`] : [])];
  const bio = a.showBio ? `<p class="wp-block-post-author__bio">${(await ctx.store.users.meta.get(author.id, 'description')) ?? ''}</p>` : '';
  return (
    `<div ${wrapperAttributes(block, { class: classes.join(' ') })}>` +
    (a.showAvatar ? `<div class="wp-block-post-author__avatar">${size ? avatarImage(ctx, author.email, size) : ''}</div>` : '') +
    '<div class="wp-block-post-author__content">' +
    (a.byline ? `<p class="wp-block-post-author__byline">${await kses(str(a.byline), 'post')}</p>` : '') +
    `<p class="wp-block-post-author__name">${author.display_name}</p>` +
    bio +
    '</div></div>'
  );
}

/** render_block_core_post_author_biography: the biography of the post's author, when they wrote one. */
export async function postAuthorBiography(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post?.author) return '';
  const biography = (await ctx.store.users.meta.get(post.author, 'description')) ?? '';
  if (!biography) return '';
  return `<div ${wrapperAttributes(block, { class: textAlign(block.attributes) })}>${biography}</div>`;
}

/**
 * get_block_core_post_featured_image_border_attributes: the border the block's style sets, as the
 * style engine writes it, for the image and its overlay.
 */
function featuredImageBorder(a: Record<string, unknown>): { class?: string; style?: string } {
  const border = ((a.style as Record<string, unknown> | undefined)?.border ?? {}) as Record<string, unknown>;
  const styles: Record<string, unknown> = {};
  for (const key of ['radius', 'style', 'width']) if (border[key] !== undefined && border[key] !== null) styles[key] = border[key];
  styles.color = a.borderColor !== undefined ? `var:preset|color|${String(a.borderColor)}` : (border.color ?? null);
  for (const side of ['top', 'right', 'bottom', 'left']) {
    const b = (border[side] ?? {}) as Record<string, unknown>;
    styles[side] = { color: b.color ?? null, style: b.style ?? null, width: b.width ?? null };
  }
  return borderStyles(styles);
}

/**
 * render_block_core_post_featured_image: get_the_post_thumbnail at the block's size (the full
 * image for `post-thumbnail`, a size this site's theme does not define), with the block's border,
 * height and fit on the image, linked to the post when asked, and its overlay.
 */
export async function postFeaturedImage(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const a = block.attributes;
  const thumbnail = Number((await ctx.store.posts.meta.get(post.id, '_thumbnail_id')) ?? 0);
  const size = typeof a.sizeSlug === 'string' ? a.sizeSlug : 'post-thumbnail';
  const image = thumbnail > 0 ? await attachmentImageSrc(ctx.store, thumbnail, size) : null;
  if (!image) return '';
  const [src, width, height] = image;
  const border = featuredImageBorder(a);
  const attributes: [string, string][] = [
    ['src', src],
    ['class', `attachment-${size} size-${size}`],
    ['alt', a.isLink ? stripAllTags(renderedTitle(post)).trim() : stripAllTags((await ctx.store.posts.meta.get(thumbnail, '_wp_attachment_image_alt')) ?? '').trim()],
    ['decoding', 'async'],
    ['loading', 'lazy'],
  ];
  let style = border.style ?? '';
  if (a.height) style += `height:${String(a.height)};${a.scale ? `object-fit:${String(a.scale)};` : ''}`;
  if (border.class) attributes.push(['class', border.class]);
  if (style) attributes.push(['style', style]);
  const srcset = await attachmentSrcset(ctx.store, ctx.site, thumbnail, src, [width, height]);
  if (srcset && width) attributes.push(['srcset', srcset], ['sizes', `(max-width: ${width}px) 100vw, ${width}px`]);
  // wp_parse_args: a key given again (the border's class) replaces the default in its place; then _wp_post_thumbnail_class_filter
  const merged = new Map<string, string>();
  for (const [k, v] of attributes) merged.set(k, v);
  merged.set('class', `${merged.get('class')} wp-post-image`);
  let html = `<img width="${width}" height="${height}"${[...merged].map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('')} />`;
  html += featuredImageOverlay(a, border);
  if (a.isLink) html = `<a href="${await postPermalink(ctx, post)}" target="${escapeAttr(String(a.linkTarget ?? ''))}" ${a.rel ? `rel="${escapeAttr(String(a.rel))}"` : ''}>${html}</a>`;
  return `<figure ${a.width ? wrapperAttributes(block, { style: `width:${String(a.width)};` }) : wrapperAttributes(block)}>${html}</figure>`;
}

/** get_block_core_post_featured_image_overlay_element_markup: the dimming overlay, with its colour or gradient, when the block dims the image. */
function featuredImageOverlay(a: Record<string, unknown>, border: { class?: string; style?: string }): string {
  if (!a.dimRatio) return '';
  const classes = ['wp-block-post-featured-image__overlay'];
  const styles: string[] = [];
  if (border.class) classes.push(border.class);
  if (border.style) styles.push(border.style);
  classes.push('has-background-dim', `has-background-dim-${String(a.dimRatio)}`);
  if (a.overlayColor) classes.push(`has-${String(a.overlayColor)}-background-color`);
  if (a.gradient || a.customGradient) classes.push('has-background-gradient');
  if (a.gradient) classes.push(`has-${String(a.gradient)}-gradient-background`);
  if (a.customGradient) styles.push(`background-image: ${String(a.customGradient)};`);
  if (a.customOverlayColor) styles.push(`background-color: ${String(a.customOverlayColor)};`);
  return `<span class="${escapeAttr(classes.join(' '))}" style="${escapeAttr(safeCss(styles.join(' ')))}" aria-hidden="true"></span>`;
}

/**
 * render_block_core_post_navigation_link: on a page showing one post, the link to the next (or
 * previous) published post of its type by date, with the block's label and the post's title as
 * asked; elsewhere (a list, a REST rendering) nothing, as WordPress outside is_singular().
 */
export async function postNavigationLink(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  if (!ctx.singular || ctx.postId === undefined) return '';
  const a = block.attributes;
  const type = a.type === undefined ? 'next' : a.type;
  if (type !== 'next' && type !== 'previous') return '';
  const previous = type === 'previous';
  let classes = `post-navigation-link-${type}`;
  if (a.textAlign !== undefined) classes += ` has-text-align-${str(a.textAlign)}`;
  const wrapper = wrapperAttributes(block, { class: classes });
  let format = '%link';
  let link = previous ? 'Previous' : 'Next';
  const label = a.label ? str(a.label) : '';
  if (label) link = label;
  if (a.showTitle) {
    if (!a.linkLabel) {
      if (label) format = `<span class="post-navigation-link__label">${await kses(label, 'post')}</span> %link`;
      link = '%title';
    } else {
      const before = label ? await kses(label, 'post') : previous ? 'Previous:' : 'Next:';
      link = `<span class="post-navigation-link__label">${before}</span> <span class="post-navigation-link__title">%title</span>`;
    }
  }
  const current = await ctx.store.posts.get(ctx.postId);
  const [adjacent] = current
    ? (await ctx.store.posts.query({ types: [current.type], statuses: ['publish'], ...(previous ? { before: current.date } : { after: current.date }), orderby: 'date', order: previous ? 'desc' : 'asc', offset: 0, limit: 1 })).rows
    : [];
  let content = '';
  if (adjacent) {
    // get_adjacent_post_link: the title through the_title's filters, the date in the site's format
    const title = theTitle(adjacent.title || (previous ? 'Previous Post' : 'Next Post'));
    const inLink = link.split('%title').join(title).split('%date').join(formatLocalDate(ctx.site.options.date_format || 'F j, Y', adjacent.date));
    content = format.split('%link').join(`<a href="${await postPermalink(ctx, adjacent)}" rel="${previous ? 'prev' : 'next'}">${inLink}</a>`);
  }
  return `<div ${wrapper}>${content}</div>`;
}

/**
 * render_block_core_post_content: the post's content through the_content, in an `entry-content`
 * wrapper. A post's content met again while it is being rendered (a post-content block showing
 * its own post, or two posts showing each other) renders nothing, as WordPress's recursion guard.
 */
export async function postContent(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const post = await contextPost(block, ctx);
  if (!post) return '';
  const shown = ctx.contentShown ?? new Set<number>();
  if (shown.has(post.id)) return '';
  const page: BlockRenderContext = { ...pageOf(ctx, post), contentShown: new Set([...shown, post.id]) };
  const content = post.password ? '' : await theContent(post.content.split(']]>').join(']]&gt;'), page, ctx.site.blocks.log);
  if (!content) return '';
  return `<div ${wrapperAttributes(block, { class: 'entry-content' })}>${content}</div>`;
}
