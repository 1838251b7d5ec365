import type { HandlerContext } from '../../engine/types.ts';
import { theContent, type PageContext } from '../../site/extensions.ts';
import { excerptText, wpautop } from '../../site/format.ts';

/** the_content for the API, as the rendered site shows it (shortcodes and all). */
export function renderedContent(ctx: HandlerContext, raw: string, page: Omit<PageContext, 'store' | 'site'>): Promise<string> {
  return theContent(raw, { store: ctx.store, site: ctx.site, ...page }, ctx.log);
}

/** the_excerpt: the post's own excerpt or 55 words of its rendered content, as a paragraph. */
export function renderedExcerpt(excerpt: string, renderedContentHtml: string): string {
  const text = excerptText(excerpt, renderedContentHtml);
  return text ? wpautop(text) : '';
}
