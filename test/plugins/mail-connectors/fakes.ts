import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the seven providers' APIs: each checks the credentials the way the real API
 * takes them, serves only the real paths, pages and searches with the real parameters, and fails
 * with the real error bodies. What a key does is written at its start: `forbidden-…`,
 * `throttled-…`, `broken-…` and `slow-…` get a 403, a 429, a 503 or no answer; `echoing-…` a 401
 * that repeats the key; `valid-…` gets data; anything else (or no key) is refused as the provider
 * refuses a bad key.
 */

export type KeyKind = 'valid' | 'wrong' | 'forbidden' | 'throttled' | 'broken' | 'slow' | 'echoing';

export interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

interface Answer {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

type Route = [RegExp, (q: URLSearchParams, m: RegExpMatchArray, key: string) => Answer];

interface FakeApi {
  /** The key as the real API reads it, or null when it is not sent the way the API wants it. */
  key(req: IncomingMessage, url: URL): string | null;
  /** The provider's own error body for a status (and the headers it sends with a 429). */
  error(status: number): Answer;
  routes: Route[];
}

/** Items named `${prefix} 1` … with ids, for paging to be seen. */
const items = (n: number, prefix: string, shape: (i: number) => Record<string, unknown> = (i) => ({ id: `${prefix.toLowerCase().replace(/\s+/g, '')}${i}`, name: `${prefix} ${i}` })) =>
  Array.from({ length: n }, (_, i) => shape(i + 1));

const int = (q: URLSearchParams, name: string, fallback: number) => (q.has(name) ? Number(q.get(name)) : fallback);
const matching = <T extends Record<string, unknown>>(list: T[], field: string, term: string | null) => (term ? list.filter((x) => String(x[field]).toLowerCase().includes(term.toLowerCase())) : list);
const fromBasic = (req: IncomingMessage) => {
  const m = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
  return m ? Buffer.from(m[1], 'base64').toString() : null;
};

/** Mailchimp Marketing API 3.0 under /{dc}/3.0: Basic auth (any user), count/offset, problem+json errors; the data centre in the path must be the key's. */
const mailchimp: FakeApi = {
  key: (req, url) => {
    const creds = fromBasic(req);
    if (!creds?.includes(':')) return null;
    const key = creds.slice(creds.indexOf(':') + 1);
    // a key sent to another data centre is refused as Mailchimp does
    return url.pathname.startsWith(`/${/-(\w+)$/.exec(key)?.[1]}/3.0/`) ? key : 'wrong-datacentre';
  },
  error: (status): Answer => {
    const titles: Record<number, [string, string]> = {
      401: ['API Key Invalid', "Your API key may be invalid, or you've attempted to access the wrong datacenter."],
      403: ['Forbidden', 'You don’t have permission to access this resource.'],
      429: ['Too Many Requests', 'You have exceeded the limit of 10 simultaneous connections.'],
      503: ['Service Unavailable', 'The server is temporarily unable to handle the request.'],
    };
    const [title, detail] = titles[status] ?? ['Bad Request', 'The request could not be processed.'];
    return { status, body: { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title, status, detail, instance: 'f1e2d3c4' }, headers: { 'content-type': 'application/problem+json' } };
  },
  routes: (() => {
    const lists = items(12, 'List');
    const page = (q: URLSearchParams, list: unknown[]) => list.slice(int(q, 'offset', 0), int(q, 'offset', 0) + int(q, 'count', 10));
    const categories = [
      { id: 'cat1', title: 'Colour' },
      { id: 'cat2', title: 'Size' },
    ];
    const interests: Record<string, unknown[]> = { cat1: [{ id: 'red', name: 'Red' }, { id: 'blue', name: 'Blue' }], cat2: [{ id: 'big', name: 'Big' }] };
    const tags = [{ id: 1, name: 'vip' }, { id: 2, name: 'vip-gold' }, { id: 3, name: 'newsletter' }];
    return [
      [/^\/\w+\/3\.0\/lists$/, (q) => ({ body: { lists: page(q, lists), total_items: lists.length, constraints: { may_create: true } } })],
      [/^\/\w+\/3\.0\/lists\/(\w+)\/merge-fields$/, (q, m) => ({ body: { merge_fields: page(q, [{ tag: 'FNAME', name: 'First Name' }, { tag: 'LNAME', name: 'Last Name' }]), list_id: m[1], total_items: 2 } })],
      [/^\/\w+\/3\.0\/lists\/(\w+)\/interest-categories$/, (q, m) => ({ body: { list_id: m[1], categories: page(q, categories), total_items: categories.length } })],
      [/^\/\w+\/3\.0\/lists\/\w+\/interest-categories\/(\w+)\/interests$/, (q, m) => ({ body: { interests: page(q, interests[m[1]] ?? []), total_items: (interests[m[1]] ?? []).length } })],
      [/^\/\w+\/3\.0\/lists\/\w+\/tag-search$/, (q) => {
        const found = matching(tags, 'name', q.get('name'));
        return { body: { tags: page(q, found), total_items: found.length } };
      }],
    ] as Route[];
  })(),
};

/** Kit (ConvertKit) API v3 under /v3: `api_key` in the query; forms, sequences (as `courses`), tags and custom fields come whole. */
const convertkit: FakeApi = {
  key: (_req, url) => url.searchParams.get('api_key'),
  error: (status): Answer =>
    status === 401
      ? { status, body: { error: 'Authorization Failed', message: 'API Key not valid' } }
      : status === 429
        ? { status, body: { error: 'Too Many Requests', message: 'Rate limit exceeded: 120 requests per 60 seconds' }, headers: { 'retry-after': '60' } }
        : { status, body: { error: status === 403 ? 'Forbidden' : 'Internal Server Error', message: status === 403 ? 'Your account cannot use the API' : 'Something went wrong' } },
  routes: [
    [/^\/v3\/forms$/, () => ({ body: { forms: items(3, 'Form') } })],
    [/^\/v3\/sequences$/, () => ({ body: { courses: items(2, 'Sequence') } })],
    [/^\/v3\/tags$/, () => ({ body: { tags: items(4, 'Tag') } })],
    [/^\/v3\/custom_fields$/, () => ({ body: { custom_fields: [{ id: 1, name: 'ck_field_1_company', key: 'company', label: 'Company' }] } })],
  ],
};

/** FluentCRM's REST API under /wp-json/fluent-crm/v2 of a WordPress site: application passwords over Basic auth, WordPress error bodies. */
const fluentcrm: FakeApi = {
  key: (req) => {
    const creds = fromBasic(req);
    return creds?.startsWith('api-user:') ? creds.slice('api-user:'.length) : null;
  },
  error: (status): Answer => {
    const codes: Record<number, [string, string]> = {
      401: ['incorrect_password', 'The provided password is an invalid application password.'],
      403: ['rest_forbidden', 'Sorry, you are not allowed to do that.'],
      429: ['too_many_requests', 'Too many requests.'],
      503: ['internal_server_error', 'There has been a critical error on this website.'],
    };
    const [code, message] = codes[status] ?? ['rest_invalid_param', 'Invalid parameter(s).'];
    return { status, body: { code, message, data: { status } }, headers: status === 429 ? { 'retry-after': '120' } : {} };
  },
  routes: (() => {
    const lists = items(3, 'List', (i) => ({ id: String(i), title: `List ${i}`, slug: `list-${i}` }));
    const tags = items(25, 'Tag', (i) => ({ id: String(i), title: `Tag ${i}`, slug: `tag-${i}` }));
    return [
      [/^\/wp-json\/fluent-crm\/v2\/lists$/, (q) => ({ body: { lists: matching(lists, 'title', q.get('search')) } })],
      [/^\/wp-json\/fluent-crm\/v2\/tags$/, (q) => {
        const found = matching(tags, 'title', q.get('search'));
        const perPage = int(q, 'per_page', 15);
        const page = int(q, 'page', 1);
        return { body: { tags: { current_page: page, data: found.slice((page - 1) * perPage, page * perPage), per_page: perPage, total: found.length, last_page: Math.ceil(found.length / perPage) } } };
      }],
      [/^\/wp-json\/fluent-crm\/v2\/custom-fields\/contacts$/, () => ({ body: { fields: [{ field_key: 'text', type: 'text', label: 'Company', slug: 'company' }] } })],
    ] as Route[];
  })(),
};

/** Brevo API v3 under /v3: the `api-key` header, limit (at most 50)/offset, `{code, message}` errors, x-sib-ratelimit-reset on a 429. */
const brevo: FakeApi = {
  key: (req) => (typeof req.headers['api-key'] === 'string' ? req.headers['api-key'] : null),
  error: (status): Answer => {
    const codes: Record<number, [string, string]> = {
      401: ['unauthorized', 'Key not found'],
      403: ['permission_denied', 'Unable to access this resource with this API key'],
      429: ['too_many_requests', 'The expected rate limit is exceeded.'],
      503: ['internal_error', 'Internal server error'],
    };
    const [code, message] = codes[status] ?? ['out_of_range', 'Limit exceeds max value'];
    return { status, body: { code, message }, headers: status === 429 ? { 'x-sib-ratelimit-limit': '10', 'x-sib-ratelimit-remaining': '0', 'x-sib-ratelimit-reset': '7' } : {} };
  },
  routes: (() => {
    const lists = items(30, 'List', (i) => ({ id: i, name: `List ${i}`, totalSubscribers: i, folderId: 1 }));
    const page = (q: URLSearchParams, list: unknown[]): Answer | unknown[] => {
      const limit = int(q, 'limit', 10);
      if (limit > 50) return brevo.error(400);
      return list.slice(int(q, 'offset', 0), int(q, 'offset', 0) + limit);
    };
    const listOf = (key: string) => (q: URLSearchParams): Answer => {
      const got = page(q, lists);
      return Array.isArray(got) ? { body: { [key]: got, count: lists.length } } : got;
    };
    return [
      [/^\/v3\/contacts\/lists$/, listOf('lists')],
      [/^\/v3\/contacts\/folders\/\d+\/lists$/, listOf('lists')],
      [/^\/v3\/contacts\/attributes$/, () => ({ body: { attributes: [{ name: 'FIRSTNAME', category: 'normal', type: 'text' }] } })],
    ] as Route[];
  })(),
};

/** ActiveCampaign API v3 under /api/3: the `Api-Token` header, limit/offset, `meta.total` as a string. */
const activecampaign: FakeApi = {
  key: (req) => (typeof req.headers['api-token'] === 'string' ? req.headers['api-token'] : null),
  error: (status): Answer =>
    status === 429
      ? { status, body: { message: 'Too Many Requests' }, headers: { 'retry-after': '1' } }
      : { status, body: status < 500 ? { message: status === 401 ? 'Unauthorized' : 'Forbidden' } : { errors: [{ title: 'The server encountered an error', code: 'internal' }] } },
  routes: (() => {
    const lists = items(12, 'List', (i) => ({ id: String(i), name: `List ${i}`, stringid: `list-${i}` }));
    const tags = items(5, 'Tag', (i) => ({ id: String(i), tag: `tag ${i}`, tagType: 'contact' }));
    const page = (q: URLSearchParams, list: unknown[]) => list.slice(int(q, 'offset', 0), int(q, 'offset', 0) + int(q, 'limit', 20));
    return [
      [/^\/api\/3\/lists$/, (q) => {
        const found = matching(lists, 'name', q.get('filters[name]'));
        return { body: { lists: page(q, found), meta: { total: String(found.length) } } };
      }],
      [/^\/api\/3\/tags$/, (q) => {
        const found = matching(tags, 'tag', q.get('search'));
        return { body: { tags: page(q, found), meta: { total: String(found.length) } } };
      }],
      [/^\/api\/3\/fields$/, (q) => ({ body: { fields: page(q, [{ id: '1', title: 'Company', type: 'text' }]), fieldOptions: [], meta: { total: '1' } } })],
    ] as Route[];
  })(),
};

/**
 * MailerLite under /ml: the new API (Bearer token, limit/page, filter[name], `meta.total`,
 * Retry-After) and Classic's v2 (X-MailerLite-ApiKey, limit/offset, a bare array), told apart by
 * the credentials as the two hosts would be.
 */
const mailerlite: FakeApi = {
  key: (req) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const classic = req.headers['x-mailerlite-apikey'];
    if (bearer) return bearer.length > 100 ? bearer : 'short-bearer-token';
    if (typeof classic === 'string') return classic.length <= 100 ? classic : 'long-classic-key';
    return null;
  },
  error: (status): Answer => {
    const messages: Record<number, string> = { 401: 'Unauthenticated.', 403: 'This action is unauthorized.', 429: 'Too Many Attempts.', 503: 'Service Unavailable' };
    return { status, body: { message: messages[status] ?? 'The given data was invalid.' }, headers: status === 429 ? { 'retry-after': '42', 'x-ratelimit-remaining': '0' } : {} };
  },
  routes: (() => {
    const groups = items(8, 'Group', (i) => ({ id: String(1000 + i), name: `Group ${i}`, active_count: i }));
    return [
      [/^\/ml\/groups$/, (q, _m, key) => {
        if (key.length <= 100) return { body: groups.slice(int(q, 'offset', 0), int(q, 'offset', 0) + int(q, 'limit', 100)) };
        const found = matching(groups, 'name', q.get('filter[name]'));
        const limit = int(q, 'limit', 25);
        const page = int(q, 'page', 1);
        return { body: { data: found.slice((page - 1) * limit, page * limit), links: {}, meta: { current_page: page, per_page: limit, total: found.length, last_page: Math.ceil(found.length / limit) } } };
      }],
    ] as Route[];
  })(),
};

