import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { MediaLibrary } from '../core/media.ts';
import { decodePercent } from '../engine/url-decoding.ts';
import { OutboundError } from '../net/errors.ts';
import { guardedDownload } from '../net/fetch.ts';

/** Where an import's attachment files come from: a local copy of the old site's uploads, else (when allowed) the old site itself. */
export interface AttachmentSource {
  uploadsDir?: string;
  fetch: boolean;
  /** Hosts and addresses the fetches may reach although non-public (tests' local servers). */
  allowHosts?: string[];
}

/**
 * An attachment's file (fetch_remote_file, or the copy in the uploads folder given) in a temporary
 * file under the media library's folder, for the library to move in; undefined when neither is
 * possible. A fetch that fails throws, with the words the import reports.
 */
export async function attachmentFile(url: string, media: MediaLibrary, from: AttachmentSource): Promise<string | undefined> {
  const local = from.uploadsDir ? localUpload(from.uploadsDir, url) : undefined;
  const copy = local !== undefined && (await stat(local).catch(() => undefined))?.isFile();
  if (!copy && !from.fetch) return undefined;
  const temp = join(media.uploadsDir, '.tmp', randomUUID());
  await mkdir(dirname(temp), { recursive: true });
  if (copy) {
    await copyFile(local, temp);
    return temp;
  }
  try {
    await guardedDownload(url, temp, { maxBytes: media.settings.uploadLimit, allow: from.allowHosts });
    return temp;
  } catch (e) {
    await rm(temp, { force: true });
    throw new Error(e instanceof OutboundError ? e.message : `Remote server did not respond (${e instanceof Error ? e.message : String(e)})`);
  }
}

/**
 * The file of an upload URL in a local copy of the uploads folder: the path after `/uploads/`
 * (the whole path for a file host's URL without it, as WordPress.com's `files.` hosts serve
 * `/2008/06/name.jpg`), kept inside the folder.
 */
function localUpload(uploadsDir: string, url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const path = decodePercent(pathname);
  if (path === null) return undefined;
  const at = path.indexOf('/uploads/');
  const root = resolve(uploadsDir);
  const file = resolve(root, at < 0 ? path.replace(/^\/+/, '') : path.slice(at + '/uploads/'.length));
  return file.startsWith(root + sep) ? file : undefined;
}
