import { setTimeout as delay } from 'node:timers/promises';
import { RestError } from '../../../engine/errors.ts';
import { guardedFetch, type GuardedResponse } from '../../../net/fetch.ts';
import {
  OutboundError,
  OutboundForbiddenAddressError,
  OutboundNetworkError,
  OutboundStatusError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  OutboundUrlError,
} from '../../../net/errors.ts';
import type { ServiceId } from '../settings.ts';
import { serviceName } from './services.ts';

export interface ServiceRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Under the base URL, without a leading slash. */
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** An application/x-www-form-urlencoded body (OAuth token requests). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Answers a GET is asked again for, once: the service's passing failures. POSTs and DELETEs are never repeated. */
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);
const RETRY_DELAY_MS = 250;
/** The longest provider message an error repeats. */
const MESSAGE_LIMIT = 300;
/** Shorter values are not real secrets, and replacing them would garble every message. */
const MIN_SECRET_LENGTH = 8;

const rest = (code: string, message: string, status: number, data: Record<string, unknown>) => new RestError(code, message, status, data);

/**
 * Requests to one remote service at its base URL through the guarded client: JSON in and out, a
 * GET retried once after a passing failure (5xx, a dropped connection), and every failure turned
 * into a WordPress error that says which service failed and how, with the secrets it was given
 * (keys, client secrets, tokens) blanked out of anything the service said.
 */
export class ServiceCall {
  private readonly secrets: string[] = [];
  readonly name: string;

  constructor(
    readonly service: ServiceId,
    private readonly baseUrl: string,
    secrets: readonly string[] = [],
  ) {
    this.name = serviceName(service);
    for (const s of secrets) this.remember(s);
  }

  /** A value never to be repeated from the service's answers (a token obtained on the way). */
  remember(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH && !this.secrets.includes(secret)) this.secrets.push(secret);
  }

  /** The absolute URL of a path under the base URL. */
  url(path: string, query: Record<string, string> = {}): string {
    let url: URL;
    try {
      url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    } catch {
      throw rest('wpseo_remote_invalid_base_url', `The ${this.name}'s base URL is not a URL; set it again.`, 400, { service: this.service });
    }
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url.href;
  }

  /** The exchange itself; a failure is the guarded client's typed error, for callers that act on a status (a 401 that asks for a token refresh). */
  async send(r: ServiceRequest): Promise<GuardedResponse> {
    const method = r.method ?? 'GET';
    const headers: Record<string, string> = { accept: 'application/json', ...r.headers };
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
    let res: GuardedResponse;
    try {
      res = await this.send(r);
    } catch (e) {
      throw this.failure(e, r.path);
    }
    return this.decode<T>(res, r.path);
  }

  decode<T>(res: GuardedResponse, path: string): T {
    const text = res.text();
    if (!text.trim()) return null as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw this.invalidAnswer(path, 'something that is not JSON');
    }
  }

  invalidAnswer(path: string, what: string): RestError {
    return rest('wpseo_remote_invalid_response', `The ${this.name} answered ${path} with ${what}.`, 502, { service: this.service });
  }

  /** The WordPress error an outbound failure becomes: which service, how it failed, what to do; never a secret. */
  failure(e: unknown, path: string): unknown {
    if (!(e instanceof OutboundError)) return e;
    const data = { service: this.service };
    const name = this.name;
    if (e instanceof OutboundStatusError) {
      const said = this.providerMessage(e.body);
      const detail = said ? `: “${said}”` : '';
      const status = { ...data, provider_status: e.status };
      if (e.status === 401) return rest('wpseo_remote_unauthorized', `The ${name} refused this site's credentials (HTTP 401)${detail}. Check its settings.`, 400, status);
      if (e.status === 403) return rest('wpseo_remote_forbidden', `The ${name} denied access to ${path} (HTTP 403)${detail}. The account may lack the permission or the plan for it.`, 400, status);
      if (e.status === 404) return rest('wpseo_remote_not_found', `The ${name} has nothing at ${path} (HTTP 404)${detail}.`, 404, status);
      if (e.status === 429) {
        const retryAfter = retryAfterSeconds(e.headers['retry-after']);
        const err = rest('wpseo_remote_rate_limited', `The ${name} is limiting requests (HTTP 429)${detail}. Try again ${retryAfter ? `in ${retryAfter} seconds` : 'later'}.`, 429, retryAfter ? { ...status, retry_after: retryAfter } : status);
        if (retryAfter) err.headers['Retry-After'] = String(retryAfter);
        return err;
      }
      if (e.status >= 500) return rest('wpseo_remote_error', `The ${name} failed to answer ${path} (HTTP ${e.status})${detail}. Try again later.`, 502, status);
      return rest('wpseo_remote_rejected', `The ${name} rejected the request for ${path} (HTTP ${e.status})${detail}.`, 400, status);
    }
    if (e instanceof OutboundTimeoutError) return rest('wpseo_remote_timeout', `The ${name} did not answer within ${e.timeoutMs} ms.`, 504, data);
    if (e instanceof OutboundTooLargeError) return rest('wpseo_remote_response_too_large', `The ${name}'s answer is larger than ${e.maxBytes} bytes.`, 502, data);
    if (e instanceof OutboundForbiddenAddressError)
      return rest('wpseo_remote_forbidden_address', `The ${name}'s base URL points to ${e.host}, a non-public address this site does not call (CMS_SPEC_OUTBOUND_ALLOW can allow it).`, 400, data);
    if (e instanceof OutboundUrlError) return rest('wpseo_remote_invalid_base_url', `The ${name}'s base URL cannot be called: ${e.message}`, 400, data);
    return rest('wpseo_remote_unreachable', `The ${name} could not be reached: ${e.message}`, 502, data);
  }

  /** The human part of a service's error answer (OAuth's error_description, message, detail...), one line, secrets blanked. */
  providerMessage(body: string): string {
    let decoded: unknown;
    try {
      decoded = JSON.parse(body);
    } catch {
      return '';
    }
    const o = (decoded ?? {}) as Record<string, any>;
    const first = Array.isArray(o.errors) ? o.errors[0] : undefined;
    const candidates = [o.error_description, o.message, o.detail, o.error?.message, o.error, first?.message, first?.title];
    const said = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '') ?? '';
    const line = this.redact(said).replace(/\s+/g, ' ').trim();
    return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT - 1)}…` : line;
  }

  redact(text: string): string {
    return this.secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);
  }
}

/** A failure worth one more try: the service's 5xx, or a connection that dropped (not a timeout: that would double the wait). */
function passing(e: unknown): boolean {
  return (e instanceof OutboundStatusError && RETRIED_STATUSES.has(e.status)) || e instanceof OutboundNetworkError;
}

/** Retry-After in seconds, from its seconds or its HTTP date; undefined when absent or past. */
function retryAfterSeconds(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  const seconds = Math.ceil((at - Date.now()) / 1000);
  return seconds > 0 ? seconds : undefined;
}
