import { RequestScoped } from './request-scoped.ts';
import { createHash } from 'node:crypto';
import { adoptEncodings, encodingsOf, type Coding } from './compression.ts';
import type { RequestTarget } from './http-request.ts';

/**
 * What an answer depended on, as the host (the CMS core) knows it: `deps` names what it read,
 * `fingerprint` their versions when it began. An answer is served again only while the
 * fingerprint of the same deps, taken now, is the same.
 */
export interface Stamp {
  deps: readonly string[];
  fingerprint: string;
}

/** How the host observes what an answer reads, and says whether what it read is still as it was. */
export interface AnswerDependencies {
  /** Runs `compute`, noting what it reads; the stamp is null when what it read may change without a write (the clock). */
  observe<T>(compute: () => Promise<T>): Promise<{ value: T; stamp: Stamp | null }>;
  /** Whether an answer so stamped is still current, as this instance sees the versions now. */
  current(stamp: Stamp): boolean;
}

/** Where instances share their kept answers (Redis): a store that does not answer is a miss, never a failure. */
export interface SharedAnswers {
  get(key: string): Promise<Buffer | null>;
  set(key: string, value: Buffer): void;
  close(): Promise<void>;
}

/** An anonymous answer kept: its headers as made (before the coding's), its identity bytes, and what it depended on. */
export interface KeptAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly etag: string;
  readonly stamp: Stamp;
}

/** What a request's answer read besides the data: set when a handler reads the request's headers or address. */
interface AnswerLog {
  varies: boolean;
}
const answering = new RequestScoped<AnswerLog>();

/** The answer being made depends on the request's headers or address, which the cache's key does not hold: it is not kept. */
export function answerVaries(): void {
  const log = answering.getStore();
  if (log) log.varies = true;
}

/** A miss of the response cache, which the request that got it answers; the concurrent misses of its key wait for what it kept. */
export class Miss {
  private settled = false;

  constructor(private readonly onSettle: (kept: KeptAnswer | undefined) => void) {}

  /** Tells the waiting misses what was kept for the key (undefined: nothing); only the first call counts. */
  settle(kept?: KeptAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.onSettle(kept);
  }
}

/** The memory the cache may hold by default: entries past it go, least recently used first. */
export const DEFAULT_RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

/** What an entry costs besides its bodies (the key, headers, stamp, the Map's own). */
const ENTRY_OVERHEAD = 1024;

/**
 * The anonymous response cache (issue 29): the whole answer of an anonymous GET of the API, kept
 * by the address it was asked at and its normalised query, served while nothing it read has
 * changed (AnswerDependencies), in its kept encodings (brotli, gzip: made once, off the main
 * thread), with an ETag. In memory up to a byte cap, least recently used first out; with a
 * SharedAnswers store, shared by the instances of a site.
 */
export class ResponseCache {
  private readonly kept = new Map<string, { answer: KeptAnswer; bytes: number }>();
  private bytes = 0;
  /** The misses being answered, by key: what each kept, once answered (undefined: nothing). */
  private readonly flights = new Map<string, Promise<KeptAnswer | undefined>>();

  constructor(
    private readonly dependencies: AnswerDependencies,
    private readonly maxBytes: number,
    private readonly shared?: SharedAnswers,
    /** Names this site's entries in the shared store (several sites may share one Redis). */
    private readonly sharedPrefix = '',
  ) {}

  /**
   * The key of a request whose answer may be kept: an anonymous GET of the API without Origin
   * (CORS headers echo it) or a method override; null for any other. A REST nonce (`X-WP-Nonce`,
   * `_wpnonce`) asks for cookie authentication, as WordPress's, so such a request is not anonymous.
   */
  keyOf(method: string | undefined, target: RequestTarget, headers: Record<string, string>): string | null {
    if (method !== 'GET' || target.restPath === null || headers.authorization || headers.origin || headers['x-http-method-override'] || headers['x-wp-nonce']) return null;
    const { query } = target;
    if (query._method !== undefined || query._wpnonce !== undefined) return null;
    // the address asked (root or alias, or ?rest_route=) and the whole query: the links and fields differ with them
    return `${target.rawPath}\n${target.restPath}\n${normalised(query)}`;
  }