/** GetResponse API v3 under /v3: `X-Auth-Token: api-key …`, page/perPage, query[name], TotalCount headers, its own error body. */
const getresponse: FakeApi = {
  key: (req) => /^api-key (.+)$/.exec(String(req.headers['x-auth-token'] ?? ''))?.[1] ?? null,
  error: (status): Answer => {
    const codes: Record<number, [number, string, string]> = {
      401: [1014, 'Problem during authentication process, check headers!', 'Unable to authenticate request. Check credentials or authentication method details'],
      403: [1018, 'Your IP was blocked', 'Forbidden'],
      429: [1030, 'ThrottlingLimitExceededException', 'You have exceeded the API rate limit'],
      503: [1, 'Internal error', 'Internal server error'],
    };
    const [code, codeDescription, message] = codes[status] ?? [1000, 'General error of validation process', 'Invalid request'];
    return {
      status,
      body: { httpStatus: status, code, codeDescription, message, moreInfo: `https://apireference.getresponse.com/#/errors/${code}`, context: [], uuid: 'c7a1f4e2' },
      headers: status === 429 ? { 'x-ratelimit-limit': '30000', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '25 seconds' } : {},
    };
  },
  routes: (() => {
    const campaigns = items(7, 'Campaign', (i) => ({ campaignId: `c${i}`, name: `Campaign ${i}` }));
    return [
      [/^\/v3\/campaigns$/, (q) => {
        const found = matching(campaigns, 'name', q.get('query[name]'));
        const perPage = int(q, 'perPage', 100);
        const page = int(q, 'page', 1);
        return { body: found.slice((page - 1) * perPage, page * perPage), headers: { TotalCount: String(found.length), TotalPages: String(Math.ceil(found.length / perPage)), CurrentPage: String(page) } };
      }],
    ] as Route[];
  })(),
};

