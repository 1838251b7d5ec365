import { Parser } from 'htmlparser2';
import { stripAllTags } from '../../format/format.ts';

/**
 * What url-details answers: each field the empty string when the page's head does not say. A type,
 * not an interface: it must fit its route's answer type (`cms-spec types`), which admits further
 * keys, as an interface does not.
 */
export type HeadDetails = {
  title: string;
  icon: string;
  description: string;
  image: string;
};

const ICON_RELS = new Set(['icon', 'icon shortcut', 'shortcut icon']);
const DESCRIPTION_NAMES = new Set(['og:description', 'description']);
const IMAGE_PROPERTIES = new Set(['og:image', 'og:image:url']);

/** prepare_metadata_for_output: entities decoded (the parser did) and tags stripped. */
const metadata = (text: string) => stripAllTags(text.trim());

/** A URL from the head, absolute against the page that named it; data: URLs (inline icons) as they are. */
function absolute(href: string, pageUrl: string): string {
  if (/^data:/i.test(href)) return href;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return href;
  }
}

/**
 * WP_REST_URL_Details_Controller::find_head_information with htmlparser2 as the tag scanner: the
 * first <title>, the first icon <link>, the first description and Open Graph image <meta>, up to
 * <body>. Relative URLs resolve against the page's own address (WordPress resolves them against
 * the site root, which breaks `icon.png` on a page in a folder).
 */
export function headDetails(html: string, pageUrl: string): HeadDetails {
  const found: Partial<HeadDetails> = {};
  let inBody = false;
  let title: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (inBody) return;
        if (name === 'body') inBody = true;
        else if (name === 'title' && found.title === undefined) title = '';
        else if (name === 'link' && found.icon === undefined && ICON_RELS.has((attrs.rel ?? '').trim().toLowerCase().replace(/\s+/g, ' ')) && attrs.href?.trim()) found.icon = absolute(attrs.href.trim(), pageUrl);
        else if (name === 'meta' && attrs.content?.trim()) {
          const key = (attrs.name ?? attrs.property ?? '').trim().toLowerCase();
          if (found.description === undefined && DESCRIPTION_NAMES.has(key)) found.description = metadata(attrs.content);
          else if (found.image === undefined && IMAGE_PROPERTIES.has((attrs.property ?? '').trim().toLowerCase())) found.image = absolute(attrs.content.trim(), pageUrl);
        }
      },
      ontext(text) {
        if (title !== null) title += text;
      },
      onclosetag(name) {
        // an unclosed <title> runs to the end of the document, as in WordPress
        if (name === 'title' && title !== null) {
          found.title = metadata(title);
          title = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return { title: found.title ?? '', icon: found.icon ?? '', description: found.description ?? '', image: found.image ?? '' };
}
