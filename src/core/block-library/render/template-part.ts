import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { convertSmilies, shortcodeUnautop, wptexturize } from '../../../format/format.ts';
import { STYLESHEET } from '../../active-theme.ts';
import { filterContentTags } from '../../content-tags.ts';
import { autoembed } from '../../embeds.ts';
import { smiliesOn } from '../../hooks.ts';
import { renderShortcodes, shortcodeNames } from '../../shortcodes/registry.ts';
import { fileTemplate, queryTemplates, storedPart } from '../../templates.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * The template-part block: a part of the active theme, the site's published one of that slug
 * (edited over `cms/v2/template-parts`) else the theme's file, rendered as the_content renders a
 * post, in the element of its area.
 */

/** get_allowed_block_template_part_areas (6.1): each area's element. */
const AREA_TAGS: Readonly<Record<string, string>> = { uncategorized: 'div', header: 'header', footer: 'footer' };

/** get_allowed_block_template_part_areas (6.1): each area's icon. */
const AREA_ICONS: Readonly<Record<string, string>> = { uncategorized: 'layout', header: 'header', footer: 'footer' };

/**
 * build_template_part_block_instance_variations: a variation for each template part of the theme
 * (get_block_templates: the site's published ones, then the theme's files), with the icon of its
 * area. 6.1 writes the description as `$description || '&nbsp;'`, PHP's `||`, a boolean, which the
 * REST schema gives as "1".
 */
export async function templatePartVariations(ctx: Pick<BlockRenderContext, 'store' | 'site'>): Promise<Record<string, unknown>[]> {
  const parts = await queryTemplates(ctx.store, ctx.site, 'cms_template_part');
  return parts.map((t) => {
    const attributes = { slug: t.slug, theme: t.theme, area: t.area ?? null };
    return { name: t.slug, title: t.title, description: '1', attributes, scope: ['inserter'], icon: (t.area && AREA_ICONS[t.area]) ?? null, example: { attributes } };
  });
}

/** tag_escape */
const tagEscape = (tag: string) => tag.toLowerCase().replace(/[^a-z0-9_:]/g, '');

/**
 * render_block_core_template_part: the part `slug` names when `theme` is the active theme's (the
 * stored part's area from its post; a theme file's stays `uncategorized`, as WordPress reads the
 * area of a stored part only), its shortcodes, blocks, texturize, smilies, content tags and embeds
 * run, in `tagName` when that is a plain tag name, else its area's element. A part that is not
 * found renders as its empty element; one inside itself as nothing.
 */
export async function templatePart(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  let id: string | undefined;
  let content = '';
  let area = 'uncategorized';
  if (typeof a.slug === 'string' && typeof a.theme === 'string' && a.theme === STYLESHEET) {
    id = `${a.theme}//${a.slug}`;
    const stored = await storedPart(ctx.store, ctx.site, a.slug);
    if (stored) {
      content = stored.content;
      if (stored.area) area = stored.area;
    } else content = fileTemplate('cms_template_part', id)?.content ?? '';
  }
  const shown = ctx.partsShown ?? new Set<string>();
  if (id !== undefined && shown.has(id)) return '';
  const { site } = ctx;
  const shortcodes = shortcodeNames(site);
  let html = await renderShortcodes(shortcodeUnautop(content, shortcodes), ctx, site.blocks.log);
  html = await site.blocks.render(html, id === undefined ? ctx : { ...ctx, partsShown: new Set([...shown, id]) });
  html = wptexturize(html, shortcodes);
  if (smiliesOn(site)) html = convertSmilies(html);
  html = await filterContentTags(html, ctx.store, site);
  html = await autoembed(html, { ctx, usecache: true });
  const tag = typeof a.tagName === 'string' && a.tagName && a.tagName !== '0' && tagEscape(a.tagName) === a.tagName ? a.tagName : (AREA_TAGS[area] ?? 'div');
  return `<${tag} ${wrapperAttributes(block)}>${html.split(']]>').join(']]&gt;')}</${tag}>`;
}
