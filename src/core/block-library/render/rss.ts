import { SaxesParser } from 'saxes';
import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr, escapeHtml, stripAllTags, trimWords } from '../../../format/format.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { guardedFetch } from '../../../net/fetch.ts';
import { int } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * render_block_core_rss (WordPress 6.1): the newest entries of an RSS 2.0, RSS 1.0 or Atom feed
 * as fetch_feed reads them (SimplePie: items by date, newest first, when all have one), or the
 * placeholder WordPress shows when the feed cannot be read. The feed is fetched through the
 * guarded client (public addresses only, as wp_safe_remote_request); one read is kept twelve
 * hours, as fetch_feed's cache keeps it (here in the process, per site, where WordPress keeps a
 * transient), and one that fails is asked again at the next rendering, as WordPress does.
 */

/** How long a feed read is kept (fetch_feed's wp_feed_cache_transient_lifetime) and how many feeds a site keeps. */
const FEED_KEPT_MS = 12 * 3600 * 1000;
const FEEDS_KEPT = 100;
const keptFeeds = new WeakMap<object, Map<string, { body: string; until: number }>>();

const ACCEPT = 'application/atom+xml, application/rss+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.7, unknown/unknown;q=0.1, application/unknown;q=0.1, */*;q=0.1';

/** The site's feeds read, by URL. */
function feedsOf(site: object): Map<string, { body: string; until: number }> {
  let kept = keptFeeds.get(site);
  if (!kept) keptFeeds.set(site, (kept = new Map()));
  return kept;
}

/** The feed's body: the one kept if younger than twelve hours, else read again. */
async function feedBody(site: object, url: string): Promise<string> {
  const found = feedsOf(site).get(url);
  if (found && found.until > Date.now()) return found.body;
  return (await guardedFetch(url, { timeoutMs: 10_000, headers: { accept: ACCEPT } })).text();
}

/** A feed read as a feed is kept (SimplePie caches only what it could read); the oldest goes past FEEDS_KEPT. */
function keepFeed(site: object, url: string, body: string): void {
  const kept = feedsOf(site);
  if (kept.get(url)?.body === body) return;
  kept.delete(url);
  kept.set(url, { body, until: Date.now() + FEED_KEPT_MS });
  if (kept.size > FEEDS_KEPT) kept.delete(kept.keys().next().value!);
}

const placeholder = (html: string) => `<div class="components-placeholder"><div class="notice notice-error">${html}</div></div>`;

/** One entry as the block reads it (SimplePie_Item's title, link, date, first author's name, description). */
interface FeedItem {
  title: string;
  link: string;
  /** Seconds since the epoch, or null without a date. */
  date: number | null;
  /** The first author: null when none; a name of '' when the first only gave an e-mail (an RSS 2.0 `author`). */
  author: { name: string } | null;
  description: string;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”' };

/** html_entity_decode for the entities feeds carry: numeric ones and the common named ones; others stay as written. */
const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });

/** The feed's items, or the error SimplePie would report for a document that is not a feed. */
function parseFeed(xml: string): FeedItem[] | string {
  const parser = new SaxesParser({ xmlns: false });
  const items: FeedItem[] = [];
  const path: string[] = [];
  let root = '';
  let item: (FeedItem & { rssAuthor?: boolean; creator?: string; atomAuthor?: string; summary?: string; content?: string }) | undefined;
  let text = '';
  let error = '';
  parser.on('error', (e) => {
    error ||= e.message;
  });
  parser.on('opentag', (tag) => {
    const name = tag.name.toLowerCase();
    if (!root) root = name;
    path.push(name);
    text = '';
    if (name === 'item' || name === 'entry') item = { title: '', link: '', date: null, author: null, description: '' };
    const href = tag.attributes.href;
    if (item && name === 'link' && typeof href === 'string') {
      const rel = typeof tag.attributes.rel === 'string' ? tag.attributes.rel : 'alternate';
      if (rel === 'alternate' && !item.link) item.link = href;
    }
  });
  parser.on('text', (t) => (text += t));
  parser.on('cdata', (t) => (text += t));
  parser.on('closetag', (tag) => {
    const name = tag.name.toLowerCase();
    const parent = path[path.length - 2];
    path.pop();
    if (!item) return;
    const value = text.trim();
    if (name === 'item' || name === 'entry') {
      const author = item.atomAuthor !== undefined ? { name: item.atomAuthor } : item.rssAuthor ? { name: '' } : item.creator !== undefined ? { name: item.creator } : null;
      items.push({ title: item.title, link: item.link, date: item.date, author, description: item.summary ?? item.description ?? item.content ?? '' });
      item = undefined;
    } else if (parent === 'item' || parent === 'entry') {
      if (name === 'title') item.title = value;
      else if (name === 'link' && !item.link && value) item.link = value;
      else if (['pubdate', 'published', 'updated', 'dc:date', 'issued', 'modified'].includes(name) && item.date === null) {
        const ms = Date.parse(value);
        if (Number.isFinite(ms)) item.date = Math.floor(ms / 1000);
      } else if (name === 'author' && parent === 'item') item.rssAuthor = true;
      else if (name === 'dc:creator' && item.creator === undefined) item.creator = value;
      else if (name === 'description') item.description = value;
      else if (name === 'summary') item.summary = value;
      else if (name === 'content' || name === 'content:encoded') item.content ??= value;
    } else if (name === 'name' && parent === 'author' && path[path.length - 2] === 'entry' && item.atomAuthor === undefined) item.atomAuthor = value;
    text = '';
  });
  try {
    parser.write(xml).close();
  } catch (e) {
    error ||= e instanceof Error ? e.message : String(e);
  }
  if (error) return `This XML document is invalid, likely due to invalid characters. XML error: ${error}`;
  if (!['rss', 'feed', 'rdf:rdf'].includes(root)) return 'A feed could not be found.';
  return items;
}

