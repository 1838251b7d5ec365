/**
 * The engine's contracts with the application it serves. The engine is a framework: it knows
 * routes, arguments, capabilities and WordPress's REST semantics, never the CMS behind them. The
 * application hands it a host (the index's site description and the API's address) and a store
 * (whatever its handlers read and write, able to run a batch in one transaction).
 */

import type { Readable } from 'node:stream';
import type { ApiRoot } from './api-root.ts';
import type { ErrorValues, RestError } from './errors.ts';
import type { RouteSpec } from './spec.ts';

/** The authenticated user a handler sees. */
export interface User {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: string;
  caps: ReadonlySet<string>;
  /** The application password the request authenticated with, for `introspect`. */
  appPasswordUuid?: string;
  /** Headers the authenticator sends with the answer (a refreshed `X-WP-Nonce` for a cookie login). */
  answerHeaders?: Readonly<Record<string, string>>;
  /** wp_create_nonce as this caller: bound to their browser session when they came with one (an autosave's `preview_nonce`). */
  nonce?(action: string): string;
}

/** What a handler knows about the request beyond its args; never the raw req/res. */
export interface RequestInfo {
  method: string;
  /** The served REST path, e.g. `/code-snippets/v1/snippets/5` (`/cms/v2/posts` also when the caller said `/wp/v2/posts`). */
  path: string;
  /** The query-string params as sent, for pagination links that repeat them (WordPress's get_query_params). */
  query: Record<string, unknown>;
  /** The matched route key, e.g. `/code-snippets/v1/snippets/(?P<id>[\d]+)`. */
  route: string;
  /** URL variables of the matched route. */
  urlParams: Record<string, string>;
  headers: Record<string, string>;
  ip: string;
  /** True for HEAD: handlers may skip building a body. */
  head: boolean;
  /** The files of an upload endpoint's request (`upload: true` in the spec); empty otherwise. */
  files: readonly UploadedFile[];
}

/** A file a request uploaded, as the server streamed it to disk (PHP's $_FILES entry). */
export interface UploadedFile {
  /** The form field it came in, or null for a raw (non-multipart) body. */
  field: string | null;
  /** The file name the multipart part gave; null for a raw body (its name is in Content-Disposition). */
  filename: string | null;
  /** The part's Content-Type, or the request's for a raw body; '' when none was sent. */
  contentType: string;
  /** Where it is on disk, until the request has been answered. A handler keeping it moves it away. */
  path: string;
  size: number;
}

export interface Logger {
  error(message: string): void;
  info(message: string): void;
}

/**
 * What the application tells the engine about itself: the API's address (for links and the
 * discovery header) and the root index around the routes. `onChange` listeners run when any of
 * these change, and the engine rebuilds its prebuilt index bytes then, never per request.
 */
export interface EngineHost {
  /** The API root URL clients discover, ending in `/`, e.g. `http://example.com/cms-json/`. */
  readonly apiRoot: string;
  /** The `Link` header every answer carries so clients find the API. */
  readonly linkHeader: string;
  /**
   * The root index document: the application's description of itself around the engine's
   * namespaces and routes, once per root the API answers at; a link it adds to a route takes its
   * URL from `restUrl` (a served path, e.g. `cms/v2/themes`, as that root shows it).
   */
  rootIndex(namespaces: string[], routes: Record<string, unknown>, restUrl: (path: string) => string): Record<string, unknown>;
  /** The links the root index adds to its own for this user (WordPress's `wp:active-theme`, with curies); none when not given. */
  indexLinks?(user: User | null, restUrl: (path: string) => string): Record<string, unknown[]> | undefined;
  onChange(listener: () => void): void;
  /**
   * The instances a route template (`each: kind` in the spec) is served for, now: each a map of
   * its `<placeholder>` values. Asked whenever the routes are compiled; none when not given.
   */
  routeInstances?(each: string): readonly Readonly<Record<string, string>>[];
}

/** The store the application injects: handlers see it as `ctx.store`; batch runs its steps in one transaction. */
export interface TransactionalStore<S> {
  /** Runs `count` steps in one transaction, each in a savepoint that `keep: false` (or a throw) undoes. */
  steps<R>(count: number, step: (store: S, i: number) => Promise<{ value: R; keep: boolean }>): Promise<R[]>;
}

/**
 * `A` is the handler's args as its spec declares them (`cms-spec types` generates one per
 * handler); untyped, every param is `any`.
 */
