import type { Logger } from '../engine/types.ts';
import type { HeadMeta, NamedSiteHooks, PageContext, PageView, Site } from './site.ts';
import { hasBlocks } from './blocks.ts';
import { capitalPDangit, convertChars, convertSmilies, shortcodeUnautop, trimWords, wpautop, wptexturize } from '../format/format.ts';
import { filterContentTags } from './content-tags.ts';
import { keptRenderings } from './kept-renderings.ts';

// A plugin hook that throws is logged and skipped, so one broken plugin does not take the page down.
function reportFailure(log: Logger, ext: NamedSiteHooks, hook: string, e: unknown): void {
  log.error(`site hook ${hook} of plugin ${ext.plugin} failed: ${e instanceof Error ? e.message : String(e)}`);
}

/**
 * The shortcodes WordPress itself registers (add_shortcode in media.php and class-wp-embed.php).
 * Nothing renders them here, but wptexturize and shortcode_unautop treat them as WordPress does.
 */
const CORE_SHORTCODES = ['wp_caption', 'caption', 'gallery', 'playlist', 'audio', 'video', 'embed'];

/** $shortcode_tags: the core's, then each active plugin's. */
const shortcodesOf = (site: Site): string[] => [...CORE_SHORTCODES, ...site.hooks.flatMap((ext) => ext.hooks.shortcodes ?? [])];

/** The `use_smilies` option (on for a new site, as WordPress installs it). */
const smiliesOn = (site: Site): boolean => {
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
 * the_content: WordPress 6.1's filters in their priority order (default-filters.php): do_blocks (9);
 * wptexturize, wpautop (unhooked by do_blocks for block content), shortcode_unautop,
 * wp_filter_content_tags and wp_replace_insecure_home_url (10); capital_P_dangit and do_shortcode
 * (11), where the active plugins' content filters render their shortcodes, in order;
 * convert_smilies (20) when the `use_smilies` option is on.
 */
export function theContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  return keptRenderings(ctx.site).keep(ctx, ['the_content', raw], (traced) => filterContent(raw, traced, log));
}

async function filterContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  const { site } = ctx;
  const shortcodes = shortcodesOf(site);
  let html = await site.blocks.render(raw, ctx);
  html = wptexturize(html, shortcodes);
  if (!hasBlocks(raw)) html = wpautop(html);
  html = shortcodeUnautop(html, shortcodes);
  html = await filterContentTags(html, ctx.store, site);
  html = capitalPDangit(replaceInsecureHomeUrl(html, site));
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
 * the_excerpt of get_the_excerpt: the post's own excerpt, else wp_trim_excerpt's: the content
 * without the blocks excerpt_remove_blocks leaves out, through the_content, cut to its first 55
 * words with ` [&hellip;]`; then the_excerpt's filters in WordPress's order: wptexturize,
 * convert_smilies, convert_chars, wpautop, shortcode_unautop, wp_filter_content_tags,
 * wp_replace_insecure_home_url. `content.rendered` is the_content of `content.raw`, reused for
 * classic content.
 */
export function renderedExcerpt(excerpt: string, content: { raw: string; rendered: string }, ctx: PageContext, log: Logger): Promise<string> {
  // the excerpt's own text, else the content it is made from: block markup as stored, classic content as rendered
  const source = excerpt.trim() ? [] : hasBlocks(content.raw) ? ['blocks', content.raw] : ['rendered', content.rendered];
  return keptRenderings(ctx.site).keep(ctx, ['the_excerpt', excerpt, ...source], (traced) => filterExcerpt(excerpt, content, traced, log));
}

/**
 * get_the_excerpt: the post's own excerpt, else wp_trim_excerpt's: the content without the blocks
 * excerpt_remove_blocks leaves out, through the_content, cut to its first 55 words followed by
 * `more` (excerpt_more's ` [&hellip;]` unless a caller, such as the post-excerpt block, changes it).
 */
export async function getTheExcerpt(excerpt: string, content: { raw: string; rendered?: string }, ctx: PageContext, log: Logger, more = ' [&hellip;]'): Promise<string> {
  if (excerpt.trim()) return excerpt;
  const source = hasBlocks(content.raw) ? await filterContent(await ctx.site.blocks.renderForExcerpt(content.raw, ctx), ctx, log) : (content.rendered ?? (await theContent(content.raw, ctx, log)));
  return trimWords(source.split(']]>').join(']]&gt;'), 55, more);
}

async function filterExcerpt(excerpt: string, content: { raw: string; rendered: string }, ctx: PageContext, log: Logger): Promise<string> {
  const { site } = ctx;
  const text = await getTheExcerpt(excerpt, content, ctx, log);
  const shortcodes = shortcodesOf(site);
  let html = wptexturize(text, shortcodes);
  if (smiliesOn(site)) html = convertSmilies(html);
  html = shortcodeUnautop(wpautop(convertChars(html)), shortcodes);
  return replaceInsecureHomeUrl(await filterContentTags(html, ctx.store, site), site);
}
