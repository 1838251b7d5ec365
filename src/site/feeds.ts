import { createHash } from 'node:crypto';
import { Feed, type Item } from 'feed';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import type { FeedType } from '../core/permalinks.ts';
import type { ShownPost } from './templates.ts';

/** What one feed is about: a list of the site (blog, archive, search) or its comments. */
export interface FeedParts {
  type: FeedType;
  title: string;
  description: string;
  /** The HTML page the feed is the feed of. */
  pageUrl: string;
  /** The feed's own URL (rel="self"). */
  selfUrl: string;
  posts: FeedPost[];
  /** When the newest of the listed things last changed; the site's latest change when nothing is listed. */
  updated: Date;
}

export interface FeedPost {
  shown: ShownPost;
  guid: string;
  published: Date;
  modified: Date;
}

const CONTENT_TYPES: Record<FeedType, string> = { rss2: 'application/rss+xml; charset=UTF-8', atom: 'application/atom+xml; charset=UTF-8' };

/**
 * RSS 2.0 or Atom 1.0 through the `feed` library, shaped as WordPress's feed-rss2.php and
 * feed-atom.php are: the excerpt as description/summary, the filtered content in full
 * (content:encoded / content), the author (dc:creator / author), categories and tags.
 */
export function feedXml(f: FeedParts): string {
  const feed = new Feed({
    title: f.title,
    description: f.description,
    id: f.selfUrl,
    link: f.pageUrl,
    language: 'en-US',
    updated: f.updated,
    generator: 'cms-spec',
    feedLinks: { [f.type === 'atom' ? 'atom' : 'rss']: f.selfUrl },
  });
  // dc:creator needs the dc namespace, which the library declares only when some item has content
  const creators = f.type === 'rss2' && f.posts.some((p) => p.shown.html);
  for (const p of f.posts) {
    const terms = [...p.shown.categories, ...p.shown.tags];
    const item: Item = {
      title: p.shown.title || '(no title)',
      id: p.guid,
      link: p.shown.url,
      date: p.modified,
      published: p.published,
      description: p.shown.excerpt,
      content: p.shown.html || undefined,
      category: terms.map((t) => ({ name: t.text, term: t.text })),
    };
    if (f.type === 'atom') item.author = [{ name: p.shown.author.text, link: p.shown.author.url }];
    else if (creators) item.extensions = [{ name: 'dc:creator', objects: { _cdata: p.shown.author.text } }];
    feed.addItem(item);
  }
  return f.type === 'atom' ? feed.atom1() : feed.rss2();
}

/** A feed answer with the validators WordPress sends (Last-Modified, ETag) and a 304 when they match. */
export function feedResponse(req: PageRequest, f: FeedParts): PageResponse {
  const body = feedXml(f);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPES[f.type], 'Last-Modified': f.updated.toUTCString(), ETag: etag };
  if (req.headers['if-none-match'] === etag) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, body };
}
