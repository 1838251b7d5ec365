import type { Logger } from '../engine/types.ts';
import type { HeadMeta, NamedSiteHooks, PageContext, PageView, Site } from './site.ts';
import { hasBlocks } from './blocks.ts';
import { capitalPDangit, convertChars, convertSmilies, shortcodeUnautop, trimWords, wpautop, wptexturize } from '../format/format.ts';
import { filterContentTags } from './content-tags.ts';
import { keptRenderings } from './kept-renderings.ts';
import { embedContent } from './embeds.ts';
import { renderShortcodes, shortcodeNames, stripRegisteredShortcodes } from './shortcodes/registry.ts';
import { firstPageTeaser } from '../format/teaser.ts';

// A plugin hook that throws is logged and skipped, so one broken plugin does not take the page down.
function reportFailure(log: Logger, ext: NamedSiteHooks, hook: string, e: unknown): void {
  log.error(`site hook ${hook} of plugin ${ext.plugin} failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** The `use_smilies` option (on for a new site, as WordPress installs it). */
export const smiliesOn = (site: Site): boolean => {
  const v = site.options.use_smilies;
  return v === undefined || (v !== '' && v !== '0');
};

/** wp_replace_insecure_home_url: on a site served over HTTPS, links to its own http:// address (escaped ones too) become https://. */
function replaceInsecureHomeUrl(html: string, site: Site): string {
  if (!site.home.startsWith('https://') || !site.info.url.startsWith('https://')) return html;
  const https = site.home;
  const http = `http://${https.slice('https://'.length)}`;
  const escaped = (url: string) => url.split('/').join('\\/');
  return html.split(http).join(https).split(escaped(http)).join(escaped(https));
}

/**
 * the_content: WordPress 6.1's filters in their priority order (default-filters.php): WP_Embed's
 * run_shortcode and autoembed (8; an embed reads its answer from the post's meta, so a rendering
 * with one is never kept: an answer cached or refreshed later is what the next rendering shows); do_blocks (9);
 * wptexturize, wpautop (unhooked by do_blocks for block content), shortcode_unautop,
 * wp_filter_content_tags and wp_replace_insecure_home_url (10); capital_P_dangit and do_shortcode
 * (11, the core's shortcodes and the active plugins'); the active plugins' content filters, in
 * order; convert_smilies (20) when the `use_smilies` option is on.
 */
export function theContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  return keptRenderings(ctx.site).keep(ctx, ['the_content', raw], (traced) => filterContent(raw, traced, log));
}

async function filterContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  const { site } = ctx;
  const shortcodes = shortcodeNames(site);
  let html = await site.blocks.render(await embedContent(raw, ctx), ctx);
  html = wptexturize(html, shortcodes);
  if (!hasBlocks(raw)) html = wpautop(html);
  html = shortcodeUnautop(html, shortcodes);
  html = await filterContentTags(html, ctx.store, site);
  html = capitalPDangit(replaceInsecureHomeUrl(html, site));
  html = await renderShortcodes(html, ctx, log);
  for (const ext of site.hooks) {
    if (!ext.hooks.content) continue;
    try {
      html = await ext.hooks.content(html, ctx);
    } catch (e) {
      reportFailure(log, ext, 'content', e);
    }
  }
  return smiliesOn(site) ? convertSmilies(html) : html;
}

/** The page's title, description, canonical URL and robots, through every active plugin's headMeta filter in order. */
export async function filterHeadMeta(meta: HeadMeta, ctx: PageContext, log: Logger): Promise<HeadMeta> {
  let out = meta;
  for (const ext of ctx.site.hooks) {
    if (!ext.hooks.headMeta) continue;
    try {
      out = await ext.hooks.headMeta(out, ctx);
    } catch (e) {
      reportFailure(log, ext, 'headMeta', e);
    }
  }
  return out;
}

