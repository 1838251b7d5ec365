import { RestError } from '../../engine/errors.ts';
import { guardedFetch } from '../../net/fetch.ts';
import {
  OutboundError,
  OutboundForbiddenAddressError,
  OutboundStatusError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  OutboundUrlError,
} from '../../net/errors.ts';
import { at, mailchimpDataCentre, type Endpoint, type Provider, type ProviderApi, type Query } from './providers.ts';
import type { ConnectorSettings } from './settings.ts';

/** What a caller asks a connector for: the REST args of `{ns}/get`, or `cms-spec connector test`'s. */
export interface ConnectorRequest {
  endpoint?: string;
  /** `key=value` strings (used only where the namespace declares them). */
  queryargs?: unknown[];
  page: number;
  perPage: number;
  search?: string;
  /** The caller's key, used only by the providers that take one per request. */
  apikey?: string;
}

export interface ConnectorAnswer {
  /** What the connector answers: the provider's JSON, or the list in it where the real connector answered that. */
  data: unknown;
  /** The size of the whole list, when the provider says it (or the list comes whole). */
  total?: number;
  /** How many pages of the asked size the whole list makes, when that is known. */
  totalPages?: number;
  /** The items of the list this page holds. */
  items: unknown[];
  /** Which API answered ("MailerLite Classic") and where, for the CLI's report. */
  api: string;
  root: string;
}

const ID_SEGMENT = '[A-Za-z0-9_-]+';
/** One compiled matcher per endpoint, built once: `lists/{id}/merge-fields` → /^lists\/[A-Za-z0-9_-]+\/merge-fields$/. */
const matchers = new Map<Endpoint, RegExp>();
function matcher(e: Endpoint): RegExp {
  let re = matchers.get(e);
  if (!re) matchers.set(e, (re = new RegExp(`^${e.name.split('{id}').map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join(ID_SEGMENT)}$`)));
  return re;
}

const rest = (code: string, message: string, status: number, data: Record<string, unknown> = {}) => new RestError(code, message, status, data);

/**
 * Calls the provider for one read endpoint and answers what the real connector answered, with the
 * paging and errors of a REST API. Every failure is a RestError a person can act on; nothing is
 * made up when the provider is not configured or does not answer.
 */
export async function readConnector(p: Provider, settings: ConnectorSettings, req: ConnectorRequest): Promise<ConnectorAnswer> {
  const extra = p.queryArgs ? parseQueryArgs(req.queryargs) : {};
  const key = (p.key === 'request' ? req.apikey?.trim() || settings.key : settings.key).trim();
  if (!key) throw notConfigured(p, 'key');
  const api = p.api(key);
  const root = apiRoot(p, api, settings.baseUrl, key);
  const { endpoint, path, trailingSlash } = endpointFor(p, api, req.endpoint);

  const query: Query = {};
  const search = req.search?.trim();
  if (search) {
    if (!endpoint.search) throw rest('kb_mail_search_unsupported', `${api.label} cannot search its ${path}; leave \`search\` out.`, 400, { provider: p.id });
    query[endpoint.search] = search;
  }
  if (endpoint.paged && api.paging) Object.assign(query, pagingQuery(api, req.page, req.perPage));
  else if (req.page > 1)
    throw rest('kb_mail_invalid_page_number', `The page number requested is larger than the number of pages available: ${api.label} answers all its ${path} on the first page.`, 400, { provider: p.id });
  // the caller's own query args win over the mapped paging and search; nothing overrides the key
  const auth = api.auth(key);
  Object.assign(query, extra, auth.query);
  const credentials = [key, ...Object.values(auth.headers ?? {}), ...Object.values(auth.query ?? {})];
  const call = new ProviderCall(p, api, root, { accept: 'application/json', ...auth.headers }, credentials);

  const { body, headers } = await call.get(endpoint.remote ?? path, query);
  const list = at(body, endpoint.items);
  if ((api.unwrap || endpoint.reshape || endpoint.interestGroups) && !Array.isArray(list))
    throw rest('kb_mail_invalid_response', `${api.label} answered ${path} without the list it should hold.`, 502, { provider: p.id });
  const items = Array.isArray(list) ? list : [];

  const groups = endpoint.interestGroups && trailingSlash;
  let data: unknown = body;
  if (groups) data = await interestGroups(call, path, items);
  else if (endpoint.reshape) data = endpoint.reshape(items);
  else if (api.unwrap) data = items;

  // the paging headers describe the provider's list, so not the interest groups gathered from several lists
  const size = api.paging && endpoint.paged ? count(query[api.paging.size]) : undefined;
  const total = groups ? undefined : endpoint.paged ? count(api.total?.(body, headers)) : Array.isArray(data) ? data.length : items.length;
  let totalPages: number | undefined;
  if (total !== undefined && !endpoint.paged) totalPages = total > 0 ? 1 : 0;
  else if (total !== undefined && size) totalPages = Math.ceil(total / size);
  return {
    data,
    items,
    total,
    totalPages,
    api: api.label,
    root,
  };
}

