import type { Logger } from '../engine/types.ts';
import type { HeadMeta, NamedSiteHooks, PageContext, PageView } from '../core/site.ts';
import { excerptText, wpautop } from './format.ts';

// A plugin hook that throws is logged and skipped, so one broken plugin does not take the page down.
function reportFailure(log: Logger, ext: NamedSiteHooks, hook: string, e: unknown): void {
  log.error(`site hook ${hook} of plugin ${ext.plugin} failed: ${e instanceof Error ? e.message : String(e)}`);
}

/** the_content: do_blocks (or wpautop for classic content), then every active plugin's content filter in order. */
export async function theContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  let html = await ctx.site.blocks.render(raw, ctx);
  for (const ext of ctx.site.hooks) {
    if (!ext.hooks.content) continue;
    try {
      html = await ext.hooks.content(html, ctx);
    } catch (e) {
      reportFailure(log, ext, 'content', e);
    }
  }
  return html;
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

/** the_excerpt: the post's own excerpt or 55 words of its rendered content, as a paragraph. */
export function renderedExcerpt(excerpt: string, renderedContentHtml: string): string {
  const text = excerptText(excerpt, renderedContentHtml);
  return text ? wpautop(text) : '';
}
