import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { createWriteStream } from 'node:fs';
import { isIP, type Socket } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Agent, buildConnector, Dispatcher } from 'undici';
import { config } from '../config.ts';
import { allowListFor, bareHost, isPublicAddress, type AllowList } from './addresses.ts';
import {
  OutboundError,
  OutboundForbiddenAddressError,
  OutboundNetworkError,
  OutboundStatusError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  OutboundUnreachableError,
  OutboundUrlError,
} from './errors.ts';

export interface GuardedFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Deadline for the whole exchange, redirects and body included; default from config. */
  timeoutMs?: number;
  /** Largest body accepted; default from config. */
  maxBytes?: number;
  /** 'error' (default) fails a larger body; 'truncate' keeps its first maxBytes (HTML read for its <head>). */
  oversize?: 'error' | 'truncate';
  /** Hosts, addresses and CIDRs that may be reached although non-public; default CMS_SPEC_OUTBOUND_ALLOW. */
  allow?: string[];
}

export interface GuardedResponse {
  status: number;
  /** The URL that answered, after redirects. */
  url: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  text(): string;
}

/** What a download wrote: the answer's status, URL and headers, and the bytes now in the file. */
export interface GuardedDownload {
  status: number;
  url: string;
  headers: Record<string, string>;
  bytes: number;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * The one outbound HTTP client of the project: http(s) only, a deadline, a body-size cap,
 * manual redirects (at most 5), and no connections to non-public addresses unless the
 * allow-list names them. The address check runs on what DNS returns at connect time, so a
 * name that resolves differently later (DNS rebinding) cannot slip past it. Connecting has a
 * deadline of its own, shorter than the exchange's, and a host that could not be connected to is
 * not tried again for a few seconds (see connectFailFast).
 * Throws the typed errors of ./errors.ts; non-2xx final answers throw OutboundStatusError.
 */
export function guardedFetch(url: string, o: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const maxBytes = o.maxBytes ?? config().outbound.maxBytes;
  return exchange(url, o, async (res, target) => {
    const read = await readBody(res.body, maxBytes, o.oversize ?? 'error', target.host);
    const headers = flattenHeaders(res.headers);
    if (res.statusCode < 200 || res.statusCode > 299)
      throw new OutboundStatusError(target.host, res.statusCode, read.body.subarray(0, 2048).toString('utf8'), headers);
    return {
      status: res.statusCode,
      url: target.href,
      headers,
      body: read.body,
      truncated: read.truncated,
      text: () => read.body.toString('utf8'),
    };
  });
}

/**
 * guardedFetch for bodies too large to hold in memory (images imported into the media library):
 * the body is written to `file` as it arrives, and the size cap is enforced while it streams, so
 * an oversized answer is cut off after `maxBytes` (at once when its Content-Length says so) and
 * never held whole. A failure leaves whatever was written for the caller to remove.
 */
export function guardedDownload(url: string, file: string, o: Omit<GuardedFetchOptions, 'oversize'> = {}): Promise<GuardedDownload> {
  const maxBytes = o.maxBytes ?? config().outbound.maxBytes;
  return exchange(url, o, async (res, target) => {
    if (res.statusCode < 200 || res.statusCode > 299) {
      const read = await readBody(res.body, 2048, 'truncate', target.host);
      throw new OutboundStatusError(target.host, res.statusCode, read.body.toString('utf8'), flattenHeaders(res.headers));
    }
    if (Number(res.headers['content-length'] ?? 0) > maxBytes) {
      res.body.destroy();
      throw new OutboundTooLargeError(target.host, maxBytes);
    }
    let bytes = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > maxBytes ? new OutboundTooLargeError(target.host, maxBytes) : null, chunk);
      },
    });
    await pipeline(res.body, cap, createWriteStream(file));
    return { status: res.statusCode, url: target.href, headers: flattenHeaders(res.headers), bytes };
  });
}

type UndiciResponse = Dispatcher.ResponseData;

/**
 * One guarded exchange: the address checks, the deadline (covering `consume` too) and the
 * redirects; `consume` reads the final answer. Errors come out as the typed errors of ./errors.ts.
 */