/** `F j, Y` (or the site's date format) of a time, as date_i18n prints a UTC timestamp. */
const dateOf = (format: string, seconds: number) => formatLocalDate(format, new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19));

export async function rss(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const url = typeof a.feedURL === 'string' ? a.feedURL : '';
  if ([ctx.site.info.url, ctx.site.home].includes(url.replace(/[/\\]+$/, '')))
    return placeholder('Adding an RSS feed to this site’s homepage is not supported, as it could lead to a loop that slows down your site. Try using another block, like the <strong>Latest Posts</strong> block, to list posts from the site.');
  let body: string;
  try {
    body = await feedBody(ctx.site, url);
  } catch (e) {
    // WP_SimplePie_File's words; the reason is the guarded client's, where WordPress gives cURL's
    return placeholder(`<strong>RSS Error:</strong> ${escapeHtml(`WP HTTP Error: ${e instanceof Error ? e.message : String(e)}`)}`);
  }
  const parsed = parseFeed(body);
  if (typeof parsed === 'string') return placeholder(`<strong>RSS Error:</strong> ${escapeHtml(parsed)}`);
  keepFeed(ctx.site, url, body);
  if (!parsed.length) return placeholder('An error has occurred, which probably means the feed is down. Try again later.');
  // SimplePie orders by date, newest first, only when every item has one
  const items = parsed.every((i) => i.date !== null) ? [...parsed].sort((x, y) => y.date! - x.date!) : parsed;
  const dateFormat = ctx.site.options.date_format || 'F j, Y';
  let list = '';
  for (const item of items.slice(0, Math.max(0, int(a.itemsToShow, 5)))) {
    let title = escapeHtml(stripAllTags(decodeEntities(item.title)).trim()) || '(no title)';
    if (item.link) title = `<a href='${escapeAttr(item.link)}'>${title}</a>`;
    title = `<div class='wp-block-rss__item-title'>${title}</div>`;
    // get_option( 'c' ) is no option, so the datetime WordPress prints is empty
    const date = a.displayDate && item.date ? `<time datetime="" class="wp-block-rss__item-publish-date">${escapeAttr(dateOf(dateFormat, item.date))}</time> ` : '';
    const author = a.displayAuthor && item.author ? `<span class="wp-block-rss__item-author">by ${escapeHtml(stripAllTags(item.author.name))}</span>` : '';
    let excerpt = '';
    if (a.displayExcerpt) {
      let text = escapeAttr(trimWords(decodeEntities(item.description), int(a.excerptLength, 55), ' [&hellip;]'));
      if (text.endsWith('[...]')) text = `${text.slice(0, -5)}[&hellip;]`;
      excerpt = `<div class="wp-block-rss__item-excerpt">${escapeHtml(text)}</div>`;
    }
    list += `<li class='wp-block-rss__item'>${title}${date}${author}${excerpt}</li>`;
  }
  const classes: string[] = [];
  if (a.blockLayout === 'grid') classes.push('is-grid', `columns-${int(a.columns, 2)}`);
  if (a.displayDate) classes.push('has-dates');
  if (a.displayAuthor) classes.push('has-authors');
  if (a.displayExcerpt) classes.push('has-excerpts');
  return `<ul ${wrapperAttributes(block, { class: classes.join(' ') })}>${list}</ul>`;
}
