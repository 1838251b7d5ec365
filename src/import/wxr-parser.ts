import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';

/**
 * WordPress's export format (WXR 1.0–1.2, what Tools → Export and `wp export` write) read as a
 * stream: records come out one at a time as their closing tag is read, so a file of any size is
 * never held whole. The records carry the fields WordPress's importer parses
 * (WXR_Parser_SimpleXML: each field the element's whole text, ids as integers), under its names.
 */

export interface WxrMeta {
  key: string;
  value: string;
}

export interface WxrAuthor {
  author_id: number;
  author_login: string;
  author_email: string;
  author_display_name: string;
  author_first_name: string;
  author_last_name: string;
}

export interface WxrCategory {
  term_id: number;
  category_nicename: string;
  category_parent: string;
  cat_name: string;
  category_description: string;
  termmeta: WxrMeta[];
}

export interface WxrTag {
  term_id: number;
  tag_slug: string;
  tag_name: string;
  tag_description: string;
  termmeta: WxrMeta[];
}

export interface WxrTerm {
  term_id: number;
  term_taxonomy: string;
  slug: string;
  term_parent: string;
  term_name: string;
  term_description: string;
  termmeta: WxrMeta[];
}

/** A post's term as its item's `<category domain nicename>` gives it (WXR 1.0's `tag` domain included). */
export interface WxrPostTerm {
  name: string;
  slug: string;
  domain: string;
}

export interface WxrComment {
  comment_id: number;
  comment_author: string;
  comment_author_email: string;
  comment_author_IP: string;
  comment_author_url: string;
  comment_date: string;
  comment_date_gmt: string;
  comment_content: string;
  comment_approved: string;
  comment_type: string;
  comment_parent: number;
  comment_user_id: number;
  commentmeta: WxrMeta[];
}

export interface WxrPost {
  post_title: string;
  guid: string;
  post_author: string;
  post_content: string;
  post_excerpt: string;
  post_id: number;
  post_date: string;
  post_date_gmt: string;
  post_modified: string;
  post_modified_gmt: string;
  comment_status: string;
  ping_status: string;
  post_name: string;
  status: string;
  post_parent: number;
  menu_order: number;
  post_type: string;
  post_password: string;
  is_sticky: number;
  attachment_url: string;
  terms: WxrPostTerm[];
  postmeta: WxrMeta[];
  comments: WxrComment[];
}

export interface WxrHeader {
  version: string;
  /** wp:base_site_url: the old site's address, which its content's links start with. */
  baseUrl: string;
  baseBlogUrl: string;
}

/** WordPress's site-editor types, which this site keeps under its own names. */
export const TYPE_NAMES: Readonly<Record<string, string>> = { wp_block: 'cms_block', wp_template: 'cms_template', wp_template_part: 'cms_template_part', wp_navigation: 'cms_navigation', wp_global_styles: 'cms_global_styles' };

/** One record of the file, with the line its element starts on. */
export type WxrRecord = { line: number } & (
  | { kind: 'header'; header: WxrHeader }
  | { kind: 'author'; author: WxrAuthor }
  | { kind: 'category'; category: WxrCategory }
  | { kind: 'tag'; tag: WxrTag }
  | { kind: 'term'; term: WxrTerm }
  | { kind: 'post'; post: WxrPost }
);

/** A file that is not a WXR this reads; the message names the file, the line and the item. */
export class WxrError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** WordPress's words for a file without a usable version (WXR_Parser_SimpleXML). */
export const NOT_WXR = 'This does not appear to be a WXR file, missing/invalid WXR version number';
/** WordPress's words for XML that does not parse. */
export const UNREADABLE = 'There was an error when reading this WXR file';