async function exchange<T>(url: string, o: GuardedFetchOptions, consume: (res: UndiciResponse, target: URL) => Promise<T>): Promise<T> {
  const settings = config().outbound;
  const timeoutMs = o.timeoutMs ?? settings.timeoutMs;
  const allow = allowListFor(o.allow ?? settings.allow);
  const undici = await loadUndici();
  const dispatcher = agentFor(undici, allow);

  let target = parseTarget(url);
  let method: string = o.method ?? 'GET';
  let body = o.body;
  let headers = { ...o.headers };
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      checkLiteralAddress(target, allow);
      const res = await send(undici, dispatcher, target, method, headers, body, deadline.signal, timeoutMs);
      const location = res.headers.location;
      if (REDIRECT_STATUSES.has(res.statusCode) && location) {
        await res.body.dump();
        if (hop >= MAX_REDIRECTS) throw new OutboundNetworkError(`Too many redirects from ${target.host}.`, target.host);
        const next = parseTarget(new URL(String(location), target).href);
        if (next.origin !== target.origin) headers = withoutCredentials(headers);
        // as browsers do: 303, and 301/302 after a POST, continue as a GET without a body
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        target = next;
        continue;
      }
      return await consume(res, target);
    }
  } catch (e) {
    if (deadline.signal.aborted && !(e instanceof OutboundError)) throw new OutboundTimeoutError(target.host, timeoutMs);
    if (e instanceof OutboundError) throw e;
    const forbidden = findForbidden(e);
    if (forbidden) throw forbidden;
    throw new OutboundNetworkError(`Could not reach ${target.host}: ${networkReason(e)}.`, target.host);
  } finally {
    clearTimeout(timer);
  }
}

function parseTarget(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new OutboundUrlError('The URL is not valid.', '');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new OutboundUrlError(`Only http and https URLs can be fetched, not ${u.protocol}`, u.host);
  if (u.username || u.password) throw new OutboundUrlError('URLs with credentials are not fetched.', u.host);
  return u;
}

/** A host written as an address never goes through DNS, so it is checked here instead of in lookup. */
function checkLiteralAddress(u: URL, allow: AllowList): void {
  const host = bareHost(u.hostname);
  if (isIP(host) && !isPublicAddress(host) && !allow.hasHost(host) && !allow.hasAddress(host)) throw new OutboundForbiddenAddressError(u.host, host);
}

