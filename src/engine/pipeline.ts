import type { ApiRoot } from './api-root.ts';
import type { CompiledEndpoint, CompiledRoute } from './compile.ts';
import type { RestError } from './errors.ts';
import { PrebuiltJson, RestResponse, type RawBody, type UploadedFile, type User } from './types.ts';

/** A REST request after HTTP parsing; batch and embedded sub-requests are built the same way. */
export interface InternalRequest {
  method: string;
  /** The served REST path (namespaces as the spec names them) without the API prefix and without a trailing slash; `/` for the root. */
  path: string;
  /** The root the request came in on, whose names its answer uses; the API's own when absent. */
  root?: ApiRoot;
  query: Record<string, unknown>;
  /** Form-encoded body params (or a batch item's `body`). */
  body: Record<string, unknown>;
  /** The decoded JSON body, when the content type was JSON. */
  json?: unknown;
  jsonError?: string;
  headers: Record<string, string>;
  ip: string;
  /** Files an upload endpoint received, streamed to temporary files (removed after the request). */
  files?: UploadedFile[];
}

/** What a request came to, errors included, before it is written as HTTP. */
export interface Outcome {
  status: number;
  headers: Record<string, string>;
  data: unknown;
  raw?: RawBody;
  /** Ready-made JSON bytes for `data` (the prebuilt indexes, kept answers' parts). */
  json?: Buffer;
  /** The JSON of a list of prebuilt items, in parts (theirs and the punctuation between), written one after another instead of copied into one. */
  parts?: readonly Buffer[];
  /** A whole document built in advance (an index: PrebuiltJson.document): it keeps its `_links` whatever `_fields` asks. */
  document?: true;
  /** The route the request matched, for the Allow header. */
  route?: CompiledRoute;
  /** The request as the matched route's permission checks see it (its params merged, validated or not). */
  asked?: Prepared;
  /**
   * What the request showed of the endpoints without a permission check, whose handlers decide:
   * the one whose handler refused the user (a 401/403 it threw), and whether the object the URL
   * names is missing or gone (every one of them looks it up first, as WordPress's callbacks do).
   */
  refused?: CompiledEndpoint;
  gone?: true;
  /** The Allow header (rest_send_allow_header), set by the engine once the answer is made; '' for none. */
  allow?: string;
}

export interface Matched {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  urlParams: Record<string, string>;
}

/** A request that matched and validated, ready for its permission check and handler. */
export interface Prepared extends Matched {
  params: Record<string, unknown>;
  req: InternalRequest;
}

/** The steps of the request pipeline, as batch/v1 runs them on its sub-requests. */
export interface Pipeline<S> {
  match(req: InternalRequest): Matched | Outcome;
  prepare(req: InternalRequest, matched?: Matched | Outcome): Prepared | Outcome;
  execute(p: Prepared, user: User | null, store: S): Outcome | Promise<Outcome>;
  /** Sets the outcome's Allow header, from the permission checks of its route run for its request. */
  withAllow(out: Outcome, user: User | null, store: S): Outcome | Promise<Outcome>;
}

export const isPrepared = (s: Prepared | Outcome): s is Prepared => 'params' in s;

export function normaliseRestPath(path: string): string {
  // the common case, a clean path, needs no rewriting
  if (path.length > 1 && path.charCodeAt(0) === 47 && path.charCodeAt(1) !== 47 && path.charCodeAt(path.length - 1) !== 47) return path;
  const p = `/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '');
  return p === '' ? '/' : p;
}

export function errorOutcome(e: RestError, route?: CompiledRoute, asked?: Prepared): Outcome {
  return { status: e.status, headers: Object.assign({}, e.headers), data: e.toBody(), route, asked };
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * A body and its ready-made JSON, if it has one: prebuilt JSON (its own bytes), or a list whose
 * every item is prebuilt (their bytes, in parts).
 */
export function bodyOf(data: unknown): Pick<Outcome, 'data' | 'json' | 'parts' | 'document'> {
  if (data instanceof PrebuiltJson) return data.keepsLinks ? { data: data.data, json: data.json, document: true } : { data: data.data, json: data.json };
  if (!Array.isArray(data) || !data.length || !data.every((item) => item instanceof PrebuiltJson)) return { data };
  const parts: Buffer[] = [OPEN];
  for (const item of data as PrebuiltJson[]) parts.push(item.json, COMMA);
  parts[parts.length - 1] = CLOSE;
  return { data: (data as PrebuiltJson[]).map((item) => item.data), parts };
}

/** A handler's result as an outcome: a RestResponse keeps its status and headers, prebuilt JSON its bytes, anything else is 200. */
export function answered(result: unknown, route: CompiledRoute): Outcome {
  if (result instanceof RestResponse) return { status: result.status, headers: result.headers, ...bodyOf(result.data), raw: result.raw, route };
  return { status: 200, headers: {}, ...bodyOf(result), route };
}
