import { isPostgresUrl } from '../store/db.ts';
import { truthy } from '../format/php-values.ts';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import type { Metadata, Sharp } from 'sharp';
import { RestError } from '../engine/errors.ts';
import { guardedDownload } from '../net/fetch.ts';
import { outboundRestError } from '../net/errors.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import { decodePercent } from '../engine/url-decoding.ts';

/**
 * The media library (WordPress's uploads and attachments): files on disk under the uploads folder,
 * in `YYYY/MM/` subfolders as `uploads_use_yearmonth_folders` makes them, each described by an
 * `attachment` post with WordPress's meta (`_wp_attached_file`, `_wp_attachment_metadata` with
 * width, height, filesize and the generated sizes). The REST routes (`cms/v2/media`) and plugins
 * that import remote images (the image picker, the design library) store files only through here.
 */

/** Where uploaded files are served on the site, as WordPress serves wp-content/uploads. */
export const UPLOADS_PATH = '/cms-content/uploads';

/** The largest upload (and remote image import) accepted by default: 32 MiB. */
export const DEFAULT_UPLOAD_LIMIT = 32 * 1024 * 1024;

/** Post meta keys WordPress keeps on attachments. */
export const ATTACHED_FILE = '_wp_attached_file';
export const ATTACHMENT_METADATA = '_wp_attachment_metadata';
export const IMAGE_ALT = '_wp_attachment_image_alt';
/** Where an imported file came from (the caller's source key), so the same source is imported once. */
export const IMPORT_SOURCE = '_cms_import_source';

export interface MediaSettings {
  /** The folder holding the uploaded files. */
  uploadsDir: string;
  /** Largest upload body, and largest remote image an import downloads, in bytes. */
  uploadLimit: number;
}

/**
 * The uploads folder: given, else CMS_SPEC_UPLOADS, else `uploads` beside the database (a
 * database in memory keeps its files in a temporary folder of its own).
 */
export function uploadsDirFor(dbPath: string, given?: string): string {
  const chosen = given?.trim() || process.env.CMS_SPEC_UPLOADS?.trim();
  if (chosen) return resolve(chosen);
  if (dbPath === ':memory:') return join(tmpdir(), `cms-spec-uploads-${process.pid}-${randomUUID()}`);
  // a PostgreSQL site has no folder of its own: the working directory's, as the default SQLite file's
  if (isPostgresUrl(dbPath)) return resolve('.cms', 'uploads');
  return resolve(dirname(dbPath), 'uploads');
}

/** The media settings of a site on this database: the uploads folder (uploadsDirFor) and the upload limit (given, else CMS_SPEC_UPLOAD_LIMIT, else 32 MiB). */
export function mediaSettingsFor(dbPath: string, given: { uploadsDir?: string; uploadLimit?: number } = {}): MediaSettings {
  const fromEnv = process.env.CMS_SPEC_UPLOAD_LIMIT?.trim();
  if (fromEnv && !/^[1-9]\d*$/.test(fromEnv)) throw new Error(`CMS_SPEC_UPLOAD_LIMIT must be a number of bytes, got '${fromEnv}'`);
  return { uploadsDir: uploadsDirFor(dbPath, given.uploadsDir), uploadLimit: given.uploadLimit ?? (fromEnv ? Number(fromEnv) : DEFAULT_UPLOAD_LIMIT) };
}

/** File types an upload may have, by extension (WordPress's get_allowed_mime_types without unfiltered_upload: no HTML, scripts or SVG). */
const ALLOWED_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', jpe: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
  ico: 'image/x-icon', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', heic: 'image/heic',
  pdf: 'application/pdf', txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', vtt: 'text/vtt', rtf: 'application/rtf',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet', zip: 'application/zip',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', oga: 'audio/ogg', wav: 'audio/wav', flac: 'audio/flac',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', ogv: 'video/ogg', avi: 'video/avi',
};

/** Content types the site serves files with: every uploadable type, and SVG (placed in the folder by hand or by a plugin), served inert. */
const SERVED_TYPES: Readonly<Record<string, string>> = { ...ALLOWED_TYPES, svg: 'image/svg+xml', json: 'application/json' };