const RECORDS: Readonly<Record<string, 'author' | 'category' | 'tag' | 'term' | 'post'>> = { 'wp:author': 'author', 'wp:category': 'category', 'wp:tag': 'tag', 'wp:term': 'term', item: 'post' };
/** Elements inside a record that hold a list of their own fields. */
const SUB_RECORDS = new Set(['wp:postmeta', 'wp:termmeta', 'wp:commentmeta', 'wp:comment', 'category']);
/** An item's fields whose element is not `wp:` + the field's name. */
const POST_FIELDS: Readonly<Record<string, string>> = { title: 'post_title', guid: 'guid', 'dc:creator': 'post_author', 'content:encoded': 'post_content', 'excerpt:encoded': 'post_excerpt' };
const INTEGER_FIELDS = new Set(['author_id', 'term_id', 'post_id', 'post_parent', 'menu_order', 'is_sticky', 'comment_id', 'comment_parent', 'comment_user_id']);

const int = (s: string | undefined) => (s === undefined ? 0 : Number.parseInt(s.trim(), 10) || 0);

function fieldName(record: string, element: string): string | undefined {
  if (record === 'post' && POST_FIELDS[element]) return POST_FIELDS[element];
  if (!element.startsWith('wp:')) return undefined;
  const name = element.slice(3);
  // wp:term's slug element is term_slug; the importer calls it slug
  return record === 'term' && name === 'term_slug' ? 'slug' : name;
}

/** A record's fields as text, its sub-records' as lists, read as their elements close. */
interface Open {
  kind: 'author' | 'category' | 'tag' | 'term' | 'post';
  line: number;
  fields: Record<string, string>;
  meta: WxrMeta[];
  terms: WxrPostTerm[];
  comments: WxrComment[];
}

/** WXR_Parser_SimpleXML's test of the version: present and `N.N`. */
export const isWxrVersion = (version: string) => /^\d+\.\d+$/.test(version);

/**
 * Parses WXR from `input`, yielding each record as it is complete. The header comes first, before
 * any other record, as it is when the channel's first record starts (its version may be missing
 * or invalid: `isWxrVersion` tells).
 */
export async function* parseWxr(input: Readable, file: string): AsyncGenerator<WxrRecord> {
  const parser = new SaxesParser({ position: true });
  const ready: WxrRecord[] = [];
  const stack: string[] = [];
  let open: Open | undefined;
  /** The sub-record being read (a postmeta, a comment...) and its fields. */
  let sub: { element: string; fields: Record<string, string>; meta: WxrMeta[]; attrs: Record<string, string> } | undefined;
  let text: string | undefined;
  const channel: Record<string, string> = {};
  let header: WxrHeader | undefined;
  let failure: WxrError | undefined;

  const fail = (line: number, reason: string): never => {
    throw (failure ??= new WxrError(file, line, reason));
  };
  const headerNow = (line: number) => {
    if (header) return;
    const version = (channel.wxr_version ?? '').trim();
    const baseUrl = (channel.base_site_url ?? '').trim();
    header = { version, baseUrl, baseBlogUrl: (channel.base_blog_url ?? '').trim() || baseUrl };
    ready.push({ kind: 'header', line, header });
  };

  const within = () => (open ? ` (in the ${open.kind === 'post' ? 'item' : open.kind} that starts on line ${open.line})` : '');
  parser.on('error', (e) => fail(parser.line, `${UNREADABLE}: ${e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')}${within()}`));
  parser.on('opentag', (tag) => {
    const name = tag.name;
    stack.push(name);
    text = undefined;
    if (!open) {
      const kind = RECORDS[name];
      if (kind && stack.length === 3) {
        headerNow(parser.line);
        open = { kind, line: parser.line, fields: {}, meta: [], terms: [], comments: [] };
      } else if (stack.length === 3) text = '';
      return;
    }
    if (sub && sub.element === 'wp:comment' && name === 'wp:commentmeta') return;
    if (!sub && SUB_RECORDS.has(name)) {
      sub = { element: name, fields: {}, meta: [], attrs: tag.attributes as Record<string, string> };
      if (name === 'category') text = '';
      return;
    }
    text = '';
  });
  const addText = (t: string) => {
    if (text !== undefined) text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', (tag) => {
    const name = tag.name;
    const value = text ?? '';
    text = undefined;
    stack.pop();
    if (!open) {
      if (stack.length === 2 && name.startsWith('wp:')) channel[name.slice(3)] = value;
      if (name === 'channel' || name === 'rss') headerNow(parser.line);
      return;
    }
    if (sub) {
      if (name === sub.element) {
        closeSub(open, sub, value);
        sub = undefined;
      } else if (name === 'wp:commentmeta') sub.meta.push({ key: sub.fields.meta_key ?? '', value: sub.fields.meta_value ?? '' });
      else if (name.startsWith('wp:')) sub.fields[name.slice(3)] = value;
      return;
    }
    if (RECORDS[name] === open.kind && stack.length === 2) {
      ready.push(closeRecord(open));
      open = undefined;
      return;
    }
    const field = fieldName(open.kind, name);
    if (field) open.fields[field] = value;
  });

  input.setEncoding('utf8');
  try {
    for await (const chunk of input) {
      parser.write(chunk as string);
      yield* ready.splice(0);
    }
    parser.close();
  } catch (e) {
    if (failure) throw failure;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new WxrError(file, 0, 'there is no such file');
    if (e instanceof Error && 'code' in e) throw new WxrError(file, 0, `cannot be read: ${e.message}`);
    throw e;
  }
  yield* ready.splice(0);
  if (!header) headerNow(parser.line);
}

