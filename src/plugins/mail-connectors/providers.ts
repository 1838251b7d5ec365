/**
 * The seven email-marketing providers behind kb-mail-a/v1 … kb-mail-g/v1, as data: where each
 * one's API is, how it takes its key, which of its read endpoints a caller may name, how it
 * pages, searches and counts, and what it answers. connector.ts does the calling; this file only
 * describes the real APIs (their public documentation, and the Kadence connectors that used them).
 */

export type Query = Record<string, string>;

/** One read endpoint a caller may name in `endpoint`. */
export interface Endpoint {
  /** As the caller writes it; `{id}` stands for one path segment: `lists/{id}/merge-fields`. */
  name: string;
  /** The path at the provider, when it is not the caller's (FluentCRM's `fields`). */
  remote?: string;
  /** Where the list is in the provider's answer: a dotted path, or '' when the answer is the list. */
  items: string;
  /** Whether the provider pages this list; an unpaged one comes whole on the first page. */
  paged: boolean;
  /** The provider's query parameter that `search` becomes; none where the provider cannot search this list. */
  search?: string;
  /** What the connector answers instead of the list as the provider gives it (FluentCRM's field list). */
  reshape?(items: unknown[]): unknown[];
  /**
   * Mailchimp's interest categories asked for with a trailing slash, as the editor asks: each
   * category's interests are fetched too, and the answer is `[{id, title: "Category - Interest"}]`
   * (the real connector's interest-group picker).
   */
  interestGroups?: boolean;
}

/** How an API pages: the size parameter and either a page number or an offset. */
export type Paging = { size: string; page: string } | { size: string; offset: string };

/** One HTTP API of a provider (MailerLite has two, chosen by the key). */
export interface ProviderApi {
  /** The API's name in messages ("MailerLite Classic"). */
  label: string;
  /** The API root used when no base URL is stored; `{dc}` is Mailchimp's data centre, taken from the key. Null: the user must set one. */
  defaultBaseUrl: string | null;
  /** What a user stores as the base URL where there is no default. */
  baseUrlHint?: string;
  /** Appended to a stored base URL that does not end with it (the account or site address users copy). */
  apiPath?: string;
  endpoints: readonly Endpoint[];
  /** The headers and query parameters that carry the key (and nothing else: their values are kept out of every answer). */
  auth(key: string): { headers?: Record<string, string>; query?: Query };
  paging?: Paging;
  /** The size of the whole list when the provider says it (a body field or a header). */
  total?(body: unknown, headers: Record<string, string>): unknown;
  /** A header the provider sends with a 429 that says when to retry, in seconds, besides Retry-After. */
  resetHeader?: string;
  /** Whether the connector answers the list itself rather than the provider's whole answer (as the real connector does). */
  unwrap?: boolean;
}

export interface Provider {
  /** The name the CLI and the options use. */
  id: string;
  title: string;
  namespace: string;
  /**
   * Where the key comes from: `request` — the `apikey` argument (the interface gives these
   * namespaces one), falling back to the stored key; `stored` — only the stored key.
   */
  key: 'request' | 'stored';
  /** Whether its namespace takes `queryargs` (the interface gives them to a, d, e and f); elsewhere any are ignored, as WordPress ignores undeclared args. */
  queryArgs: boolean;
  /** What the key is, for messages and the CLI's help. */
  keyName: string;
  /** A problem with a key's form, said without the key; null when it looks right. */
  keyProblem?(key: string, baseUrl: string): string | null;
  /** The API a key talks to. */
  api(key: string): ProviderApi;
  /** The endpoint `cms-spec connector test` reads. */
  testEndpoint: string;
}