function send(undici: Undici, dispatcher: Dispatcher, u: URL, method: string, headers: Record<string, string>, body: string | Buffer | undefined, signal: AbortSignal, timeoutMs: number) {
  return undici.request(u, {
    dispatcher,
    method: method as Dispatcher.HttpMethod,
    headers: { 'user-agent': 'cms-spec', ...headers },
    body,
    signal,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
}

async function readBody(stream: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number, oversize: 'error' | 'truncate', host: string): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size + chunk.length > maxBytes) {
      stream.destroy();
      if (oversize === 'error') throw new OutboundTooLargeError(host, maxBytes);
      chunks.push(chunk.subarray(0, maxBytes - size));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
}

/** undici wraps connect failures; the refusal raised in lookup may sit in `cause`. */
function findForbidden(e: unknown): OutboundForbiddenAddressError | null {
  for (let cur = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++)
    if (cur instanceof OutboundForbiddenAddressError) return cur;
  return null;
}

function networkReason(e: unknown): string {
  const code = (e as { code?: string })?.code;
  return code ?? (e instanceof Error ? e.message : 'connection failed');
}

type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | undefined;

/** undici is loaded on the first outbound call, not at start-up: most requests make none, and it is a large module graph to load. */
function loadUndici(): Promise<Undici> {
  return (undiciModule ??= import('undici'));
}

const agents = new Map<AllowList, Agent>();

/** One connection pool per allow-list, whose DNS lookup refuses non-public answers. */
function agentFor(undici: Undici, allow: AllowList): Agent {
  let agent = agents.get(allow);
  // the connector's own timeout is off: connectFailFast keeps the one read from the settings
  if (!agent) agents.set(allow, (agent = new undici.Agent({ connect: connectFailFast(undici.buildConnector({ lookup: guardedLookup(allow), timeout: 0 })) })));
  return agent;
}

/** Origins whose last connection failed: until when they are not tried again, and the error every request to them meanwhile gets. */
const unreachableOrigins = new Map<string, { until: number; error: OutboundUnreachableError }>();
/** Connections being made to each origin, each with what fails it. */
const connecting = new Map<string, Set<(e: OutboundUnreachableError) => void>>();

/**
 * Wraps undici's connector so that a host without a route fails fast: a connection has
 * CMS_SPEC_OUTBOUND_CONNECT_TIMEOUT_MS to be made (DNS, TCP and TLS); the first connection to an
 * origin that fails fails every other one being made to it at once (the requests queued behind
 * them with it); and the origin is then remembered as unreachable for
 * CMS_SPEC_OUTBOUND_UNREACHABLE_MS, each request meanwhile failing at once with the same error
 * instead of waiting out the timeouts again. A refused non-public address is not a failure of
 * the host: it is passed on, not remembered.
 */
function connectFailFast(connect: buildConnector.connector): buildConnector.connector {
  // undici's connector returns the socket it makes, though its type says nothing of it
  const open = connect as (options: buildConnector.Options, callback: buildConnector.Callback) => Socket;
  return (options, callback) => {
    const origin = `${options.protocol}//${options.hostname}:${options.port || (options.protocol === 'https:' ? 443 : 80)}`;
    const known = unreachableOrigins.get(origin);
    if (known && known.until > Date.now()) return callback(known.error, null);
    const { connectTimeoutMs, unreachableMs } = config().outbound;
    const host = options.host ?? options.hostname;
    const others = connecting.get(origin) ?? new Set();
    connecting.set(origin, others);
    let settled = false;
    let socket: Socket | undefined;
    const settle: buildConnector.Callback = (...args) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      others.delete(fail);
      if (!others.size && connecting.get(origin) === others) connecting.delete(origin);
      const [err] = args;
      if (err === null) {
        unreachableOrigins.delete(origin);
        return callback(...args);
      }
      if (findForbidden(err)) return callback(err, null);
      const error = err instanceof OutboundUnreachableError ? err : new OutboundUnreachableError(host, networkReason(err));
      unreachableOrigins.set(origin, { until: Date.now() + unreachableMs, error });
      for (const other of [...others]) other(error);
      callback(error, null);
    };
    const fail = (error: OutboundUnreachableError) => {
      socket?.destroy();
      settle(error, null);
    };
    others.add(fail);
    const timer = setTimeout(() => fail(new OutboundUnreachableError(host, 'ETIMEDOUT', `no connection within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    try {
      socket = open(options, settle);
    } catch (e) {
      settle(e as Error, null);
    }
  };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupAnswer = (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/** Lookups under way: connections to one name made at once share its answer (and its failure) instead of a lookup each, in libuv's four threads. */
const lookupsUnderWay = new Map<string, LookupAnswer[]>();

function sharedLookup(hostname: string, options: LookupOptions, answer: LookupAnswer): void {
  const key = `${options.family ?? 0}/${options.hints ?? 0}/${hostname}`;
  const waiting = lookupsUnderWay.get(key);
  if (waiting) return void waiting.push(answer);
  lookupsUnderWay.set(key, [answer]);
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    const answers = lookupsUnderWay.get(key)!;
    lookupsUnderWay.delete(key);
    for (const a of answers) a(err, addresses);
  });
}

function guardedLookup(allow: AllowList) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    sharedLookup(hostname, options, (err, addresses) => {
      if (err) return callback(err, []);
      const trusted = allow.hasHost(hostname);
      const refused = trusted ? undefined : addresses.find((a) => !isPublicAddress(a.address) && !allow.hasAddress(a.address));
      // one bad answer refuses the name: choosing among mixed answers would let an attacker's DNS pick
      if (refused) return callback(new OutboundForbiddenAddressError(hostname, refused.address) as unknown as NodeJS.ErrnoException, []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
