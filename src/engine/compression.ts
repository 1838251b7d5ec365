import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/** The content codings this server sends; `identity` (none) is the absence of one. */
export type Coding = 'br' | 'gzip';

/**
 * Answers smaller than this go as they are: with their headers they fit in one TCP segment
 * (1,460 bytes) either way, so compressing them saves the client no round trip and costs CPU.
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * On the fly: brotli quality 4, as CDNs compress dynamic answers: about gzip's default speed
 * (zlib level 6) with a smaller result (a 20 KB JSON answer in a few hundred microseconds);
 * qualities above 5 cost several times as much for a few per cent.
 */
const FAST: Record<Coding, (size: number) => BrotliOptions | ZlibOptions> = {
  br: (size) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size } }),
  gzip: () => ({ level: 6 }),
};

/** Kept encodings are made once and served many times: the best each coding does (brotli 11 takes ~0.5 s on the 430 KB index, off the main thread). */
const BEST: Record<Coding, (size: number) => BrotliOptions | ZlibOptions> = {
  br: (size) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size } }),
  gzip: () => ({ level: constants.Z_BEST_COMPRESSION }),
};

/** In the order a tie in the client's preferences is settled. */
const CODINGS: readonly Coding[] = ['br', 'gzip'];

/** How many header values each memo below holds; past it, it starts over (a client sending new values each time cannot grow it). */
const MEMO_MAX = 256;

/** The coding per Accept-Encoding value seen: clients send a handful of distinct values, each on every request. */
const negotiated = new Map<string, Coding | null>();

/**
 * The coding to answer a request with, from its Accept-Encoding (RFC 9110 §12.5.3): the
 * acceptable coding (q > 0, named or covered by `*`) with the highest q, brotli on a tie; none
 * when the header is absent or empty, when nothing this server makes is acceptable, or when the
 * client prefers `identity` to it (a refused identity with nothing else acceptable is still
 * answered as identity: an answer beats a 406 nobody handles).
 */
export function negotiate(acceptEncoding: string | undefined): Coding | null {
  if (!acceptEncoding) return null;
  let coding = negotiated.get(acceptEncoding);
  if (coding === undefined) {
    coding = choose(acceptEncoding);
    if (negotiated.size >= MEMO_MAX) negotiated.clear();
    negotiated.set(acceptEncoding, coding);
  }
  return coding;
}

function choose(header: string): Coding | null {
  const q = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name, ...params] = element.split(';');
    const token = name.trim().toLowerCase();
    if (!token) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p);
      if (m) weight = Math.min(1, Number(m[1]));
      else if (/^\s*q\s*=/i.test(p)) weight = 0; // a malformed weight: not an acceptance
    }
    // x-gzip is gzip's old name (RFC 9110 §8.4.1.3)
    q.set(token === 'x-gzip' ? 'gzip' : token, weight);
  }
  const any = q.get('*');
  let best: Coding | null = null;
  let bestQ = 0;
  for (const c of CODINGS) {
    const w = q.get(c) ?? any ?? 0;
    if (w > bestQ) [best, bestQ] = [c, w];
  }
  // `*` covers identity too when it is not named; a tie goes to the coding
  return best && bestQ >= (q.get('identity') ?? any ?? 1) ? best : null;
}

/** Whether it is worth compressing, per Content-Type seen: a site sends a handful of them, each many times. */
const compressibleTypes = new Map<string, boolean>();

/** Whether a body of this media type is worth compressing: text, JSON, XML, JavaScript, SVG; not images, audio, video or archives, which are compressed already. */
export function isCompressible(contentType: string | undefined): boolean {
  if (!contentType) return false;
  let worth = compressibleTypes.get(contentType);
  if (worth === undefined) {
    const type = contentType.split(';', 1)[0].trim().toLowerCase();
    worth = type.startsWith('text/') || type.endsWith('+json') || type.endsWith('+xml') || type === 'application/json' || type === 'application/xml' || type === 'application/javascript';
    if (compressibleTypes.size >= MEMO_MAX) compressibleTypes.clear();
    compressibleTypes.set(contentType, worth);
  }
  return worth;
}

/** A body compressed now, for an answer made for this request. */
export function compressNow(body: Buffer, coding: Coding): Buffer {
  return coding === 'br' ? brotliCompressSync(body, FAST.br(body.length)) : gzipSync(body, FAST.gzip(body.length));
}

/** The kept encodings of documents served many times, by their identity bytes: they go with the document. */
const kept = new WeakMap<Buffer, { encodings: Partial<Record<Coding, Buffer>>; made: Promise<Partial<Record<Coding, Buffer>>> }>();

/**
 * Starts making both kept encodings of a document off the main thread, once; `made` settles when
 * both are done (a failed one is left out: that coding is then compressed on the fly).
 */
function keeping(identity: Buffer) {
  let found = kept.get(identity);
  if (!found) {
    const encodings: Partial<Record<Coding, Buffer>> = {};
    const make = (coding: Coding) =>
      new Promise<void>((resolve) => {
        const done = (err: Error | null, out: Buffer) => {
          if (!err) encodings[coding] = out;
          resolve();
        };
        if (coding === 'br') brotliCompress(identity, BEST.br(identity.length), done);
        else gzip(identity, BEST.gzip(identity.length), done);
      });
    const made = identity.length < COMPRESS_MIN_BYTES ? Promise.resolve(encodings) : Promise.all(CODINGS.map(make)).then(() => encodings);
    kept.set(identity, (found = { encodings, made }));
  }
  return found;
}

/**
 * The kept encoding of a document built once and served many times (the prebuilt indexes, the
 * response cache's entries), at the best compression; undefined until it is made. Its first ask
 * starts making both codings off the main thread, once; answers meanwhile are compressed on the
 * fly. Only for bytes that are kept: each new Buffer starts its own (slow) compression.
 */
export function keptEncoding(identity: Buffer, coding: Coding): Buffer | undefined {
  return keeping(identity).encodings[coding];
}

/** Both kept encodings of a document once made (none for a body too small to be compressed), starting them if need be. */
export function encodingsOf(identity: Buffer): Promise<Partial<Record<Coding, Buffer>>> {
  return keeping(identity).made;
}

/** Encodings made elsewhere (another instance's, through the shared cache), kept with these identity bytes. */
export function adoptEncodings(identity: Buffer, encodings: Partial<Record<Coding, Buffer>>): void {
  const known = { ...encodings };
  kept.set(identity, { encodings: known, made: Promise.resolve(known) });
}