export const FAKE_APIS = { mailchimp, convertkit, fluentcrm, brevo, activecampaign, mailerlite, getresponse } as const;
export type ProviderId = keyof typeof FAKE_APIS;

/** A key of a kind, in the provider's own form (Mailchimp's data centre, MailerLite's two lengths, FluentCRM's user:password). */
export function keyFor(provider: ProviderId, kind: KeyKind, o: { classic?: boolean } = {}): string {
  const secret = `${kind}-${randomBytes(12).toString('hex')}`;
  if (provider === 'mailchimp') return `${secret}-us21`;
  if (provider === 'fluentcrm') return `api-user:${secret}`;
  if (provider === 'mailerlite' && !o.classic) return `${secret}.${'x'.repeat(110)}`;
  return secret;
}

/** One provider's stand-in server; `seen` lists what reached it. */
export class FakeProvider {
  readonly seen: Seen[] = [];
  base = '';
  private server: Server | undefined;

  constructor(private readonly api: FakeApi) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get last(): Seen {
    const s = this.seen.at(-1);
    if (!s) throw new Error('the provider was not reached');
    return s;
  }

  private answer(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.base);
    this.seen.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers });
    const key = this.api.key(req, url) ?? '';
    const send = (a: Answer) => res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers }).end(JSON.stringify(a.body));
    if (req.method !== 'GET') return send(this.api.error(405));
    const kind = key.split('-')[0];
    if (kind === 'slow') return; // never answers
    // a careless provider or gateway that repeats the key it was given
    if (kind === 'echoing') return send({ status: 401, body: { error: 'Authorization Failed', message: `The key ${key} is not valid` } });
    if (kind !== 'valid') return send(this.api.error(({ forbidden: 403, throttled: 429, broken: 503 } as Record<string, number>)[kind] ?? 401));
    for (const [re, handle] of this.api.routes) {
      const m = re.exec(url.pathname);
      if (m) return send(handle(url.searchParams, m, key));
    }
    send(this.api.error(404));
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The base URL each provider's connector is pointed at on its stand-in (as a user points one at a gateway). */
export function baseUrlOf(provider: ProviderId, fake: FakeProvider): string {
  const paths: Record<ProviderId, string> = {
    mailchimp: '/{dc}/3.0',
    convertkit: '/v3',
    fluentcrm: '', // the site's address; the connector adds /wp-json/fluent-crm/v2
    brevo: '/v3',
    activecampaign: '', // the account's address; the connector adds /api/3
    mailerlite: '/ml',
    getresponse: '/v3',
  };
  return fake.base + paths[provider];
}
