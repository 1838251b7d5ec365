import { forceBalanceTags } from './balance-tags.ts';

/**
 * get_the_content as wp_trim_excerpt calls it (no "more" link text) for the post shown outside
 * its own page, as the REST API sets it up: the first page of the content (generate_postdata's
 * split at `<!--nextpage-->`, its block delimiters and the newlines around it dropped, one at the
 * very start ignored) up to its `<!--more-->` (the more block's delimiters dropped), its tags
 * balanced when it was cut there.
 */
export function firstPageTeaser(content: string): string {
  let page = content;
  if (page.includes('<!--nextpage-->')) {
    page = page
      .split('\n<!--nextpage-->\n').join('<!--nextpage-->')
      .split('\n<!--nextpage-->').join('<!--nextpage-->')
      .split('<!--nextpage-->\n').join('<!--nextpage-->')
      .split('<!-- wp:nextpage -->').join('')
      .split('<!-- /wp:nextpage -->').join('');
    if (page.startsWith('<!--nextpage-->')) page = page.slice('<!--nextpage-->'.length);
    page = page.split('<!--nextpage-->')[0];
  }
  const more = /<!--more(.*?)?-->/.exec(page);
  if (!more) return page;
  // has_block('more'): the block's delimiters would be left over around the split
  if (page.includes('<!-- wp:more ') || page.includes('<!-- wp:core/more ')) page = page.replace(/<!-- \/?wp:more(.*?) -->/g, '');
  const at = page.indexOf(more[0]);
  return at < 0 ? page : forceBalanceTags(page.slice(0, at));
}
