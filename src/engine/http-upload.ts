import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { engineError, RestError } from './errors.ts';
import { BodyTooLarge } from './http-request.ts';
import { parseQueryString } from './params.ts';
import type { UploadedFile } from './types.ts';

/** What an upload request brought: its files on disk, the other form fields, and the folder to remove afterwards. */
export interface ReceivedUpload {
  files: UploadedFile[];
  fields: Record<string, unknown>;
  dir: string;
}

const isMultipart = (type: string | undefined) => /^multipart\/form-data\b/i.test(type ?? '');

/**
 * Streams an upload's body to temporary files, as PHP fills $_FILES: a multipart/form-data body
 * gives one file per file part (its other fields become form params, through busboy); any other
 * body is one file. `limit` caps the bytes written across all files and is enforced while the
 * body streams: a body declaring more is refused before a byte is read, and one that sends more is
 * cut off there (BodyTooLarge). Nothing is held in memory beyond a stream's buffers.
 */
export async function receiveUpload(req: IncomingMessage, headers: Record<string, string>, limit: number): Promise<ReceivedUpload> {
  if (Number(headers['content-length'] ?? 0) > limit) throw new BodyTooLarge();
  const dir = await mkdtemp(join(tmpdir(), 'cms-spec-upload-'));
  try {
    const received = isMultipart(headers['content-type']) ? await multipart(req, headers, limit, dir) : { files: [await rawFile(req, headers, limit, dir)].filter((f) => f.size > 0), fields: {} };
    return { ...received, dir };
  } catch (e) {
    req.unpipe();
    req.resume();
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Removes what receiveUpload left (files a handler did not move away). */
export const discardUpload = (upload: ReceivedUpload) => rm(upload.dir, { recursive: true, force: true });

/** Counts the bytes passing through against what is left of the limit. */
function capped(budget: { left: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      budget.left -= chunk.length;
      done(budget.left < 0 ? new BodyTooLarge() : null, chunk);
    },
  });
}

async function writeCapped(source: Readable, path: string, budget: { left: number }): Promise<number> {
  const before = budget.left;
  await pipeline(source, capped(budget), createWriteStream(path));
  return before - budget.left;
}

async function rawFile(req: IncomingMessage, headers: Record<string, string>, limit: number, dir: string): Promise<UploadedFile> {
  const path = join(dir, 'body');
  const size = await writeCapped(req, path, { left: limit });
  return { field: null, filename: null, contentType: headers['content-type'] ?? '', path, size };
}

const malformed = () => engineError('rest_upload_malformed');

function multipart(req: IncomingMessage, headers: Record<string, string>, limit: number, dir: string): Promise<{ files: UploadedFile[]; fields: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers, limits: { fieldSize: 1024 * 1024, fields: 1000, files: 20 } });
    } catch {
      return reject(malformed());
    }
    const budget = { left: limit };
    const files: UploadedFile[] = [];
    const writes: Promise<void>[] = [];
    const form: string[] = [];
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      reject(e instanceof BodyTooLarge || e instanceof RestError ? e : malformed());
    };
    parser.on('file', (field, stream, info) => {
      const path = join(dir, `file-${files.length}`);
      const file: UploadedFile = { field, filename: info.filename ?? '', contentType: info.mimeType ?? '', path, size: 0 };
      files.push(file);
      writes.push(
        writeCapped(stream, path, budget).then(
          (size) => void (file.size = size),
          (e: unknown) => {
            stream.resume();
            fail(e);
          },
        ),
      );
    });
    // fields come back as a query string, so `a[b]=c` nests as a form post does
    parser.on('field', (name, value) => form.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    parser.on('error', fail);
    parser.on('close', () => {
      Promise.all(writes).then(() => {
        if (failed) return;
        try {
          resolve({ files: files.filter((f) => f.size > 0 || f.filename), fields: parseQueryString(form.join('&')) });
        } catch (e) {
          fail(e);
        }
      }, fail);
    });
    req.on('error', fail);
    req.pipe(parser);
  });
}
