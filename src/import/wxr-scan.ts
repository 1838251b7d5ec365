import { isWxrVersion, NOT_WXR, readWxrFile, WxrError, type WxrAuthor, type WxrRecord } from './wxr-parser.ts';
import type { RecordSpool } from './record-spool.ts';

/** What a WXR file holds, read through once before anything is written (the admin's upload shows it; the import's progress counts it). */
export interface WxrScan {
  version: string;
  baseUrl: string;
  /** Records of each kind: authors, categories, tags, terms, and items by post type. */
  authors: WxrAuthor[];
  categories: number;
  tags: number;
  terms: number;
  items: Record<string, number>;
  /** Every record after the header: what the progress counts. */
  total: number;
}

/** The file read once, checking it whole and counting what it holds; nothing is written but the records to `spool`, when given. */
export async function scanWxr(file: string, read: () => AsyncGenerator<WxrRecord> = () => readWxrFile(file), spool?: RecordSpool): Promise<WxrScan> {
  const scan: WxrScan = { version: '', baseUrl: '', authors: [], categories: 0, tags: 0, terms: 0, items: {}, total: 0 };
  let versionLine = 0;
  const creators = new Set<string>();
  for await (const r of read()) {
    await spool?.add(r);
    if (r.kind === 'header') {
      ({ version: scan.version, baseUrl: scan.baseUrl } = r.header);
      versionLine = r.line;
      continue;
    }
    scan.total++;
    if (r.kind === 'author') scan.authors.push(r.author);
    else if (r.kind === 'category') scan.categories++;
    else if (r.kind === 'tag') scan.tags++;
    else if (r.kind === 'term') scan.terms++;
    else {
      scan.items[r.post.post_type] = (scan.items[r.post.post_type] ?? 0) + 1;
      if (r.post.post_author) creators.add(r.post.post_author);
    }
  }
  if (!isWxrVersion(scan.version)) throw new WxrError(file, versionLine, NOT_WXR);
  // WXR 1.0 has no author records: WordPress takes the authors from the items' dc:creator
  if (!scan.authors.length) for (const login of creators) scan.authors.push({ author_id: 0, author_login: login, author_email: '', author_display_name: login, author_first_name: '', author_last_name: '' });
  return scan;
}
