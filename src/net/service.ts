import { setTimeout as delay } from 'node:timers/promises';
import { RestError } from '../engine/errors.ts';
import { guardedFetch, type GuardedResponse } from './fetch.ts';
import { OutboundNetworkError, outboundRestError, OutboundStatusError, OutboundUnreachableError } from './errors.ts';

/** Who a remote service is, for the errors its failures become. */
export interface ServiceIdentity {
  /** How messages name it, as a sentence's subject: "the keyword research service", "Mailchimp". */
  name: string;
  /** The stem of its error codes: `wpseo_remote` gives `wpseo_remote_unauthorized`, `wpseo_remote_timeout`… */
  codes: string;
  /** Added to every error's data, so a client can tell which service failed: `{service: 'ai'}`, `{provider: 'brevo'}`. */
  data: Readonly<Record<string, unknown>>;
  /** What its credentials are called: "this site's credentials", "the API key". */
  credentials: string;
  /** What a person does when the credentials are refused, and when the base URL cannot be called: whole sentences. */
  fix: { credentials: string; baseUrl: string };
  /** A header of its own that says, with a 429, in how many seconds to try again (read after Retry-After). */
  resetHeader?: string;
}

export interface ServiceRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the base URL, without a leading slash. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** An application/x-www-form-urlencoded body (OAuth token requests). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Answers a GET is asked again for, once: the service's passing failures. Other methods are never repeated. */
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);
const RETRY_DELAY_MS = 250;
/** The longest message of a service an error repeats. */
const MESSAGE_LIMIT = 300;
/** Shorter values are not real secrets, and blanking them would garble every message. */
const MIN_SECRET_LENGTH = 8;

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Requests to one remote service at its base URL through the guarded client (src/net/fetch.ts):
 * JSON in and out, a GET asked again once after a passing failure (a 5xx, a dropped connection),
 * and every failure turned into a WordPress error that says which service failed, how, and what
 * to do, with the secrets it was given (keys, client secrets, tokens) blanked out of anything the
 * service said. Each plugin that talks to services names them with a ServiceIdentity.
 */
export class RemoteService {
  private readonly secrets: string[] = [];

  private readonly headers: Readonly<Record<string, string>>;

  /** `secrets`: values never repeated from its answers; `headers`: sent with every request (what carries a key). */
  constructor(
    readonly identity: ServiceIdentity,
    private readonly baseUrl: string,
    o: { secrets?: readonly string[]; headers?: Record<string, string> } = {},
  ) {
    this.headers = o.headers ?? {};
    for (const s of o.secrets ?? []) this.remember(s);
  }

  /** Its name as a sentence begins with it: "The keyword research service", "Mailchimp". */
  get title(): string {
    return capitalised(this.identity.name);
  }

