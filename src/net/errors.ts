import { RestError } from '../engine/errors.ts';

/**
 * What can go wrong with an outbound request, as types; outboundRestError (below) turns them into
 * the REST error each route answers.
 * Messages name the host at most, never the full URL: query strings may carry API keys.
 */
export class OutboundError extends Error {
  constructor(
    message: string,
    /** The host the failing request went to. */
    readonly host: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Not an http(s) URL, or not a URL at all. */
export class OutboundUrlError extends OutboundError {}

/** The host resolves to (or is) a loopback, private, link-local or otherwise non-public address. */
export class OutboundForbiddenAddressError extends OutboundError {
  constructor(
    host: string,
    readonly address: string,
  ) {
    super(`Requests to ${host} are not allowed: it is or resolves to the non-public address ${address}.`, host);
  }
}

/** The exchange did not finish within its deadline. */
export class OutboundTimeoutError extends OutboundError {
  constructor(
    host: string,
    readonly timeoutMs: number,
  ) {
    super(`${host} did not answer within ${timeoutMs} ms.`, host);
  }
}

/** The response body is larger than the caller accepts. */
export class OutboundTooLargeError extends OutboundError {
  constructor(
    host: string,
    readonly maxBytes: number,
  ) {
    super(`The response from ${host} is larger than ${maxBytes} bytes.`, host);
  }
}

/**
 * A final (non-redirect) status outside 2xx; the body is kept for callers that show the remote
 * message, and the headers for those that honour the remote's hints (a 429's Retry-After).
 */
export class OutboundStatusError extends OutboundError {
  constructor(
    host: string,
    readonly status: number,
    readonly body: string,
    /** Lower-case names; repeated headers joined with ", ". */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${host} answered with HTTP status ${status}.`, host);
  }
}

/** Too many redirects, a redirect without a usable Location, or a connection that failed. */
export class OutboundNetworkError extends OutboundError {}

/**
 * No connection could be made: the name did not resolve, the host refused or could not be routed
 * to, TLS failed, or nothing answered within the connect timeout. The host is then remembered as
 * unreachable for a few seconds (CMS_SPEC_OUTBOUND_UNREACHABLE_MS), and requests to it meanwhile
 * fail at once with this same error.
 */
export class OutboundUnreachableError extends OutboundNetworkError {
  constructor(
    host: string,
    /** The system's code (`ENOTFOUND`, `ECONNREFUSED`, `EHOSTUNREACH`…), `ETIMEDOUT` for the connect timeout. */
    readonly code: string,
    detail: string = code,
  ) {
    super(`Could not reach ${host}: ${detail}.`, host);
  }
}

/** The kinds of outbound failure a route answers differently. */
export type OutboundFailure = 'url' | 'forbidden_address' | 'timeout' | 'too_large' | 'status' | 'unreachable';

interface FailureErrors {
  url: OutboundUrlError;
  forbidden_address: OutboundForbiddenAddressError;
  timeout: OutboundTimeoutError;
  too_large: OutboundTooLargeError;
  status: OutboundStatusError;
  unreachable: OutboundError;
}

/** A route's answer to one kind: a code (with the failure's own message, which names the host at most), or its own error. */
export type OutboundAnswer<K extends OutboundFailure> = string | ((e: FailureErrors[K]) => RestError | { code: string; message?: string; status?: number; data?: Record<string, unknown> });

/** How one route answers each kind of outbound failure. */
export type OutboundAnswers = { [K in OutboundFailure]: OutboundAnswer<K> };

/** The status a kind answers unless the route says otherwise: a URL the site will not call is the caller's 400; the remote's silence a 504; its other failures a 502. */
const FAILURE_STATUS: Readonly<Record<OutboundFailure, number>> = { url: 400, forbidden_address: 400, timeout: 504, too_large: 502, status: 502, unreachable: 502 };

function failureOf(e: OutboundError): OutboundFailure {
  if (e instanceof OutboundUrlError) return 'url';
  if (e instanceof OutboundForbiddenAddressError) return 'forbidden_address';
  if (e instanceof OutboundTimeoutError) return 'timeout';
  if (e instanceof OutboundTooLargeError) return 'too_large';
  if (e instanceof OutboundStatusError) return 'status';
  return 'unreachable';
}

/** Gateway statuses: the service behind this site failed, not the request. */
const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Whether a failure says the service is down (unreachable, silent, or answering 5xx), as an
 * outbound error or as the REST error a route made of it (a 502, 503 or 504): where an answer
 * kept from before serves better than the error.
 */
export function serviceDown(e: unknown): boolean {
  if (e instanceof RestError) return GATEWAY_STATUSES.has(e.status);
  if (e instanceof OutboundStatusError) return e.status >= 500;
  return e instanceof OutboundTimeoutError || e instanceof OutboundNetworkError;
}

/** The REST error an outbound failure becomes on a route, by its answers; anything that is not an outbound failure is passed on as it is. */
export function outboundRestError(e: unknown, answers: OutboundAnswers): unknown {
  if (!(e instanceof OutboundError)) return e;
  const kind = failureOf(e);
  const answer = answers[kind] as OutboundAnswer<typeof kind>;
  const given = typeof answer === 'string' ? { code: answer } : answer(e as never);
  if (given instanceof RestError) return given;
  return new RestError(given.code, given.message ?? e.message, given.status ?? FAILURE_STATUS[kind], given.data ?? {});
}
