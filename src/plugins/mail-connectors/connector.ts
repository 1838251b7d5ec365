import { invalidParam, RestError } from '../../engine/index.ts';
import { RemoteService, type ServiceIdentity } from '../../net/service.ts';
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
    if (!endpoint.search) throw new RestError('kb_mail_search_unsupported', `${api.label} cannot search its ${path}; leave \`search\` out.`, 400, { provider: p.id });
    query[endpoint.search] = search;
  }
  if (endpoint.paged && api.paging) Object.assign(query, pagingQuery(api, req.page, req.perPage));
  else if (req.page > 1)
    throw new RestError('kb_mail_invalid_page_number', `The page number requested is larger than the number of pages available: ${api.label} answers all its ${path} on the first page.`, 400, { provider: p.id });
  // the caller's own query args win over the mapped paging and search; nothing overrides the key
  const auth = api.auth(key);
  Object.assign(query, extra, auth.query);
  const credentials = [key, ...Object.values(auth.headers ?? {}), ...Object.values(auth.query ?? {})];
  const call = new RemoteService(identityOf(p, api), root, { secrets: credentials, headers: auth.headers });

  const { body, headers } = await call.exchange({ path: endpoint.remote ?? path, query });
  const list = at(body, endpoint.items);
  if ((api.unwrap || endpoint.reshape || endpoint.interestGroups) && !Array.isArray(list))
    throw call.invalidAnswer(path, 'no list where it should hold one');
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
    if (!/^[A-Za-z0-9_.\-[\]]+$/.test(name)) throw invalidParam('queryargs', `queryargs[${i}] must be a key=value pair, such as count=100.`);
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
  return new RestError('kb_mail_not_configured', message, 400, { provider: p.id, missing: what });
}

/** Where the provider's API is: the stored base URL (with the API path the account address lacks) or the provider's own. */
function apiRoot(p: Provider, api: ProviderApi, stored: string, key: string): string {
  let root = (stored || api.defaultBaseUrl || '').replace(/\/+$/, '');
  if (!root) throw notConfigured(p, 'base URL', api.baseUrlHint);
  const keyProblem = p.keyProblem?.(key, root);
  if (keyProblem) throw new RestError('kb_mail_invalid_key', keyProblem, 400, { provider: p.id });
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
    throw new RestError('rest_invalid_endpoint', message, 400, { provider: p.id, endpoints: api.endpoints.map((e) => e.name) });
  }
  return { endpoint, path, trailingSlash: written.endsWith('/') };
}

function pagingQuery(api: ProviderApi, page: number, perPage: number): Query {
  const paging = api.paging!;
  return 'page' in paging ? { [paging.size]: String(perPage), [paging.page]: String(page) } : { [paging.size]: String(perPage), [paging.offset]: String((page - 1) * perPage) };
}

/** Mailchimp's interest groups: every interest of every category, titled "Category - Interest" (the real connector asks for 100 of each). */
async function interestGroups(call: RemoteService, categoriesPath: string, categories: unknown[]): Promise<{ id: unknown; title: string }[]> {
  const groups: { id: unknown; title: string }[] = [];
  for (const category of categories) {
    const body = await call.json({ path: `${categoriesPath}/${encodeURIComponent(String(at(category, 'id')))}/interests`, query: { count: '100' } });
    const interests = at(body, 'interests');
    if (!Array.isArray(interests)) continue;
    for (const interest of interests) groups.push({ id: at(interest, 'id'), title: `${String(at(category, 'title'))} - ${String(at(interest, 'name'))}` });
  }
  return groups;
}

/** Who a provider is to the shared remote-service client: its failures are `kb_mail_provider_*` errors that say how to fix the key or base URL. */
function identityOf(p: Provider, api: ProviderApi): ServiceIdentity {
  return {
    name: api.label,
    codes: 'kb_mail_provider',
    data: { provider: p.id },
    credentials: `the ${p.keyName}`,
    fix: {
      credentials: `Check the key${p.key === 'request' ? ' passed in `apikey` or' : ''} stored with \`cms-spec connector set ${p.id}\`.`,
      baseUrl: `Set it again with \`cms-spec connector set ${p.id} --base-url …\`.`,
    },
    resetHeader: api.resetHeader,
  };
}
