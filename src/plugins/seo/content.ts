import { Parser } from 'htmlparser2';
import { renderContent } from '../../format/format.ts';

/**
 * What the analysis and link indexing read from a post's or term's content: its blocks of text
 * (paragraphs, list items, headings) in order, its links and its images. The content is first
 * formatted as the site shows it (wpautop for classic content), then parsed by htmlparser2, which
 * decodes entities and copes with the broken markup real content has.
 */

export interface TextBlock {
  /** `p` for running text (paragraphs, list items, cells, quotes), `h` for a subheading (h2-h6), `h1` for a top heading. */
  kind: 'p' | 'h' | 'h1';
  text: string;
}

export interface ContentLink {
  href: string;
  rel: string;
  text: string;
}

export interface ContentImage {
  src: string;
  /** null when the image has no alt attribute at all. */
  alt: string | null;
}

export interface ParsedContent {
  blocks: TextBlock[];
  links: ContentLink[];
  images: ContentImage[];
}

/** Elements that start and end a block of text; text outside them is a block of its own. */
const BLOCKS = new Set(['p', 'li', 'dd', 'dt', 'td', 'th', 'blockquote', 'pre', 'figcaption', 'caption', 'div', 'section', 'article', 'aside', 'header', 'footer', 'address', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements whose text is never read: code and embedded documents are not prose. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'code']);

const SPACE = /\s+/g;

/** Parses content as stored (or a term description); `raw` is formatted first, as the_content does. */
export function parseContent(raw: string): ParsedContent {
  const blocks: TextBlock[] = [];
  const links: ContentLink[] = [];
  const images: ContentImage[] = [];
  let text = '';
  let kind: TextBlock['kind'] = 'p';
  let skipping = 0;
  let link: ContentLink | null = null;
  const flush = () => {
    const t = text.replace(SPACE, ' ').trim();
    if (t) blocks.push({ kind, text: t });
    text = '';
    kind = 'p';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (SKIPPED.has(name)) skipping++;
        else if (BLOCKS.has(name)) {
          flush();
          if (name === 'h1') kind = 'h1';
          else if (name[0] === 'h' && name.length === 2) kind = 'h';
        } else if (name === 'br') text += ' ';
        else if (name === 'a' && attrs.href !== undefined) links.push((link = { href: attrs.href.trim(), rel: (attrs.rel ?? '').toLowerCase(), text: '' }));
        else if (name === 'img') images.push({ src: attrs.src ?? '', alt: attrs.alt ?? null });
      },
      ontext(data) {
        if (skipping) return;
        text += data;
        if (link) link.text += data;
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCKS.has(name)) flush();
        else if (name === 'a' && link) {
          link.text = link.text.replace(SPACE, ' ').trim();
          link = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(renderContent(raw));
  parser.end();
  flush();
  return { blocks, links, images };
}

/** The first image of the content (the page's image when nothing else names one), as an absolute URL on `base`. */
export function firstImage(images: readonly ContentImage[], base: string): string | undefined {
  for (const img of images) {
    if (!img.src) continue;
    try {
      return new URL(img.src, base).href;
    } catch {
      // an unparsable src names no image
    }
  }
  return undefined;
}
