import type { Store } from '../store/index.ts';
import type { Site } from './site.ts';

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
}

/** What a handler knows about the request beyond its args; never the raw req/res. */
export interface RequestInfo {
  method: string;
  /** The REST path, e.g. `/code-snippets/v1/snippets/5`. */
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
}

export interface Logger {
  error(message: string): void;
  info(message: string): void;
}

export interface HandlerContext {
  /** Every request param merged in WordPress precedence; declared args validated, coerced and defaulted. */
  args: Record<string, any>;
  user: User | null;
  store: Store;
  site: Site;
  request: RequestInfo;
  /** The server's log, for failures a handler survives (a plugin filter that threw). */
  log: Logger;
  /** True when the user has the capability (always false for anonymous callers). */
  can(cap: string): boolean;
  /** Runs another REST request in-process (embedding, plugin batch routes) as the same user. */
  dispatch(method: string, path: string, params?: Record<string, unknown>): Promise<RestResponse>;
}

export type Handler = (ctx: HandlerContext) => unknown | Promise<unknown>;

/** A raw (non-JSON) body, e.g. oEmbed XML. */
export interface RawBody {
  body: string | Buffer;
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

/** Capability checks, provided by the auth layer. */
export interface Authenticator {
  /** Resolves the Authorization header to a user, null for anonymous; throws a RestError for bad credentials. */
  authenticate(headers: Record<string, string>, ip: string): Promise<User | null>;
}