export interface HandlerContext<S = unknown, H extends EngineHost = EngineHost, A extends object = Record<string, any>> {
  /** Every request param merged in WordPress precedence; declared args validated, coerced and defaulted. */
  args: A;
  user: User | null;
  store: S;
  site: H;
  /**
   * The root the request came in on: `ctx.api.restUrl('cms/v2/posts/5')` is that URL under the
   * root and namespace names the caller used (`/wp-json/wp/v2/posts/5` at the WordPress alias),
   * for every link and header a handler builds.
   */
  api: ApiRoot;
  request: RequestInfo;
  /** The matched route's `config` from the spec (e.g. the post type a content route serves). */
  config: Readonly<Record<string, unknown>>;
  /** The server's log, for failures a handler survives (a plugin filter that threw). */
  log: Logger;
  /** True when the user has the capability (always false for anonymous callers). */
  can(cap: string): boolean;
  /** Runs another REST request in-process (embedding, plugin batch routes) as the same user. */
  dispatch(method: string, path: string, params?: Record<string, unknown>): Promise<RestResponse>;
  /**
   * Adds a header to this request's answer, whatever the handler returns (a RestResponse's own
   * headers win): for what a helper deep in a handler finds out, such as an answer served stale.
   */
  header(name: string, value: string): void;
  /**
   * The error `code` names in the catalogue of the route's namespace (its `errors:`, site.yaml's,
   * or the engine's own), its message's `{name}` placeholders filled from `values`:
   * `throw ctx.fail('rest_snippet_not_found')`. `data` joins the answer's `data`; a `status` in it
   * answers instead of the catalogued one. A code no catalogue declares is a 500 (lint says so first).
   */
  fail(code: string, values?: ErrorValues, data?: Record<string, unknown>): RestError;
  /**
   * The routes served now (this variant's, of the namespaces being served), as the spec declares
   * them: for handlers that describe the API itself. The same array until the routes change.
   */
  readonly served: readonly RouteSpec[];
}

// Handlers are stored untyped in the route table; each module types its own context.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler<S = any, H extends EngineHost = any> = (ctx: HandlerContext<S, H>) => unknown | Promise<unknown>;

/**
 * The handlers whose answer does not fit what their endpoints answer (`cms-spec types`'
 * HandlerAnswers against HandlerResults; a RestResponse, whose data is not typed, always fits).
 * `never` when all fit, so `type Checked = NoMisfits<AnswerMisfits<HandlerAnswers, HandlerResults>>`
 * fails tsc naming each handler that does not.
 */
export type AnswerMisfits<Answers, Results> = {
  // an answer typed `any` fits, rather than turning the whole check into `any` (one tsc itself faults, such as a
  // read of an undeclared arg returned as is, still silences the check until it is fixed)
  [K in keyof Answers & keyof Results]: 0 extends 1 & Answers[K] ? never : Answers[K] extends Results[K] | RestResponse ? never : K;
}[keyof Answers & keyof Results];
export type NoMisfits<T extends never> = T;

/** A raw (non-JSON) body, e.g. oEmbed XML; a stream (a large export written as it is read) goes out as it comes, neither compressed nor kept. */
export interface RawBody {
  body: string | Buffer | Readable;
  contentType: string;
}

/** A handler result with a status and headers; a plain return value means 200 with that data. */
export class RestResponse {
  constructor(
    public data: unknown,
    public status = 200,
    public headers: Record<string, string> = {},
    public raw?: RawBody,
  ) {}
}

/**
 * Data whose JSON was serialised once in advance (the indexes, kept parts of answers): sent as
 * these bytes unless the answer is reshaped (a list of them joined), and compressed once beside
 * them (compression.ts keptEncoding): build one per document and keep it, never one per request.
 */
export class PrebuiltJson {
  constructor(
    readonly data: unknown,
    readonly json: Buffer,
    /** A whole document (an index) keeps its `_links` whatever `_fields` asks. */
    readonly keepsLinks = false,
  ) {}

  static of(data: unknown): PrebuiltJson {
    return new PrebuiltJson(data, Buffer.from(JSON.stringify(data)));
  }

  /** A whole document built in advance: an index, an OPTIONS answer. */
  static document(data: unknown): PrebuiltJson {
    return new PrebuiltJson(data, Buffer.from(JSON.stringify(data)), true);
  }
}

/** Resolves credentials; provided by the application's auth layer. */
export interface Authenticator {
  /**
   * Resolves the request's credentials (an Authorization header, a session cookie with a nonce) to
   * a user, null for anonymous; throws a RestError for bad credentials. It is handed every API
   * request, and answers one that carries nothing it reads at once (null, not a promise). With
   * `bearer` (a protected resource's request, see Mount), an OAuth Bearer token is a credential
   * too; elsewhere a Bearer header is no credential (anonymous, as in WordPress).
   */
  authenticate(headers: Record<string, string>, ip: string, query: Record<string, unknown>, accept?: { bearer: boolean }): User | null | Promise<User | null>;
}

/** A request for a page of the site (anything outside the API), handed to the site renderer. */
export interface PageRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: Buffer;
  ip: string;
}

export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  /** The page, or a stream of it (a file served from disk). */
  body: string | Buffer | Readable;
}

export type PageHandler = (req: PageRequest) => Promise<PageResponse | null>;
