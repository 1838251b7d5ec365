import type { Store } from '../store/index.ts';
import type { Site } from '../engine/site.ts';
import type { Logger } from '../engine/types.ts';
import { renderContent } from './format.ts';
import { oembedDiscoveryLinks } from '../oembed/discovery-links.ts';
import { snippetsExtension } from '../snippets/site.ts';

/** What a server-rendered page is about, handed to every extension. */
export interface PageContext {
  store: Store;
  site: Site;
  /** 'home' | 'post' | 'page' | 'embed' | '404' */
  kind: string;
  /** The post shown, when there is one. */
  postId?: number;
  /** The page's canonical URL. */
  url: string;
}

/**
 * A plugin's hooks into the rendered site (wp_head, wp_footer, the_content). Each returns HTML
 * to add, or the filtered content.
 */
export interface SiteExtension {
  name: string;
  head?(ctx: PageContext): Promise<string> | string;
  footer?(ctx: PageContext): Promise<string> | string;
  filterContent?(html: string, ctx: PageContext): Promise<string> | string;
}

/** The extensions in the order their output appears; plugin modules add themselves here. */
export const siteExtensions: SiteExtension[] = [oembedDiscoveryLinks, snippetsExtension];

// An extension that throws is logged and skipped, so one broken plugin does not take the page down.
function reportFailure(log: Logger, ext: SiteExtension, hook: string, e: unknown): void {
  log.error(`site extension ${ext.name} failed in ${hook}: ${e instanceof Error ? e.message : String(e)}`);
}

/** the_content: core formatting, then every extension's filter in order. */
export async function theContent(raw: string, ctx: PageContext, log: Logger): Promise<string> {
  let html = renderContent(raw);
  for (const ext of siteExtensions) {
    if (!ext.filterContent) continue;
    try {
      html = await ext.filterContent(html, ctx);
    } catch (e) {
      reportFailure(log, ext, 'filterContent', e);
    }
  }
  return html;
}

/** wp_head / wp_footer: every extension's output in order, a line each. */
export async function hookOutput(hook: 'head' | 'footer', ctx: PageContext, log: Logger): Promise<string> {
  let out = '';
  for (const ext of siteExtensions) {
    const fn = ext[hook];
    if (!fn) continue;
    try {
      const html = await fn.call(ext, ctx);
      if (html) out += html.endsWith('\n') ? html : `${html}\n`;
    } catch (e) {
      reportFailure(log, ext, hook, e);
    }
  }
  return out;
}
