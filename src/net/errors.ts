/**
 * What can go wrong with an outbound request, as types callers turn into their own REST errors.
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
