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

/**
 * Kept encodings (the prebuilt indexes, the response cache's entries) are made once and served
 * many times, off the main thread, at the settings measured on real answers (bench/README.md,
 * `scripts/bench/compression-levels.ts`): brotli 5 and gzip 6 compress the index, lists and
 * single posts at about 20 MB/s each; brotli 11 makes them 15 % smaller at 0.2 MB/s (100 times the
 * work: 0.7 s for the index, 3 s for a list of 100 posts), gzip 9 0.7 % smaller for half as much
 * again.
 */
const KEPT: Record<Coding, (size: number) => BrotliOptions | ZlibOptions> = {
  br: (size) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: size } }),
  gzip: () => ({ level: 6 }),
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

/** What identity bytes one thread turns into both kept encodings per second, until measured: the settings above on this project's 2-core machine. */
const INITIAL_BYTES_PER_SECOND = 10_000_000;

/**
 * The kept encodings are made one document at a time on one of libuv's four pool threads (the
 * others stay free for file reads, hashing, DNS), and never more is queued than that thread
 * finishes in a second, at the rate it has been seen to work: a document offered past that is not
 * queued (its answers are compressed on the fly meanwhile) and is offered again at its next ask.
 * Without a bound, a burst of new documents queued brotli's work for minutes and held the pool
 * (issue 40).
 */
export class EncodingQueue {
  private readonly waiting: { identity: Buffer; done: (encodings: Partial<Record<Coding, Buffer>>) => void }[] = [];
  /** Identity bytes queued, the document being compressed included. */
  private queuedBytes = 0;
  private running = false;
  /** Documents compressed so far, for the tests and the bench. */
  made = 0;

  constructor(private bytesPerSecond = INITIAL_BYTES_PER_SECOND) {}

  /** Queues both encodings of `identity`, which `done` gets once made (a failed one left out); false, and nothing queued, when the queue holds a second's work. */
  offer(identity: Buffer, done: (encodings: Partial<Record<Coding, Buffer>>) => void): boolean {
    if (this.queuedBytes + identity.length > this.bytesPerSecond) return false;
    this.queuedBytes += identity.length;
    this.waiting.push({ identity, done });
    if (!this.running) void this.drain();
    return true;
  }

  private async drain(): Promise<void> {
    this.running = true;
    for (let job = this.waiting.shift(); job; job = this.waiting.shift()) {
      const started = performance.now();
      const encodings: Partial<Record<Coding, Buffer>> = {};
      for (const coding of CODINGS) {
        const made = await encode(job.identity, coding);
        if (made) encodings[coding] = made;
      }
      const seconds = (performance.now() - started) / 1000;
      // the rate is learnt from documents large enough to time; a moving average, so one slow job does not halve it
      if (job.identity.length >= 64 * 1024 && seconds > 0) this.bytesPerSecond = 0.8 * this.bytesPerSecond + 0.2 * (job.identity.length / seconds);
      this.queuedBytes -= job.identity.length;
      this.made++;
      job.done(encodings);
    }
    this.running = false;
  }
}

function encode(identity: Buffer, coding: Coding): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const done = (err: Error | null, out: Buffer) => resolve(err ? undefined : out);
    if (coding === 'br') brotliCompress(identity, KEPT.br(identity.length), done);
    else gzip(identity, KEPT.gzip(identity.length), done);
  });
}

/** The queue every kept encoding of this process is made through. */
export const encodingQueue = new EncodingQueue();

interface KeptEncodings {
  encodings: Partial<Record<Coding, Buffer>>;
  /** Settles once both are made. */
  made: Promise<Partial<Record<Coding, Buffer>>>;
  /** Whether the queue took them; when not, the next ask offers them again. */
  queued: boolean;
  settle: (encodings: Partial<Record<Coding, Buffer>>) => void;
}

/** The kept encodings of documents served many times, by their identity bytes: they go with the document. */
const kept = new WeakMap<Buffer, KeptEncodings>();

/** The kept encodings of a document, offered to the queue at its first ask, and again at each later one until the queue takes them. */
function keeping(identity: Buffer): KeptEncodings {
  let found = kept.get(identity);
  if (!found) {
    let settle!: (encodings: Partial<Record<Coding, Buffer>>) => void;
    const made = new Promise<Partial<Record<Coding, Buffer>>>((resolve) => (settle = resolve));
    found = { encodings: {}, made, queued: false, settle };
    kept.set(identity, found);
    if (identity.length < COMPRESS_MIN_BYTES) {
      found.queued = true;
      settle(found.encodings);
    }
  }
  if (!found.queued) {
    const entry = found;
    entry.queued = encodingQueue.offer(identity, (encodings) => {
      Object.assign(entry.encodings, encodings);
      entry.settle(entry.encodings);
    });
  }
  return found;
}

/**
 * The kept encoding of a document built once and served many times (the prebuilt indexes, the
 * response cache's entries); undefined until it is made. Its first ask offers both codings to the
 * queue (and a later ask again, until the queue takes them); answers meanwhile are compressed on
 * the fly. Only for bytes that are kept: each new Buffer starts its own compression.
 */
export function keptEncoding(identity: Buffer, coding: Coding): Buffer | undefined {
  return keeping(identity).encodings[coding];
}

/** Both kept encodings of a document once made (none for a body too small to be compressed), offering them to the queue if need be. */
export function encodingsOf(identity: Buffer): Promise<Partial<Record<Coding, Buffer>>> {
  return keeping(identity).made;
}

/** Encodings made elsewhere (another instance's, through the shared cache), kept with these identity bytes. */
export function adoptEncodings(identity: Buffer, encodings: Partial<Record<Coding, Buffer>>): void {
  const known = { ...encodings };
  kept.set(identity, { encodings: known, made: Promise.resolve(known), queued: true, settle: () => {} });
}
