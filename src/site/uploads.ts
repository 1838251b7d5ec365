import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Site } from '../core/site.ts';
import { servedType, UPLOADS_PATH } from '../core/media.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { decodePercent } from '../engine/url-decoding.ts';

/**
 * SVG can carry scripts: served from the site's own origin they would run with its cookies if the
 * file were opened directly. This policy lets it render (inline styles, embedded images) and
 * nothing else: no script, no plugin, no request elsewhere, a sandboxed document.
 */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/** Whether a site path is under the uploads folder's URL. */
export const isUploadPath = (path: string) => path.startsWith(`${UPLOADS_PATH}/`);

/**
 * A file of the media library, as the web server in front of WordPress serves wp-content/uploads:
 * streamed from disk with the content type of its extension (never sniffed), an ETag and
 * Last-Modified for revalidation (304), SVG under a policy that keeps any script in it from
 * running. Paths leaving the folder, the downloads under way (`.tmp`) and folders are 404 (null).
 */
export async function uploadResponse(site: Site, req: PageRequest): Promise<PageResponse | null> {
  const relative = decodePercent(req.path.slice(UPLOADS_PATH.length + 1));
  if (relative === null || relative.split('/').some((s) => s.startsWith('.'))) return null;
  const file = site.media.pathOf(relative);
  if (!file) return null;
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const type = servedType(file);
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'public, max-age=86400',
    ETag: etag,
    'Last-Modified': info.mtime.toUTCString(),
    'X-Content-Type-Options': 'nosniff',
  };
  if (type === 'image/svg+xml') headers['Content-Security-Policy'] = SVG_POLICY;
  if (req.headers['if-none-match'] === etag) return { status: 304, headers, body: '' };
  return { status: 200, headers: { ...headers, 'Content-Length': String(info.size) }, body: createReadStream(file) };
}