/** The value at a dotted path of a decoded JSON answer ('' is the answer itself). */
export function at(body: unknown, path: string): unknown {
  if (!path) return body;
  let cur = body;
  for (const key of path.split('.')) {
    if (typeof cur !== 'object' || cur === null || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

/** Mailchimp's data centre is the key's suffix after its last `-` (`…-us21`). */
const MAILCHIMP_DC = /-([a-z]+\d+)$/;

/**
 * Mailchimp Marketing API 3.0 (https://mailchimp.com/developer/marketing/api/): Basic auth with
 * any user name and the key, the host named by the key's data centre, `count`/`offset` paging,
 * `total_items` in every list answer, errors as RFC 7807 problem documents.
 */
const mailchimpApi: ProviderApi = {
  label: 'Mailchimp',
  defaultBaseUrl: 'https://{dc}.api.mailchimp.com/3.0',
  endpoints: [
    { name: 'lists', items: 'lists', paged: true },
    { name: 'lists/{id}/merge-fields', items: 'merge_fields', paged: true },
    { name: 'lists/{id}/interest-categories', items: 'categories', paged: true, interestGroups: true },
    { name: 'lists/{id}/interest-categories/{id}/interests', items: 'interests', paged: true },
    { name: 'lists/{id}/segments', items: 'segments', paged: true },
    { name: 'lists/{id}/tag-search', items: 'tags', paged: true, search: 'name' },
  ],
  auth: (key) => ({ headers: { authorization: basic(`user:${key}`) } }),
  paging: { size: 'count', offset: 'offset' },
  total: (body) => at(body, 'total_items'),
};

/**
 * Kit (ConvertKit) API v3 (https://developers.kit.com/v3): the key as `api_key` in the query; the
 * four lists the form connector reads come whole, unpaged. (v3 is what the real connector and
 * its editor read: sequences arrive as `courses`.)
 */
const convertkitApi: ProviderApi = {
  label: 'ConvertKit',
  defaultBaseUrl: 'https://api.convertkit.com/v3',
  endpoints: [
    { name: 'forms', items: 'forms', paged: false },
    { name: 'sequences', items: 'courses', paged: false },
    { name: 'tags', items: 'tags', paged: false },
    { name: 'custom_fields', items: 'custom_fields', paged: false },
  ],
  auth: (key) => ({ query: { api_key: key } }),
};

/** The contact fields every FluentCRM contact has, before the site's custom ones (the real connector's list). */
const FLUENTCRM_FIELDS: readonly { key: string; title: string }[] = [
  { key: 'prefix', title: 'Name Prefix' },
  { key: 'first_name', title: 'First Name' },
  { key: 'last_name', title: 'Last Name' },
  { key: 'full_name', title: 'Full Name' },
  { key: 'timezone', title: 'Timezone' },
  { key: 'address_line_1', title: 'Address Line 1' },
  { key: 'address_line_2', title: 'Address Line 2' },
  { key: 'city', title: 'City' },
  { key: 'state', title: 'State' },
  { key: 'postal_code', title: 'Postal Code' },
  { key: 'country', title: 'Country' },
  { key: 'phone', title: 'Phone' },
  { key: 'source', title: 'Source' },
];

/**
 * FluentCRM's REST API (https://developers.fluentcrm.com/rest-api/), served by the WordPress site
 * FluentCRM runs on: Basic auth with an API user's name and application password, lists whole,
 * tags as a Laravel paginator (`page`/`per_page`, `total`). The real connector called FluentCRM's
 * PHP API in the same WordPress; this server is not that WordPress, so it asks the site over HTTP
 * and answers what the real connector did: the lists, the tags, and the field list.
 */
const fluentcrmApi: ProviderApi = {
  label: 'FluentCRM',
  defaultBaseUrl: null,
  baseUrlHint: 'the address of the WordPress site FluentCRM runs on, e.g. https://crm.example.com',
  apiPath: '/wp-json/fluent-crm/v2',
  endpoints: [
    { name: 'lists', items: 'lists', paged: false, search: 'search' },
    { name: 'tags', items: 'tags.data', paged: true, search: 'search' },
    {
      name: 'fields',
      remote: 'custom-fields/contacts',
      items: 'fields',
      paged: false,
      reshape: (custom) => [
        ...FLUENTCRM_FIELDS,
        ...custom.map((f) => ({ key: String(at(f, 'slug') ?? ''), title: String(at(f, 'label') ?? '') })),
      ],
    },
  ],
  auth: (key) => ({ headers: { authorization: basic(key) } }),
  paging: { size: 'per_page', page: 'page' },
  total: (body) => at(body, 'tags.total'),
  unwrap: true,
};

/**
 * Brevo (formerly Sendinblue) API v3 (https://developers.brevo.com/): the key in the `api-key`
 * header, `limit`/`offset` paging (at most 50 a page for lists, folders and segments), `count`
 * in list answers, `x-sib-ratelimit-reset` on a 429.
 */
const brevoApi: ProviderApi = {
  label: 'Brevo',
  defaultBaseUrl: 'https://api.brevo.com/v3',
  endpoints: [
    { name: 'contacts/lists', items: 'lists', paged: true },
    { name: 'contacts/folders', items: 'folders', paged: true },
    { name: 'contacts/folders/{id}/lists', items: 'lists', paged: true },
    { name: 'contacts/attributes', items: 'attributes', paged: false },
    { name: 'contacts/segments', items: 'segments', paged: true },
  ],
  auth: (key) => ({ headers: { 'api-key': key } }),
  paging: { size: 'limit', offset: 'offset' },
  total: (body) => at(body, 'count'),
  resetHeader: 'x-sib-ratelimit-reset',
};

/**
 * ActiveCampaign API v3 (https://developers.activecampaign.com/reference): the account's own
 * address plus `/api/3`, the key in `Api-Token`, `limit`/`offset` paging, `meta.total`. The
 * connector answers the list itself, as the real (Pro) connector does.
 */
const activecampaignApi: ProviderApi = {
  label: 'ActiveCampaign',
  defaultBaseUrl: null,
  baseUrlHint: "your account's API URL from Settings › Developer, e.g. https://youraccount.api-us1.com",
  apiPath: '/api/3',
  endpoints: [
    { name: 'lists', items: 'lists', paged: true, search: 'filters[name]' },
    { name: 'tags', items: 'tags', paged: true, search: 'search' },
    { name: 'fields', items: 'fields', paged: true },
    { name: 'automations', items: 'automations', paged: true },
  ],
  auth: (key) => ({ headers: { 'api-token': key } }),
  paging: { size: 'limit', offset: 'offset' },
  total: (body) => at(body, 'meta.total'),
  unwrap: true,
};

/**
 * MailerLite's current API (https://developers.mailerlite.com/docs/): Bearer token, `limit`/`page`
 * paging, `filter[...]` searches, `meta.total`, Retry-After on a 429.
 */
const mailerliteApi: ProviderApi = {
  label: 'MailerLite',
  defaultBaseUrl: 'https://connect.mailerlite.com/api',
  endpoints: [
    { name: 'groups', items: 'data', paged: true, search: 'filter[name]' },
    { name: 'fields', items: 'data', paged: true, search: 'filter[keyword]' },
    { name: 'segments', items: 'data', paged: true },
    { name: 'forms/{id}', items: 'data', paged: true, search: 'filter[name]' },
  ],
  auth: (key) => ({ headers: { authorization: `Bearer ${key}` } }),
  paging: { size: 'limit', page: 'page' },
  total: (body) => at(body, 'meta.total'),
};

/** MailerLite Classic's API v2 (https://developers-classic.mailerlite.com/): `X-MailerLite-ApiKey`, `limit`/`offset`. */
const mailerliteClassicApi: ProviderApi = {
  label: 'MailerLite Classic',
  defaultBaseUrl: 'https://api.mailerlite.com/api/v2',
  endpoints: [
    { name: 'groups', items: '', paged: true },
    { name: 'fields', items: '', paged: false },
    { name: 'segments', items: 'data', paged: true },
  ],
  auth: (key) => ({ headers: { 'x-mailerlite-apikey': key } }),
  paging: { size: 'limit', offset: 'offset' },
  total: (body) => at(body, 'meta.pagination.total'),
};

/** MailerLite's new API keys are long JWTs; Classic keys are 32 characters (the real connector's test). */
const MAILERLITE_NEW_KEY_LENGTH = 100;

/**
 * GetResponse API v3 (https://apireference.getresponse.com/): `X-Auth-Token: api-key …`,
 * `page`/`perPage` paging, `query[name]` searches, the total in the `TotalCount` header,
 * `X-RateLimit-Reset` on a 429.
 */
const getresponseApi: ProviderApi = {
  label: 'GetResponse',
  defaultBaseUrl: 'https://api.getresponse.com/v3',
  endpoints: [
    { name: 'campaigns', items: '', paged: true, search: 'query[name]' },
    { name: 'tags', items: '', paged: true, search: 'query[name]' },
    { name: 'custom-fields', items: '', paged: true, search: 'query[name]' },
  ],
  auth: (key) => ({ headers: { 'x-auth-token': `api-key ${key}` } }),
  paging: { size: 'perPage', page: 'page' },
  total: (_body, headers) => headers.totalcount,
  resetHeader: 'x-ratelimit-reset',
};

/** The namespaces in the interface's order; the mapping and why it fits is in spec/namespaces/kb-mail.yaml. */
export const PROVIDERS: readonly Provider[] = [
  {
    id: 'mailchimp',
    title: 'Mailchimp',
    namespace: 'kb-mail-a/v1',
    key: 'request',
    queryArgs: true,
    keyName: 'API key',
    keyProblem: (key, baseUrl) =>
      baseUrl.includes('{dc}') && !MAILCHIMP_DC.test(key) ? 'A Mailchimp API key ends in its data centre, as in …-us21; this one does not.' : null,
    api: () => mailchimpApi,
    testEndpoint: 'lists',
  },
  { id: 'convertkit', title: 'ConvertKit', namespace: 'kb-mail-b/v1', key: 'stored', queryArgs: false, keyName: 'API key', api: () => convertkitApi, testEndpoint: 'forms' },
  {
    id: 'fluentcrm',
    title: 'FluentCRM',
    namespace: 'kb-mail-c/v1',
    key: 'stored',
    queryArgs: false,
    keyName: 'API user and application password',
    keyProblem: (key) => (key.includes(':') ? null : 'A FluentCRM key is the API user name and its application password joined by a colon (USER:PASSWORD).'),
    api: () => fluentcrmApi,
    testEndpoint: 'lists',
  },
  { id: 'brevo', title: 'Brevo', namespace: 'kb-mail-d/v1', key: 'request', queryArgs: true, keyName: 'API key', api: () => brevoApi, testEndpoint: 'contacts/lists' },
  { id: 'activecampaign', title: 'ActiveCampaign', namespace: 'kb-mail-e/v1', key: 'stored', queryArgs: true, keyName: 'API key', api: () => activecampaignApi, testEndpoint: 'lists' },
  {
    id: 'mailerlite',
    title: 'MailerLite',
    namespace: 'kb-mail-f/v1',
    key: 'request',
    queryArgs: true,
    keyName: 'API key',
    api: (key) => (key.length > MAILERLITE_NEW_KEY_LENGTH ? mailerliteApi : mailerliteClassicApi),
    testEndpoint: 'groups',
  },
  { id: 'getresponse', title: 'GetResponse', namespace: 'kb-mail-g/v1', key: 'stored', queryArgs: false, keyName: 'API key', api: () => getresponseApi, testEndpoint: 'campaigns' },
];

/** The data centre a Mailchimp key names, for a base URL with `{dc}`. */
export const mailchimpDataCentre = (key: string): string | undefined => MAILCHIMP_DC.exec(key)?.[1];

const BY_ID = new Map(PROVIDERS.map((p) => [p.id, p]));
const BY_NAMESPACE = new Map(PROVIDERS.map((p) => [p.namespace, p]));

/** A provider by its id or its namespace (`kb-mail-a` or `kb-mail-a/v1`). */
export function providerNamed(name: string): Provider | undefined {
  const n = name.trim().toLowerCase();
  return BY_ID.get(n) ?? BY_NAMESPACE.get(n) ?? BY_NAMESPACE.get(`${n}/v1`);
}