  /** A value never to be repeated from the service's answers (a token obtained on the way). */
  remember(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  private error(kind: string, message: string, status: number, data: Record<string, unknown> = {}): RestError {
    return new RestError(`${this.identity.codes}_${kind}`, message, status, { ...this.identity.data, ...data });
  }

  /** The absolute URL of a path under the base URL. */
  url(path: string, query: Record<string, string> = {}): string {
    let url: URL;
    try {
      url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    } catch {
      throw this.error('invalid_base_url', `The base URL of ${this.identity.name} is not a URL. ${this.identity.fix.baseUrl}`, 400);
    }
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.href;
  }

  /** The exchange itself; a failure is the guarded client's typed error, for callers that act on a status (a 401 that asks for a token refresh). */
  async send(r: ServiceRequest): Promise<GuardedResponse> {
    const method = r.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json', ...this.headers, ...r.headers };
    let body: string | undefined;
    if (r.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(r.json);
    } else if (r.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(r.form).toString();
    }
    const url = this.url(r.path, r.query);
    for (let attempt = 1; ; attempt++) {
      try {
        return await guardedFetch(url, { method, headers, body });
      } catch (e) {
        if (method !== 'GET' || attempt > 1 || !passing(e)) throw e;
        await delay(RETRY_DELAY_MS);
      }
    }
  }

  /** The service's JSON answer (null for an empty body); every failure as a RestError. */
  async json<T = unknown>(r: ServiceRequest): Promise<T> {
    return (await this.exchange<T>(r)).body;
  }

  /** The service's JSON answer with its headers (paging counts, rate limits); every failure as a RestError. */
  async exchange<T = unknown>(r: ServiceRequest): Promise<{ body: T; headers: Record<string, string> }> {
    let res: GuardedResponse;
    try {
      res = await this.send(r);
    } catch (e) {
      throw this.failure(e, r.path);
    }
    return { body: this.decode<T>(res, r.path), headers: res.headers };
  }

  /** An answer's JSON, with every secret blanked in its strings (should a service or gateway repeat one). */
  decode<T>(res: GuardedResponse, path: string): T {
    const text = res.text();
    if (!text.trim()) return null as T;
    let decoded: unknown;
    try {
      decoded = JSON.parse(text);
    } catch {
      throw this.invalidAnswer(path, 'something that is not JSON');
    }
    return this.scrub(decoded) as T;
  }

  invalidAnswer(path: string, what: string): RestError {
    return this.error('invalid_response', `${this.title} answered ${path} with ${what}.`, 502);
  }

  /** The WordPress error an outbound failure becomes: which service, how it failed, what to do; never a secret. Anything else is passed on. */
  failure(e: unknown, path: string): unknown {
    const { name, fix } = this.identity;
    const Name = this.title;
    return outboundRestError(e, {
      status: (e) => this.statusFailure(e, path),
      timeout: (e) => this.error('timeout', `${Name} did not answer within ${e.timeoutMs} ms.`, 504),
      too_large: (e) => this.error('response_too_large', `${Name}'s answer is larger than ${e.maxBytes} bytes.`, 502),
      forbidden_address: (e) => this.error('forbidden_address', `The base URL of ${name} points to ${e.host}, a non-public address this site does not call (CMS_SPEC_OUTBOUND_ALLOW can allow it).`, 400),
      url: (e) => this.error('invalid_base_url', `The base URL of ${name} cannot be called: ${e.message} ${fix.baseUrl}`, 400),
      unreachable: (e) => this.error('unreachable', `${Name} could not be reached: ${e.message}`, 502),
    });
  }

  /** A final answer outside 2xx: what the status means for this service, with what it said. */
  private statusFailure(e: OutboundStatusError, path: string): RestError {
    const { credentials, fix } = this.identity;
    const Name = this.title;
    const said = this.providerMessage(e.body);
    const detail = said ? `: “${said}”` : '';
    const status = { provider_status: e.status };
    if (e.status === 401) return this.error('unauthorized', `${Name} refused ${credentials} (HTTP 401)${detail}. ${fix.credentials}`, 400, status);
    if (e.status === 403) return this.error('forbidden', `${Name} denied access to ${path} (HTTP 403)${detail}. The account may lack the permission or the plan for it.`, 400, status);
    if (e.status === 404) return this.error('not_found', `${Name} has nothing at ${path} (HTTP 404)${detail}.`, 404, status);
    if (e.status === 429) {
      const retryAfter = this.retryAfter(e.headers);
      const err = this.error('rate_limited', `${Name} is limiting requests (HTTP 429)${detail}. Try again ${retryAfter ? `in ${retryAfter} seconds` : 'later'}.`, 429, retryAfter ? { ...status, retry_after: retryAfter } : status);
      if (retryAfter) err.headers['Retry-After'] = String(retryAfter);
      return err;
    }
    if (e.status >= 500) return this.error('error', `${Name} failed to answer ${path} (HTTP ${e.status})${detail}. Try again later.`, 502, status);
    return this.error('rejected', `${Name} rejected the request for ${path} (HTTP ${e.status})${detail}.`, 400, status);
  }

  /** The human part of a service's error answer (OAuth's error_description, message, detail, errors[0]…), one line, secrets blanked. */
  providerMessage(body: string): string {
    let decoded: unknown;
    try {
      decoded = JSON.parse(body);
    } catch {
      return '';
    }
    const o = (decoded ?? {}) as Record<string, any>;
    const first = Array.isArray(o.errors) ? o.errors[0] : undefined;
    const candidates = [o.error_description, o.detail, o.message, o.error?.message, o.error, first?.title, first?.message];
    const said = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '') ?? '';
    const line = this.redact(said).replace(/\s+/g, ' ').trim();
    return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT - 1)}…` : line;
  }

  redact(text: string): string {
    return this.secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
  }

  private scrub(value: unknown): unknown {
    if (!this.secrets.length) return value;
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v)]));
    return value;
  }

  /** Seconds to wait, from Retry-After (seconds or an HTTP date) or the service's own reset header ("432 seconds" is 432). */
  private retryAfter(headers: Readonly<Record<string, string>>): number | undefined {
    const given = headers['retry-after']?.trim();
    if (given && /^\d+$/.test(given)) return Number(given);
    if (given) {
      const at = Date.parse(given);
      const seconds = Number.isNaN(at) ? 0 : Math.ceil((at - Date.now()) / 1000);
      if (seconds > 0) return seconds;
    }
    const own = this.identity.resetHeader ? /^\s*(\d+)/.exec(headers[this.identity.resetHeader] ?? '')?.[1] : undefined;
    return own ? Number(own) : undefined;
  }
}

/**
 * A failure worth one more try: the service's 5xx, or a connection that dropped. Not a timeout
 * (that would double the wait), nor a host that could not be connected to (it is remembered as
 * unreachable for some seconds: the second try would fail the same, only later).
 */
function passing(e: unknown): boolean {
  return (e instanceof OutboundStatusError && RETRIED_STATUSES.has(e.status)) || (e instanceof OutboundNetworkError && !(e instanceof OutboundUnreachableError));
}