function closeSub(open: Open, sub: { element: string; fields: Record<string, string>; meta: WxrMeta[]; attrs: Record<string, string> }, value: string): void {
  const f = sub.fields;
  if (sub.element === 'category') {
    // a category without domain and nicename is WXR 1.0's duplicate of one with them: WordPress skips it
    if (sub.attrs.domain !== undefined && sub.attrs.nicename !== undefined) open.terms.push({ name: value, slug: sub.attrs.nicename, domain: sub.attrs.domain });
  } else if (sub.element === 'wp:comment') {
    const c: Record<string, unknown> = { commentmeta: sub.meta };
    for (const k of ['comment_author', 'comment_author_email', 'comment_author_IP', 'comment_author_url', 'comment_date', 'comment_date_gmt', 'comment_content', 'comment_approved', 'comment_type']) c[k] = f[k] ?? '';
    for (const k of ['comment_id', 'comment_parent', 'comment_user_id']) c[k] = int(f[k]);
    open.comments.push(c as unknown as WxrComment);
  } else open.meta.push({ key: f.meta_key ?? '', value: f.meta_value ?? '' });
}

function closeRecord(open: Open): WxrRecord {
  const f = open.fields;
  const fields = (names: string[]) => Object.fromEntries(names.map((n) => [n, INTEGER_FIELDS.has(n) ? int(f[n]) : (f[n] ?? '')]));
  const line = open.line;
  switch (open.kind) {
    case 'author':
      return { kind: 'author', line, author: fields(['author_id', 'author_login', 'author_email', 'author_display_name', 'author_first_name', 'author_last_name']) as unknown as WxrAuthor };
    case 'category':
      return { kind: 'category', line, category: { ...(fields(['term_id', 'category_nicename', 'category_parent', 'cat_name', 'category_description']) as object), termmeta: open.meta } as WxrCategory };
    case 'tag':
      return { kind: 'tag', line, tag: { ...(fields(['term_id', 'tag_slug', 'tag_name', 'tag_description']) as object), termmeta: open.meta } as WxrTag };
    case 'term':
      return { kind: 'term', line, term: { ...(fields(['term_id', 'term_taxonomy', 'slug', 'term_parent', 'term_name', 'term_description']) as object), termmeta: open.meta } as WxrTerm };
    case 'post': {
      const post = fields([
        'post_title', 'guid', 'post_author', 'post_content', 'post_excerpt', 'post_id', 'post_date', 'post_date_gmt', 'post_modified', 'post_modified_gmt', 'comment_status', 'ping_status',
        'post_name', 'status', 'post_parent', 'menu_order', 'post_type', 'post_password', 'is_sticky', 'attachment_url',
      ]);
      return { kind: 'post', line, post: { ...(post as object), terms: open.terms, postmeta: open.meta, comments: open.comments } as WxrPost };
    }
  }
}

/** The records of a file on disk, named `name` in messages. */
export function readWxrFile(path: string, name = path): AsyncGenerator<WxrRecord> {
  return parseWxr(createReadStream(path), name);
}