/** The raster formats sharp reads and writes, with the type and extension a file of that format gets. */
const RASTER: Readonly<Record<string, { mime: string; ext: string }>> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  gif: { mime: 'image/gif', ext: 'gif' },
  webp: { mime: 'image/webp', ext: 'webp' },
  heif: { mime: 'image/avif', ext: 'avif' },
};
const RASTER_MIMES = new Set(Object.values(RASTER).map((r) => r.mime));

/**
 * wp_create_image_subsizes makes (and lists in the metadata, which srcset and media_details
 * follow) medium, large, thumbnail and medium_large first, so a usable size exists early; the
 * others after them in their registered order.
 */
const CREATED_FIRST = ['medium', 'large', 'thumbnail', 'medium_large'];
const inCreationOrder = (sizes: ImageSize[]): ImageSize[] => [
  ...CREATED_FIRST.flatMap((name) => sizes.filter((s) => s.name === name)),
  ...sizes.filter((s) => !CREATED_FIRST.includes(s.name)),
];

/** The content type a served upload gets, by its extension; unknown extensions are served as bytes. */
export function servedType(file: string): string {
  return SERVED_TYPES[extname(file).slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/** WordPress's default image sizes (thumbnail cropped; the others fit inside their box), read from its options. */
const SIZE_OPTIONS: readonly { name: string; width: string; height: string; crop?: string; defaults: [number, number, boolean] }[] = [
  { name: 'thumbnail', width: 'thumbnail_size_w', height: 'thumbnail_size_h', crop: 'thumbnail_crop', defaults: [150, 150, true] },
  { name: 'medium', width: 'medium_size_w', height: 'medium_size_h', defaults: [300, 300, false] },
  { name: 'medium_large', width: 'medium_large_size_w', height: 'medium_large_size_h', defaults: [768, 0, false] },
  { name: 'large', width: 'large_size_w', height: 'large_size_h', defaults: [1024, 1024, false] },
  { name: '1536x1536', width: '', height: '', defaults: [1536, 1536, false] },
  { name: '2048x2048', width: '', height: '', defaults: [2048, 2048, false] },
];

export interface ImageSize {
  name: string;
  width: number;
  height: number;
  crop: boolean;
}

/** One generated size in `_wp_attachment_metadata.sizes`, as WordPress stores it. */
export interface SizeMeta {
  file: string;
  width: number;
  height: number;
  'mime-type': string;
  filesize: number;
}

/** `_wp_attachment_metadata`: the image's dimensions, file (relative to the uploads folder), size in bytes and generated sizes. */
export interface AttachmentMetadata {
  width?: number;
  height?: number;
  file: string;
  filesize: number;
  sizes: Record<string, SizeMeta>;
  image_meta?: Record<string, unknown>;
}

/** A file to add to the library: where it is now (moved in), what it is called, and the attachment's fields. */
export interface NewMedia {
  /** A file on disk, moved into the uploads folder. */
  path: string;
  /** The name it was uploaded with; sanitised and made unique in its folder. */
  filename: string;
  author: number;
  parent?: number;
  title?: string;
  caption?: string;
  description?: string;
  alt?: string;
  status?: string;
  /** Marks the attachment as imported from this source (see importImage). */
  sourceKey?: string;
  /** The id to insert it with (an import keeps the old site's id when it is free, as WordPress's import_id). */
  id?: number;
  /** 'YYYY-MM…' or 'YYYY/MM…': the month whose folder the file goes in (wp_upload_dir's `$time`, an imported attachment's), instead of now's. */
  uploadedAt?: string;
}

/** What a caller gets back for an imported image. */
export interface ImportedImage {
  id: number;
  url: string;
  /** False when the source had been imported before and the existing attachment is returned. */
  downloaded: boolean;
}

export interface ImageImport {
  url: string;
  /** De-duplicates: an attachment already imported with this key is returned instead of downloading again. */
  sourceKey: string;
  author: number;
  filename?: string;
  title?: string;
  alt?: string;
  caption?: string;
  parent?: number;
  /** Request headers (an API key the image host asks for); never stored. */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

type SharpModule = typeof import('sharp');
let sharpModule: Promise<SharpModule> | undefined;
/** sharp (libvips) is loaded on the first image, not at start-up: most requests never touch one. */
const loadSharp = async (): Promise<SharpModule['default']> => (await (sharpModule ??= import('sharp'))).default;

const uploadError = (code: string, message: string, status = 400) => new RestError(code, message, status);
const notAllowedType = () => uploadError('rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.');

/** sanitize_file_name: no path, no characters that are special in URLs or shells, spaces as dashes. */
export function sanitizeFileName(name: string): string {
  const base = basename(name.replace(/\\/g, '/'))
    .normalize('NFC')
    .replace(/[?[\]/\\=<>:;,'"&$#*()|~`!{}%+’«»”“\u0000-\u001f]/g, '')
    .replace(/[\s-]+/g, '-')
    .replace(/^[-_.]+|[-_.]+$/g, '');
  return base || 'unnamed-file';
}

function splitName(filename: string): { stem: string; ext: string } {
  const ext = extname(filename).slice(1).toLowerCase();
  return { stem: ext ? filename.slice(0, -(ext.length + 1)) : filename, ext };
}

/** resize dimensions as image_resize_dimensions: null when the size would not be smaller than the original. */
export function resizeDimensions(width: number, height: number, size: ImageSize): [number, number] | null {
  let w: number;
  let h: number;
  if (size.crop) {
    w = Math.min(size.width || width, width);
    h = Math.min(size.height || height, height);
    if (!size.width) w = Math.round((h * width) / height);
    if (!size.height) h = Math.round((w * height) / width);
  } else {
    const ratios = [size.width && width > size.width ? size.width / width : 1, size.height && height > size.height ? size.height / height : 1];
    const ratio = Math.min(...ratios);
    w = Math.max(1, Math.round(width * ratio));
    h = Math.max(1, Math.round(height * ratio));
  }
  return w >= width && h >= height ? null : [w, h];
}

/** Moves a file, across file systems too (an upload's temporary folder may be on another). */
export async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await copyFile(from, to);
    await unlink(from);
  }
}

export class MediaLibrary {
  /** Imports under way by source key: a second request for the same source waits for the first instead of downloading again. */
  private readonly importing = new Map<string, Promise<ImportedImage>>();

  constructor(readonly settings: MediaSettings) {}

  get uploadsDir(): string {
    return this.settings.uploadsDir;
  }

  /** The absolute path of a file given relative to the uploads folder; null when the path would leave it. */
  pathOf(relative: string): string | null {
    const root = resolve(this.uploadsDir);
    const full = resolve(root, relative.replace(/^\/+/, ''));
    return full.startsWith(root + sep) ? full : null;
  }

  /** The URL of a file given relative to the uploads folder (wp_get_attachment_url). */
  urlOf(home: string, relative: string): string {
    return `${home}${UPLOADS_PATH}/${relative.split('/').map(encodeURIComponent).join('/')}`;
  }

  /** A temporary file inside the uploads folder (so moving it into place is a rename), for downloads. */
  private async tempFile(): Promise<string> {
    const dir = join(this.uploadsDir, '.tmp');
    await mkdir(dir, { recursive: true });
    return join(dir, randomUUID());
  }

  /** The image sizes the site makes, from its options (WordPress's defaults where unset). */
  async imageSizes(store: Store): Promise<ImageSize[]> {
    const names = SIZE_OPTIONS.flatMap((s) => [s.width, s.height, s.crop ?? '']).filter(Boolean);
    const o = await store.options.getMany(names);
    const num = (name: string, fallback: number) => (name && o[name] !== undefined && /^\d+$/.test(o[name]) ? Number(o[name]) : fallback);
    return SIZE_OPTIONS.map((s) => ({
      name: s.name,
      width: num(s.width, s.defaults[0]),
      height: num(s.height, s.defaults[1]),
      crop: s.crop && o[s.crop] !== undefined ? o[s.crop] === '1' : s.defaults[2],
    })).filter((s) => s.width || s.height);
  }

  /**
   * wp_handle_upload + wp_insert_attachment + wp_generate_attachment_metadata: checks the file's
   * type (by extension, and by its content for images: an image whose extension lies gets the
   * right one), moves it into `YYYY/MM/` under a unique name, makes the image sizes and inserts
   * the attachment. Throws a RestError (400) for a type that may not be uploaded. Returns the
   * attachment's id.
   */
  async add(store: Store, home: string, m: NewMedia): Promise<number> {
    let { stem, ext } = splitName(sanitizeFileName(m.filename));
    let mime = ALLOWED_TYPES[ext];
    if (!mime) throw notAllowedType();
    let image: Metadata | undefined;
    if (mime.startsWith('image/')) {
      image = await this.readImage(m.path);
      const real = image && RASTER[image.format ?? ''];
      // an extension of an image type must hold an image: a renamed script is refused, a mislabelled image renamed
      if (!real) throw notAllowedType();
      if (real.mime !== mime) ({ mime, ext } = real);
    }
    const now = new Date();
    const given = /^(\d{4})[-/](\d{2})/.exec(m.uploadedAt ?? '');
    const folder = given && given[1] !== '0000' ? `${given[1]}/${given[2]}` : `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    await mkdir(join(this.uploadsDir, folder), { recursive: true });
    const file = await this.uniqueName(folder, stem, ext);
    const relative = `${folder}/${file}`;
    const target = join(this.uploadsDir, relative);
    await moveFile(m.path, target);
    const written = [target];
    try {
      const metadata: AttachmentMetadata = { file: relative, filesize: (await stat(target)).size, sizes: {} };
      if (image && RASTER_MIMES.has(mime)) {
        Object.assign(metadata, { width: image.width, height: image.height });
        metadata.sizes = await this.makeSizes(store, target, image, mime, written);
        metadata.image_meta = imageMeta(image);
      }
      const id = await store.transaction(async (tx) => {
        const postId = await tx.posts.insert({
          ...(m.id ? { id: m.id } : {}),
          type: 'attachment',
          status: m.status ?? 'inherit',
          author: m.author,
          parent: m.parent ?? 0,
          title: m.title ?? stem,
          excerpt: m.caption ?? '',
          content: m.description ?? '',
          mime_type: mime,
          guid: this.urlOf(home, relative),
          comment_status: 'open',
          ping_status: 'closed',
        });
        await tx.posts.meta.set(postId, ATTACHED_FILE, relative);
        await tx.posts.meta.set(postId, ATTACHMENT_METADATA, JSON.stringify(metadata));
        if (m.alt) await tx.posts.meta.set(postId, IMAGE_ALT, m.alt);
        if (m.sourceKey) await tx.posts.meta.set(postId, IMPORT_SOURCE, m.sourceKey);
        return postId;
      });
      return id;
    } catch (e) {
      await Promise.all(written.map((f) => rm(f, { force: true })));
      throw e;
    }
  }

  /** sharp's reading of the file, or undefined when it is no image sharp can read. */
  private async readImage(path: string): Promise<Metadata | undefined> {
    const sharp = await loadSharp();
    try {
      return await sharp(path).metadata();
    } catch {
      return undefined;
    }
  }

  /** wp_unique_filename: `name.ext`, else `name-1.ext`, `name-2.ext`... in the folder. */
  private async uniqueName(folder: string, stem: string, ext: string): Promise<string> {
    for (let n = 0; ; n++) {
      const candidate = `${n ? `${stem}-${n}` : stem}.${ext}`;
      if (!existsSync(join(this.uploadsDir, folder, candidate))) return candidate;
    }
  }

  /**
   * The registered sizes smaller than the original (or those of them named in `only`), each
   * written beside it as `name-WxH.ext` (sizes of equal dimensions share one file).
   */
  private async makeSizes(store: Store, original: string, image: Metadata, mime: string, written: string[], only?: ReadonlySet<string>): Promise<Record<string, SizeMeta>> {
    const sharp = await loadSharp();
    const { stem, ext } = splitName(basename(original));
    const sizes: Record<string, SizeMeta> = {};
    const made = new Map<string, SizeMeta>();
    // an animated GIF is resized as its first frame, as WordPress's editors do
    const source = await sharp(original).rotate().toBuffer();
    for (const size of inCreationOrder(await this.imageSizes(store))) {
      if (only && !only.has(size.name)) continue;
      const dims = resizeDimensions(image.width ?? 0, image.height ?? 0, size);
      if (!dims) continue;
      const [w, h] = dims;
      const key = `${w}x${h}`;
      let entry = made.get(key);
      if (!entry) {
        const file = `${stem}-${w}x${h}.${ext}`;
        const path = join(dirname(original), file);
        const pipeline: Sharp = sharp(source).resize(w, h, { fit: size.crop ? 'cover' : 'fill', position: 'centre' });
        const info = await pipeline.toFile(path);
        written.push(path);
        entry = { file, width: info.width, height: info.height, 'mime-type': mime, filesize: info.size };
        made.set(key, entry);
      }
      sizes[size.name] = { ...entry };
    }
    return sizes;
  }

  /** The image file of an attachment and its stored metadata, or null when it is no image this library made sizes for. */
  private async imageOf(store: Store, post: PostRow): Promise<{ relative: string; path: string; metadata: AttachmentMetadata | null } | null> {
    if (!RASTER_MIMES.has(post.mime_type)) return null;
    const relative = await store.posts.meta.get(post.id, ATTACHED_FILE);
    const path = relative ? this.pathOf(relative) : null;
    if (!relative || !path || !existsSync(path)) return null;
    return { relative, path, metadata: await this.metadataOf(store, post.id) };
  }

  /**
   * wp_update_image_subsizes: makes the sizes an image lacks (all of them, with its dimensions,
   * when it has no metadata, as after an upload that failed half-way) and stores the metadata.
   * An attachment that is no image, or whose file is gone, is left as it is.
   */
  async createMissingSizes(store: Store, post: PostRow): Promise<void> {
    const found = await this.imageOf(store, post);
    if (!found) return;
    const image = await this.readImage(found.path);
    if (!image?.width || !image.height) return;
    const current = found.metadata;
    const metadata: AttachmentMetadata = current?.width
      ? { ...current, sizes: { ...current.sizes } }
      : { width: image.width, height: image.height, file: found.relative, filesize: (await stat(found.path)).size, sizes: {}, image_meta: imageMeta(image) };
    const wanted = (await this.imageSizes(store)).filter((s) => !metadata.sizes[s.name] && resizeDimensions(metadata.width!, metadata.height!, s));
    if (current?.width && !wanted.length) return;
    const written: string[] = [];
    try {
      Object.assign(metadata.sizes, await this.makeSizes(store, found.path, image, post.mime_type, written, new Set(wanted.map((s) => s.name))));
      await store.posts.meta.set(post.id, ATTACHMENT_METADATA, JSON.stringify(metadata));
    } catch (e) {
      await Promise.all(written.map((f) => rm(f, { force: true })));
      throw e;
    }
  }

  /**
   * wp_image_file_matches_image_meta: whether a URL names the attachment's file or one of its
   * sizes (what the editor shows and sends back as `src`).
   */
  async fileMatches(store: Store, post: PostRow, url: string): Promise<boolean> {
    const found = await this.imageOf(store, post);
    if (!found?.metadata) return false;
    let path: string | null;
    try {
      path = decodePercent(new URL(url).pathname);
    } catch {
      return false; // not a URL
    }
    if (path === null) return false;
    const folder = dirname(found.relative);
    const files = [found.relative, ...Object.values(found.metadata.sizes ?? {}).map((s) => `${folder}/${s.file}`)];
    return files.some((f) => path.endsWith(`/${f}`));
  }

  /**
   * WP_REST_Attachments_Controller::edit_media_item's image work: applies the edits in order to
   * the attachment's image (rotations clockwise in degrees, crops in percentages of the image as
   * it is at that step) and adds the result to the library as a new attachment named
   * `{name}-edited.{ext}` that keeps the original's title, caption, description and alt text and
   * records it as its `parent_image`. Returns the new attachment's id; null when the attachment
   * is no image that can be edited.
   */
  async editImage(store: Store, home: string, post: PostRow, edits: readonly ImageEdit[], author: number): Promise<number | null> {
    const found = await this.imageOf(store, post);
    if (!found?.metadata) return null;
    const sharp = await loadSharp();
    let current = await sharp(found.path).rotate().toBuffer({ resolveWithObject: true });
    for (const edit of edits) {
      if (edit.type === 'rotate') {
        const angle = edit.angle % 360;
        if (angle === 0) continue;
        current = await sharp(current.data).rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).toBuffer({ resolveWithObject: true });
      } else {
        const { width, height } = current.info;
        const box = cropBox(width, height, edit);
        if (!box) throw new RestError('rest_image_crop_failed', 'Unable to crop this image.', 400);
        current = await sharp(current.data).extract(box).toBuffer({ resolveWithObject: true });
      }
    }
    const { stem, ext } = splitName(basename(found.relative));
    // editing an edited image makes another `-edited` one, not `-edited-edited`
    const name = /-edited(-\d+)?$/.test(stem) ? stem.replace(/-edited(-\d+)?$/, '-edited') : `${stem}-edited`;
    const temp = await this.tempFile();
    try {
      await sharp(current.data).toFormat(RASTER_FORMAT_OF[post.mime_type]).toFile(temp);
      const [caption, description, alt] = [post.excerpt, post.content, await store.posts.meta.get(post.id, IMAGE_ALT)];
      const id = await this.add(store, home, { path: temp, filename: `${name}.${ext}`, author, title: post.title, caption, description, alt });
      const metadata = (await this.metadataOf(store, id))!;
      // the original's image_meta fills what the edited file lacks; it is upright now
      const merged: Record<string, unknown> = { ...metadata.image_meta };
      for (const [key, value] of Object.entries(found.metadata.image_meta ?? {})) if (isEmptyValue(merged[key]) && !isEmptyValue(value)) merged[key] = value;
      if (!isEmptyValue(merged.orientation)) merged.orientation = 1;
      const edited = { ...metadata, image_meta: merged, parent_image: { attachment_id: post.id, file: found.relative } };
      await store.posts.meta.set(id, ATTACHMENT_METADATA, JSON.stringify(edited));
      return id;
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** The stored metadata of an attachment, or null when it has none (or it is not JSON). */
  async metadataOf(store: Store, id: number): Promise<AttachmentMetadata | null> {
    const raw = await store.posts.meta.get(id, ATTACHMENT_METADATA);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as AttachmentMetadata;
    } catch {
      return null;
    }
  }

  /** wp_delete_attachment's files: the original and every generated size. */
  async deleteFiles(store: Store, post: PostRow): Promise<void> {
    const relative = await store.posts.meta.get(post.id, ATTACHED_FILE);
    if (!relative) return;
    const original = this.pathOf(relative);
    if (!original) return;
    const meta = await this.metadataOf(store, post.id);
    const sizes = Object.values(meta?.sizes ?? {}).map((s) => this.pathOf(`${dirname(relative)}/${s.file}`));
    await Promise.all([original, ...sizes].map((f) => (f ? rm(f, { force: true }) : undefined)));
  }

  /** The attachment imported from a source before, if it still exists. */
  async imported(store: Store, sourceKey: string): Promise<PostRow | undefined> {
    const id = await store.posts.meta.ownerWith(IMPORT_SOURCE, sourceKey);
    const post = id === undefined ? undefined : await store.posts.get(id);
    return post?.type === 'attachment' ? post : undefined;
  }

  /**
   * Imports a remote image into the library (media_sideload_image), once per source key: an
   * attachment imported with the same key is returned as it is, and concurrent imports of one key
   * share one download. The download goes through the guarded client (timeout, no private
   * addresses unless allowed) with the upload limit as its size cap, enforced while it streams;
   * the file must really be an image. Failures are RestErrors with WordPress-style codes.
   */
  importImage(store: Store, home: string, i: ImageImport): Promise<ImportedImage> {
    const running = this.importing.get(i.sourceKey);
    if (running) return running.then((r) => ({ ...r, downloaded: false }));
    const work = this.download(store, home, i).finally(() => this.importing.delete(i.sourceKey));
    this.importing.set(i.sourceKey, work);
    return work;
  }

  private async download(store: Store, home: string, i: ImageImport): Promise<ImportedImage> {
    const existing = await this.imported(store, i.sourceKey);
    if (existing) return { id: existing.id, url: await this.attachmentUrl(store, home, existing), downloaded: false };
    const temp = await this.tempFile();
    try {
      try {
        await guardedDownload(i.url, temp, { maxBytes: this.settings.uploadLimit, headers: i.headers, timeoutMs: i.timeoutMs });
      } catch (e) {
        throw importFailure(e, this.settings.uploadLimit);
      }
      const image = await this.readImage(temp);
      const format = image && RASTER[image.format ?? ''];
      if (!format) throw uploadError('rest_upload_not_an_image', 'The downloaded file is not an image.');
      const last = new URL(i.url).pathname.split('/').pop() ?? '';
      const fromUrl = splitName(sanitizeFileName(decodePercent(last) ?? last));
      const wanted = splitName(sanitizeFileName(i.filename ?? fromUrl.stem));
      const id = await this.add(store, home, {
        path: temp,
        filename: `${wanted.stem}.${format.ext}`,
        author: i.author,
        parent: i.parent,
        title: i.title,
        alt: i.alt,
        caption: i.caption,
        sourceKey: i.sourceKey,
      });
      const post = (await store.posts.get(id))!;
      return { id, url: await this.attachmentUrl(store, home, post), downloaded: true };
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** wp_get_attachment_url: the file's URL from `_wp_attached_file`, else the guid. */
  async attachmentUrl(store: Store, home: string, post: PostRow): Promise<string> {
    const relative = await store.posts.meta.get(post.id, ATTACHED_FILE);
    return relative ? this.urlOf(home, relative) : post.guid;
  }
}

/** WordPress's image_meta for an image whose EXIF is not read: the empty set of fields, with the orientation sharp found. */
function imageMeta(image: Metadata): Record<string, unknown> {
  return {
    aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0', iso: '0',
    shutter_speed: '0', title: '', orientation: String(image.orientation ?? 0), keywords: [],
  };
}

/** One step of an image edit: a clockwise rotation in degrees, or a crop in percentages of the image. */
export type ImageEdit = { type: 'rotate'; angle: number } | { type: 'crop'; left: number; top: number; width: number; height: number };

/** sharp's output format for each editable type. */
const RASTER_FORMAT_OF: Readonly<Record<string, 'jpeg' | 'png' | 'gif' | 'webp' | 'heif'>> = Object.fromEntries(
  Object.entries(RASTER).map(([format, r]) => [r.mime, format as 'jpeg' | 'png' | 'gif' | 'webp' | 'heif']),
);

/**
 * A crop in percentages as pixels of a width x height image (WordPress rounds each), kept inside
 * the image; null when nothing of the image would be left.
 */
function cropBox(width: number, height: number, c: { left: number; top: number; width: number; height: number }): { left: number; top: number; width: number; height: number } | null {
  const left = Math.min(Math.max(Math.round((width * c.left) / 100), 0), width);
  const top = Math.min(Math.max(Math.round((height * c.top) / 100), 0), height);
  const w = Math.min(Math.round((width * c.width) / 100), width - left);
  const h = Math.min(Math.round((height * c.height) / 100), height - top);
  return w >= 1 && h >= 1 ? { left, top, width: w, height: h } : null;
}

/** PHP's empty() for a metadata value: '', '0', 0, false, null, an empty list. */
const isEmptyValue = (v: unknown) => !truthy(v);

/** An outbound failure of an import as the REST error its caller answers (download_url's errors, with statuses). */
function importFailure(e: unknown, limit: number): unknown {
  return outboundRestError(e, {
    too_large: () => uploadError('rest_upload_file_too_big', `This file is too big. Files must be less than ${Math.floor(limit / 1024)} KB in size.`),
    forbidden_address: () => ({ code: 'rest_invalid_url', message: 'The image URL is not publicly reachable: it is or resolves to a private address.' }),
    url: () => ({ code: 'rest_invalid_url', message: 'Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.' }),
    timeout: 'http_request_failed',
    // download_url names every answer but a 200 `http_404`, worded with the answer's status text,
    // the status itself in data.code
    status: (e) => ({ code: 'http_404', message: STATUS_CODES[e.status] ?? '', data: { code: e.status } }),
    unreachable: 'http_request_failed',
  });
}