  /**
   * The kept answer of `key` that is still current: from memory, from the concurrent miss of the
   * same key being answered (single flight: it is made once, and the others wait for it), or from
   * the shared store. Otherwise a Miss: this request makes the answer, and must settle the Miss
   * with what it kept (`settle`), which the concurrent misses of the key are waiting for.
   */
  async lookup(key: string): Promise<KeptAnswer | Miss> {
    const found = this.fresh(key);
    if (found) return found;
    const flight = this.flights.get(key);
    if (flight) {
      const made = await flight;
      if (made && this.dependencies.current(made.stamp)) return made;
      // not kept (it varied with its request, or was no 200): each concurrent miss makes its own, at once
      if (!made) return new Miss(() => {});
      // kept, but something it read was written since it began: look again, and lead or follow a new flight
      return this.lookup(key);
    }
    // registered before the first await: the misses of the same key that follow find it
    let settle!: (made: KeptAnswer | undefined) => void;
    const made = new Promise<KeptAnswer | undefined>((resolve) => (settle = resolve));
    this.flights.set(key, made);
    const miss = new Miss((answer) => {
      if (this.flights.get(key) === made) this.flights.delete(key);
      settle(answer);
    });
    if (!this.shared) return miss;
    const bytes = await this.shared.get(this.sharedPrefix + key);
    const answer = bytes && decode(bytes);
    if (!answer || !this.dependencies.current(answer.stamp)) return miss;
    this.remember(key, answer);
    miss.settle(answer);
    return answer;
  }

  /** The answer of `key` kept in memory, while still current. */
  private fresh(key: string): KeptAnswer | undefined {
    const found = this.kept.get(key);
    if (!found) return undefined;
    if (this.dependencies.current(found.answer.stamp)) {
      this.kept.delete(key);
      this.kept.set(key, found);
      return found.answer;
    }
    this.drop(key);
    return undefined;
  }

  /** Runs `compute` noting what it depends on; the stamp is null when its answer must not be kept. */
  async observe<T>(compute: () => Promise<T>): Promise<{ value: T; stamp: Stamp | null }> {
    const log: AnswerLog = { varies: false };
    const { value, stamp } = await answering.run(log, () => this.dependencies.observe(compute));
    return { value, stamp: log.varies ? null : stamp };
  }

  /** Keeps a 200 answer made for `key`; its encodings start being made now. */
  keep(key: string, headers: Record<string, string>, body: Buffer, stamp: Stamp): KeptAnswer {
    const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
    const answer: KeptAnswer = { headers: { ...headers, ETag: etag }, body, etag, stamp };
    this.remember(key, answer);
    if (this.shared) {
      const shared = this.shared;
      const name = this.sharedPrefix + key;
      void encodingsOf(body).then((encodings) => shared.set(name, encode(answer, encodings)));
    }
    return answer;
  }

  private remember(key: string, answer: KeptAnswer): void {
    this.drop(key);
    const bytes = answer.body.length + ENTRY_OVERHEAD;
    if (bytes > this.maxBytes) return;
    const entry = { answer, bytes };
    this.kept.set(key, entry);
    this.bytes += bytes;
    // the kept encodings count too, once made
    void encodingsOf(answer.body).then((e) => {
      if (this.kept.get(key) !== entry) return;
      const more = (e.br?.length ?? 0) + (e.gzip?.length ?? 0);
      entry.bytes += more;
      this.bytes += more;
      this.evict();
    });
    this.evict();
  }

  private evict(): void {
    while (this.bytes > this.maxBytes) this.drop(this.kept.keys().next().value!);
  }

  private drop(key: string): void {
    const found = this.kept.get(key);
    if (!found) return;
    this.kept.delete(key);
    this.bytes -= found.bytes;
  }

  /** Bytes kept in memory, for the tests and the bench. */
  get size(): number {
    return this.bytes;
  }

  close(): Promise<void> {
    return this.shared?.close() ?? Promise.resolve();
  }
}

/** Whether If-None-Match names this entity tag (weak comparison, RFC 9110 §13.1.2), or `*`. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/** A query as one string, the same whatever order its keys came in, at every depth. */
function normalised(query: unknown): string {
  return JSON.stringify(query, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));
}

/** An entry as the shared store holds it: the length of its JSON head (4 bytes), the head, then the bodies one after the other. */
function encode(answer: KeptAnswer, encodings: Partial<Record<Coding, Buffer>>): Buffer {
  const head = Buffer.from(JSON.stringify({ headers: answer.headers, etag: answer.etag, stamp: answer.stamp, body: answer.body.length, br: encodings.br?.length ?? 0, gzip: encodings.gzip?.length ?? 0 }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(head.length);
  return Buffer.concat([length, head, answer.body, encodings.br ?? Buffer.alloc(0), encodings.gzip ?? Buffer.alloc(0)]);
}

function decode(bytes: Buffer): KeptAnswer | null {
  try {
    const headLength = bytes.readUInt32BE(0);
    const head = JSON.parse(bytes.subarray(4, 4 + headLength).toString()) as { headers: Record<string, string>; etag: string; stamp: Stamp; body: number; br: number; gzip: number };
    let at = 4 + headLength;
    const take = (n: number) => bytes.subarray(at, (at += n));
    const body = Buffer.from(take(head.body));
    const br = head.br ? take(head.br) : undefined;
    const gzip = head.gzip ? take(head.gzip) : undefined;
    adoptEncodings(body, { br, gzip });
    return { headers: head.headers, body, etag: head.etag, stamp: head.stamp };
  } catch {
    return null; // not an entry this version wrote: a miss
  }
}