/** A count as a provider states it: a whole number, or its digits as a string (ActiveCampaign's `meta.total`, GetResponse's header). */
function count(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** `queryargs` as the real connectors read them: `key=value` strings, split at the first `=`. */
function parseQueryArgs(raw: unknown[] | undefined): Query {
  const out: Query = {};
  for (const [i, item] of (raw ?? []).entries()) {
    const s = typeof item === 'string' ? item : '';
    const eq = s.indexOf('=');
    const name = eq > 0 ? s.slice(0, eq).trim() : '';
    if (!/^[A-Za-z0-9_.\-[\]]+$/.test(name)) {
      const message = `queryargs[${i}] must be a key=value pair, such as count=100.`;
      throw rest('rest_invalid_param', 'Invalid parameter(s): queryargs', 400, { params: { queryargs: message }, details: { queryargs: { code: 'rest_invalid_param', message, data: null } } });
    }
    out[name] = s.slice(eq + 1);
  }
  return out;
}

function notConfigured(p: Provider, what: 'key' | 'base URL', hint = ''): RestError {
  const set = `cms-spec connector set ${p.id} ${what === 'key' ? '--key …' : '--base-url …'}`;
  const message =
    what === 'base URL'
      ? `The ${p.title} connector has no base URL yet (${hint}); an administrator sets it with \`${set}\`.`
      : p.key === 'request'
        ? `No ${p.title} ${p.keyName}: pass \`apikey\`, or have an administrator store one with \`${set}\`.`
        : `The ${p.title} connector has no ${p.keyName} yet; an administrator sets it with \`${set}\`.`;
  return rest('kb_mail_not_configured', message, 400, { provider: p.id, missing: what });
}

/** Where the provider's API is: the stored base URL (with the API path the account address lacks) or the provider's own. */
function apiRoot(p: Provider, api: ProviderApi, stored: string, key: string): string {
  let root = (stored || api.defaultBaseUrl || '').replace(/\/+$/, '');
  if (!root) throw notConfigured(p, 'base URL', api.baseUrlHint);
  const keyProblem = p.keyProblem?.(key, root);
  if (keyProblem) throw rest('kb_mail_invalid_key', keyProblem, 400, { provider: p.id });
  if (root.includes('{dc}')) root = root.replaceAll('{dc}', mailchimpDataCentre(key) ?? '');
  if (stored && api.apiPath && !root.endsWith(api.apiPath)) root += api.apiPath;
  return root;
}

function endpointFor(p: Provider, api: ProviderApi, raw: string | undefined): { endpoint: Endpoint; path: string; trailingSlash: boolean } {
  const written = (raw ?? '').trim().replace(/^\/+/, '');
  const path = written.replace(/\/$/, '');
  const endpoint = path ? api.endpoints.find((e) => matcher(e).test(path)) : undefined;
  if (!endpoint) {
    const allowed = api.endpoints.map((e) => e.name).join(', ');
    const message = path ? `${api.label} has no readable endpoint "${path}" here. Use one of: ${allowed}.` : `Name the ${api.label} endpoint to read in \`endpoint\`: one of ${allowed}.`;
    throw rest('rest_invalid_endpoint', message, 400, { provider: p.id, endpoints: api.endpoints.map((e) => e.name) });
  }
  return { endpoint, path, trailingSlash: written.endsWith('/') };
}

function pagingQuery(api: ProviderApi, page: number, perPage: number): Query {
  const paging = api.paging!;
  return 'page' in paging ? { [paging.size]: String(perPage), [paging.page]: String(page) } : { [paging.size]: String(perPage), [paging.offset]: String((page - 1) * perPage) };
}

/** Mailchimp's interest groups: every interest of every category, titled "Category - Interest" (the real connector asks for 100 of each). */
async function interestGroups(call: ProviderCall, categoriesPath: string, categories: unknown[]): Promise<{ id: unknown; title: string }[]> {
  const groups: { id: unknown; title: string }[] = [];
  for (const category of categories) {
    const { body } = await call.get(`${categoriesPath}/${encodeURIComponent(String(at(category, 'id')))}/interests`, { count: '100' });
    const interests = at(body, 'interests');
    if (!Array.isArray(interests)) continue;
    for (const interest of interests) groups.push({ id: at(interest, 'id'), title: `${String(at(category, 'title'))} - ${String(at(interest, 'name'))}` });
  }
  return groups;
}

/** The longest provider message a REST error repeats. */
const MESSAGE_LIMIT = 300;
/** Shorter "keys" are not real ones (the provider refuses them); replacing them would garble every answer. */
const MIN_SECRET_LENGTH = 8;

/** GET requests to one provider with one key, through the guarded client, failures turned into REST errors. */
class ProviderCall {
  constructor(
    private readonly p: Provider,
    private readonly api: ProviderApi,
    private readonly root: string,
    private readonly headers: Record<string, string>,
    /** What carries the key (the key, its header values, its query values): never repeated from a provider's answer. */
    private readonly secrets: string[],
  ) {}

  async get(path: string, query: Query): Promise<{ body: unknown; headers: Record<string, string> }> {
    let url: URL;
    try {
      url = new URL(`${this.root}/${path}`);
    } catch {
      throw rest('kb_mail_invalid_base_url', `The ${this.p.title} connector's base URL is not a URL; set it again with \`cms-spec connector set ${this.p.id} --base-url …\`.`, 400, { provider: this.p.id });
    }
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    let text: string;
    let headers: Record<string, string>;
    try {
      const res = await guardedFetch(url.href, { headers: this.headers });
      text = res.text();
      headers = res.headers;
    } catch (e) {
      throw this.failure(e, path);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw rest('kb_mail_invalid_response', `${this.api.label} answered ${path} with something that is not JSON.`, 502, { provider: this.p.id });
    }
    return { body: this.scrub(body), headers };
  }

  /** A decoded answer with every credential value replaced in its strings, should a provider or gateway repeat one. */
  private scrub(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v)]));
    return value;
  }

  private redact(text: string): string {
    return this.secrets.reduce((t, s) => (s.length >= MIN_SECRET_LENGTH ? t.split(s).join('[redacted]') : t), text);
  }

  /** The REST error an outbound failure becomes: who failed, how, and what to do, never the key. */
  private failure(e: unknown, path: string): unknown {
    if (!(e instanceof OutboundError)) return e;
    const { label } = this.api;
    const data = { provider: this.p.id };
    if (e instanceof OutboundStatusError) {
      const said = this.providerMessage(e.body);
      const detail = said ? `: “${said}”` : '';
      const status = { ...data, provider_status: e.status };
      if (e.status === 401)
        return rest('kb_mail_provider_unauthorized', `${label} refused the ${this.p.keyName} (HTTP 401)${detail}. Check the key${this.p.key === 'request' ? ' passed in `apikey` or' : ''} stored with \`cms-spec connector set ${this.p.id}\`.`, 400, status);
      if (e.status === 403) return rest('kb_mail_provider_forbidden', `${label} denied access to ${path} (HTTP 403)${detail}. The key may lack the permission or the plan for it.`, 400, status);
      if (e.status === 404) return rest('kb_mail_provider_not_found', `${label} has nothing at ${path} (HTTP 404)${detail}.`, 404, status);
      if (e.status === 429) {
        const retryAfter = this.retryAfter(e.headers);
        const err = rest('kb_mail_provider_rate_limited', `${label} is limiting requests (HTTP 429)${detail}. Try again ${retryAfter ? `in ${retryAfter} seconds` : 'later'}.`, 429, retryAfter ? { ...status, retry_after: Number(retryAfter) } : status);
        if (retryAfter) err.headers['Retry-After'] = retryAfter;
        return err;
      }
      if (e.status >= 500) return rest('kb_mail_provider_error', `${label} failed to answer ${path} (HTTP ${e.status})${detail}. Try again later.`, 502, status);
      return rest('kb_mail_provider_rejected', `${label} rejected the request for ${path} (HTTP ${e.status})${detail}.`, 400, status);
    }
    if (e instanceof OutboundTimeoutError) return rest('kb_mail_provider_timeout', `${label} did not answer within ${e.timeoutMs} ms.`, 504, data);
    if (e instanceof OutboundTooLargeError) return rest('kb_mail_provider_response_too_large', `${label}'s answer is larger than ${e.maxBytes} bytes.`, 502, data);
    if (e instanceof OutboundForbiddenAddressError)
      return rest('kb_mail_forbidden_address', `The ${this.p.title} connector's base URL points to ${e.host}, a non-public address this site does not call (CMS_SPEC_OUTBOUND_ALLOW can allow it).`, 400, data);
    if (e instanceof OutboundUrlError) return rest('kb_mail_invalid_base_url', `The ${this.p.title} connector's base URL cannot be called: ${e.message}`, 400, data);
    return rest('kb_mail_provider_unreachable', `${label} could not be reached: ${e.message}`, 502, data);
  }

  /** The human part of a provider's error answer (RFC 7807 `detail`, `message`, `error.message`, `errors[0].title`...), one line, without credentials. */
  private providerMessage(body: string): string {
    let decoded: unknown;
    try {
      decoded = JSON.parse(body);
    } catch {
      return '';
    }
    const errors = at(decoded, 'errors');
    const first = Array.isArray(errors) ? errors[0] : undefined;
    const candidates = [at(decoded, 'detail'), at(decoded, 'message'), at(decoded, 'error.message'), at(decoded, 'error'), at(first, 'title'), at(first, 'message')];
    const said = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '') ?? '';
    const line = this.redact(said).replace(/\s+/g, ' ').trim();
    return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT - 1)}…` : line;
  }

  /** Seconds to wait, from Retry-After or the provider's own reset header ("432 seconds" is read as 432). */
  private retryAfter(headers: Readonly<Record<string, string>>): string | undefined {
    for (const name of ['retry-after', this.api.resetHeader]) {
      const seconds = name ? /^\s*(\d+)/.exec(headers[name] ?? '')?.[1] : undefined;
      if (seconds) return seconds;
    }
    return undefined;
  }
}