/** wp_head / wp_footer: every active plugin's output in order, a line each. */
export async function hookOutput(hook: 'head' | 'footer', ctx: PageContext, log: Logger): Promise<string> {
  let out = '';
  for (const ext of ctx.site.hooks) {
    const fn = ext.hooks[hook];
    if (!fn) continue;
    try {
      const html = await fn.call(ext.hooks, ctx);
      if (html) out += html.endsWith('\n') ? html : `${html}\n`;
    } catch (e) {
      reportFailure(log, ext, hook, e);
    }
  }
  return out;
}

/** Tells every active plugin a page of the site was answered (their analytics); a failure is logged, never the visitor's problem. */
export async function pageViewed(view: PageView, log: Logger): Promise<void> {
  for (const ext of view.site.hooks) {
    if (!ext.hooks.pageView) continue;
    try {
      await ext.hooks.pageView(view);
    } catch (e) {
      reportFailure(log, ext, 'pageView', e);
    }
  }
}

/**
 * the_excerpt of get_the_excerpt: the post's own excerpt, else wp_trim_excerpt's: the first page
 * of the content up to its `<!--more-->` (firstPageTeaser), without its shortcodes
 * (strip_shortcodes) and the blocks excerpt_remove_blocks leaves out, through the_content, cut to
 * its first 55 words with ` [&hellip;]`; then the_excerpt's filters in WordPress's order:
 * wptexturize, convert_smilies, convert_chars, wpautop, shortcode_unautop, wp_filter_content_tags,
 * wp_replace_insecure_home_url. `content.rendered` is the_content of `content.raw`, reused when
 * that is all the excerpt is made from.
 */
export function renderedExcerpt(excerpt: string, content: { raw: string; rendered: string }, ctx: PageContext, log: Logger): Promise<string> {
  const source = excerpt.trim() ? [] : ['content', content.raw];
  return keptRenderings(ctx.site).keep(ctx, ['the_excerpt', excerpt, ...source], (traced) => filterExcerpt(excerpt, content, traced, log));
}

/** wp_trim_excerpt's text before it is cut: the_content of the teaser without shortcodes and the blocks an excerpt leaves out. */
async function excerptSource(content: { raw: string; rendered?: string }, ctx: PageContext, log: Logger): Promise<string> {
  const { site } = ctx;
  const teaser = await stripRegisteredShortcodes(firstPageTeaser(content.raw), site);
  if (hasBlocks(teaser)) return filterContent(await site.blocks.renderForExcerpt(teaser, ctx), ctx, log);
  return teaser === content.raw && content.rendered !== undefined ? content.rendered : filterContent(teaser, ctx, log);
}

/**
 * get_the_excerpt: the post's own excerpt, else wp_trim_excerpt's: the first page of the content
 * without shortcodes and the blocks excerpt_remove_blocks leaves out, through the_content, cut to
 * its first 55 words followed by `more` (excerpt_more's ` [&hellip;]` unless a caller, such as the
 * post-excerpt block, changes it).
 */
export async function getTheExcerpt(excerpt: string, content: { raw: string; rendered?: string }, ctx: PageContext, log: Logger, more = ' [&hellip;]'): Promise<string> {
  if (excerpt.trim()) return excerpt;
  return trimWords((await excerptSource(content, ctx, log)).split(']]>').join(']]&gt;'), 55, more);
}

async function filterExcerpt(excerpt: string, content: { raw: string; rendered: string }, ctx: PageContext, log: Logger): Promise<string> {
  const { site } = ctx;
  const text = await getTheExcerpt(excerpt, content, ctx, log);
  const shortcodes = shortcodeNames(site);
  let html = wptexturize(text, shortcodes);
  if (smiliesOn(site)) html = convertSmilies(html);
  html = shortcodeUnautop(wpautop(convertChars(html)), shortcodes);
  return replaceInsecureHomeUrl(await filterContentTags(html, ctx.store, site), site);
}
