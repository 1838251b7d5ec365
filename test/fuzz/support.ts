import { constants as zlibConstants, gunzipSync } from 'node:zlib';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import type { TestServer } from '../helpers/server.ts';

/** What the fuzz reads from the live index for one route. */
export interface IndexedRoute {
  /** The route key, e.g. `/cms/v2/posts/(?P<id>[\d]+)`. */
  key: string;
  endpoints: { methods: string[]; args: Record<string, ArgInfo> }[];
}

export interface ArgInfo {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  required?: boolean;
  items?: ArgInfo;
  properties?: Record<string, ArgInfo>;
  format?: string;
}

/** Every route of the live index (GET /), as a client discovers them. */
export async function indexedRoutes(server: TestServer): Promise<IndexedRoute[]> {
  const index = (await (await server.call('')).json()) as { routes: Record<string, { endpoints: IndexedRoute['endpoints'] }> };
  return Object.entries(index.routes).map(([key, r]) => ({ key, endpoints: r.endpoints }));
}

/** Known good values for path variables, by name, then by the collection the variable sits under. */
export interface PathValues {
  byName: Record<string, string>;
  /** `/cms/v2/posts` → the id of an existing post. */
  byCollection: Record<string, string>;
}

// a variable's regex may nest groups two deep (templates' `(?P<id>([^\/:…]+(?:\/[^\/:…]+)?)[\/\w-]+)`)
const PATH_VARIABLE = /\(\?P<(\w+)>((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)/g;

/** Whether a path variable's pattern takes the whole value (a variable spanning two segments, block-renderer's `namespace/name`, takes no 'x'). */
function takes(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    return true;
  }
}

/** What a path variable gets where no value is known, the first its regex takes: a word, a UUID (an import's id), two segments. */
const PLACEHOLDERS = ['x', '00000000-0000-4000-8000-000000000000', 'x/x'];

/** The route key with each `(?P<name>regex)` filled: a known value where there is one, else one the regex takes. */
export function fillPath(key: string, values: PathValues, override?: string): string {
  return key.replace(PATH_VARIABLE, (_m, name: string, pattern: string, offset: number) => {
    if (override !== undefined) return override;
    const collection = key.slice(0, offset).replace(/\/$/, '');
    if (values.byName[name] !== undefined) return values.byName[name];
    if (pattern.includes('\\d') && values.byCollection[collection] !== undefined) return values.byCollection[collection];
    return pattern.includes('\\d') ? '1' : (PLACEHOLDERS.find((value) => takes(pattern, value)) ?? 'x/x');
  });
}

/** A value sent raw in the query string, past any encoding (bad UTF-8 percent escapes). */
export class RawQuery {
  constructor(readonly text: string) {}
}

const protoKey = JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>;

/** Values no route expects: wrong types, extreme numbers, huge and strange strings, nesting, prototype keys, metacharacters. */
export const HOSTILE_VALUES: unknown[] = [
  '',
  'a'.repeat(200_000),
  '<'.repeat(200_000),
  '\u0000',
  'nul\u0000inside',
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  2 ** 63,
  '9'.repeat(400),
  'NaN',
  'Infinity',
  true,
  null,
  [],
  ['a', { b: 'c' }],
  [[[['deep']]]],
  {},
  { a: { b: { c: { d: 'e' } } } },
  protoKey,
  { constructor: { prototype: { polluted: 'yes' } } },
  "' OR '1'='1' --",
  '1); DROP TABLE posts; --',
  '%_*\\',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  'http://[zz/',
  'javascript:alert(1)',
  '\ud800 lone surrogate',
  '😀'.repeat(2000),
  new RawQuery('%FF%FE'),
  new RawQuery('%C3%28'),
  new RawQuery('%'),
];

/**
 * Numbers as a `number` or `integer` arg may be sent them: past what a double holds exactly or at
 * all, and the spellings of NaN and infinity that PHP, JSON and JavaScript each read differently.
 */
export const HOSTILE_NUMBERS: unknown[] = [
  1e300,
  -1e300,
  5e-324,
  '1e300',
  '-1e300',
  '1e309',
  '9007199254740993',
  'NaN',
  'nan',
  '-NaN',
  'Infinity',
  '-Infinity',
  'inf',
  '0x1F',
  '1_000',
  ' 7 ',
  '7abc',
  '+-1',
];

/** A loopback address the outbound guard refuses before any connection, so markup naming it stays off the network. */
const NOWHERE = 'http://127.0.0.1:9';

/**
 * HTML and block markup no route expects in a content field: URLs with malformed percent-encoding
 * (in an image, a link, a background, a block's JSON, text), block attributes holding huge,
 * negative and NaN numbers; then broken block JSON, shortcodes with such numbers, and nesting
 * thousands deep. Each markup arg gets one of each half.
 */
export const HOSTILE_MARKUP_URLS: string[] = [
  `<img src="${NOWHERE}/%E0%A4%A.jpg"><a href="%E0%A4%A">x</a><a href="${NOWHERE}/%">y</a>`,
  `<!-- wp:image {"id":1e300,"width":-1e300,"height":"NaN","sizeSlug":"%E0"} --><figure class="wp-block-image"><img src="${NOWHERE}/%C3%28.png" class="wp-image-1e300"/></figure><!-- /wp:image -->`,
  `<!-- wp:cover {"url":"${NOWHERE}/%E0%A4%A.webp","id":-1,"dimRatio":1e308,"focalPoint":{"x":"NaN","y":1e300}} --><div class="wp-block-cover" style="background-image:url(${NOWHERE}/%FF.jpg)"></div><!-- /wp:cover -->`,
  `<!-- wp:kadence/rowlayout {"bgImg":"${NOWHERE.replace(/\//g, '\\/')}\\/%E0%A4%A.jpg","columns":1e300} --><div>${NOWHERE}/%E0%A4%A.avif</div><!-- /wp:kadence/rowlayout -->`,
];

export const HOSTILE_MARKUP_SHAPES: string[] = [
  '<!-- wp:paragraph {"a": --><p>broken block JSON</p><!-- /wp:paragraph --><!-- wp:x/y {"z":[[[[[[[[1]]]]]]]]} /-->',
  `${'<!-- wp:group -->'.repeat(2000)}<p>deep</p>${'<!-- /wp:group -->'.repeat(2000)}`,
  `${'<div>'.repeat(20000)}deep${'</div>'.repeat(20000)}`,
  `[gallery ids="1e300,-1,NaN"][embed]${NOWHERE}/%E0[/embed][caption width="1e300"]x[/caption]`,
];

/** Args that carry HTML or block markup, by name (WordPress's content, excerpt, caption...; the plugins' html, markup, pattern...). */
export const MARKUP_ARG = /content|html|markup|excerpt|caption|description|body|pattern|template|text|message|css|code/i;

/** A value the arg's own description accepts. */
export function validValue(arg: ArgInfo): unknown {
  if (arg.enum?.length) return arg.enum[0];
  if (arg.default !== undefined && arg.default !== null) return arg.default;
  const type = Array.isArray(arg.type) ? arg.type.find((t) => t !== 'null') : arg.type;
  switch (type) {
    case 'integer':
    case 'int':
    case 'number':
      return 1;
    case 'boolean':
    case 'bool':
      return true;
    case 'array':
      return arg.items ? [validValue(arg.items)] : [];
    case 'object':
      // its required properties, each with a valid value of its own
      return Object.fromEntries(Object.entries(arg.properties ?? {}).filter(([, p]) => p.required).map(([name, p]) => [name, validValue(p)]));
    default:
      if (arg.format === 'date-time') return '2020-01-01T10:00:00';
      if (arg.format === 'uuid') return '8f14e45f-ceea-467e-a6c3-6e9b1f2f8c3d';
      if (arg.format === 'email') return 'fuzz@example.test';
      // loopback: the outbound guard refuses it before any DNS lookup or connection, so the fuzz stays off the network
      if (arg.format === 'uri') return 'http://127.0.0.1:9/fuzz';
      return 'fuzz';
  }
}

/** Percent-encoding of text that may hold a lone surrogate (sent as the bytes of U+FFFD, as a browser would). */
const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
const encodeKey = (key: string) => encode(key).replace(/%5B/g, '[').replace(/%5D/g, ']');

/** PHP-style query string: lists as `k[]=`, objects as `k[x]=`, raw values unencoded. */
export function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, v: unknown) => {
    if (v instanceof RawQuery) parts.push(`${encodeKey(key)}=${v.text}`);
    else if (Array.isArray(v)) v.length ? v.forEach((x) => add(`${key}[]`, x)) : parts.push(`${encodeKey(key)}=`);
    else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) add(`${key}[${k}]`, (v as Record<string, unknown>)[k]);
    else parts.push(`${encodeKey(key)}=${encode(v === null ? '' : String(v))}`);
  };
  for (const [k, v] of Object.entries(params)) add(k, v);
  return parts.join('&');
}

/** A JSON body: RawQuery values become their text, as a client would send the string. */
export function jsonBody(params: Record<string, unknown>): string {
  return JSON.stringify(params, (_k, v) => (v instanceof RawQuery ? v.text : v));
}

/** Bodies no route expects, each with its content type. */
export const HOSTILE_BODIES: { name: string; type?: string; body: string | Buffer }[] = [
  { name: 'malformed JSON', type: 'application/json', body: '{"title": "x",' },
  { name: 'JSON that is a string', type: 'application/json', body: '"just a string"' },
  { name: 'JSON that is a list', type: 'application/json', body: '[1, {"a": 2}]' },
  { name: 'JSON null', type: 'application/json', body: 'null' },
  { name: 'JSON nested 100,000 deep', type: 'application/json', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
  { name: 'an arg nested 5,000 deep', type: 'application/json', body: `{"title": ${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}, "name": ${'['.repeat(5000)}${']'.repeat(5000)}}` },
  { name: 'JSON with bad UTF-8', type: 'application/json', body: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]) },
  { name: 'JSON with __proto__', type: 'application/json', body: '{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}' },
  { name: 'JSON as text/plain', type: 'text/plain', body: '{"title": "x"}' },
  { name: 'XML', type: 'application/xml', body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b SYSTEM "file:///etc/passwd">]><a>&b;</a>' },
  { name: 'multipart junk', type: 'multipart/form-data; boundary=zz', body: '--zz\r\nContent-Disposition: form-data; name="title"\r\n\r\nx\r\n--zz' },
  { name: 'form with bad escapes and prototype keys', type: 'application/x-www-form-urlencoded', body: 'title=%FF%FE&name=%&__proto__[polluted]=yes&constructor[prototype][polluted]=yes&a[b]=1&a=2' },
  { name: 'form nested 64 deep', type: 'application/x-www-form-urlencoded', body: `title${'[a]'.repeat(64)}=1` },
  { name: 'no content type', body: 'title=x&content=y' },
];

const b64 = (s: string) => Buffer.from(s).toString('base64url');
/** The site's own cookies: the login session, the password reset, the comment form's nonce and its remembered commenter. */
const COOKIES = ['cms_auth_session', 'cms_resetpass', 'cms_comment_nonce', 'cms_commenter'];
const everyCookie = (value: string) => COOKIES.map((c) => `${c}=${value}`).join('; ');

export interface HeaderSet {
  name: string;
  headers: Record<string, string>;
}

/**
 * Cookies no page expects (values are bytes, as HTTP carries them: Latin-1 stands for bad UTF-8):
 * malformed percent-encoding, each cookie in the shape it is parsed by with numbers and parts that
 * do not fit, prototype keys in signed JSON, no `=` at all, huge values.
 */
export const HOSTILE_COOKIES: HeaderSet[] = [
  { name: 'cookies with malformed percent-encoding', headers: { cookie: everyCookie('%E0%A4%A') } },
  { name: 'cookies of a lone %', headers: { cookie: everyCookie('%') } },
  { name: 'cookies of Latin-1 bytes', headers: { cookie: everyCookie('\xff\xfe\xe0') } },
  {
    name: 'cookies in their shapes with numbers out of range',
    headers: { cookie: `cms_auth_session=${'a'.repeat(16)}.999999999999999.1e300.${'b'.repeat(43)}; cms_resetpass=admin:%E0; cms_comment_nonce=.; cms_commenter=${b64('{"name":1e300,"email":null,"url":"%E0"}')}.x` },
  },
  { name: 'cookies holding prototype keys', headers: { cookie: `cms_commenter=${b64('{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}')}.sig; cms_auth_session=__proto__; cms_resetpass=__proto__:constructor` } },
  { name: 'cookies without values or names', headers: { cookie: 'cms_auth_session; =; ;;; cms_resetpass=; =cms_commenter' } },
  { name: 'a 6 KB cookie', headers: { cookie: everyCookie('9'.repeat(1500)) } },
];

/** Headers no page expects: quality values of NaN and 1e300, dates and ranges no one can read, credentials and addresses that are not. */
export const HOSTILE_HEADERS: HeaderSet[] = [
  { name: 'quality values of NaN and 1e300', headers: { 'accept-encoding': 'br;q=NaN, gzip;q=1e300, deflate;q=-1, *;q=x', accept: 'text/html;q=1e300, */*;q=NaN, text/%E0', 'accept-language': '%E0;q=NaN, *;q=1e300' } },
  { name: 'validators no one can read', headers: { 'if-none-match': 'W/, "\xff", *, "', 'if-modified-since': 'Thu, 99 Foo 1e300 99:99:99 GMT', 'if-unmodified-since': 'NaN', 'if-range': '"x' } },
  { name: 'ranges out of range', headers: { range: 'bytes=1e300-, -0, 5-2, -9999999999999999999999' } },
  { name: 'credentials that are not credentials', headers: { authorization: 'Basic %%%', 'x-wp-nonce': '%E0%A4%A' } },
  { name: 'a huge bearer token', headers: { authorization: `Bearer ${'a'.repeat(6000)}` } },
  { name: 'addresses that are not addresses', headers: { origin: 'http://[zz', referer: 'http://%E0%A4%A/', 'x-forwarded-for': '1e300, ::ffff:999.1.1.1, %E0', forwarded: 'for=%E0;proto=%;host=[', 'x-forwarded-proto': '%E0', 'x-forwarded-host': '[' } },
  { name: 'overrides and ids that are not tokens', headers: { 'x-http-method-override': '%E0', 'x-request-id': '%E0\xff', 'user-agent': '\xff\xfe%E0', 'content-type': 'multipart/form-data; boundary=' } },
];

export interface Caller {
  name: string;
  auth?: string;
}

export interface FuzzRequest {
  label: string;
  method: string;
  /** Path and query under the API root. */
  path: string;
  body?: string | Buffer;
  type?: string;
  auth?: string;
  headers?: Record<string, string>;
}

/**
 * The 5xx answers WordPress itself gives: deleting a term without force (WP_REST_Terms_Controller::delete_item),
 * and the block and pattern directories of a site whose requests to WordPress.org are blocked, and so
 * installing a plugin (POST plugins: plugins_api_failed, for a slug the trusted source lacks or with none set).
 */
const WORDPRESS_5XX = new Set(['501 rest_trash_not_supported', '500 plugins_api_failed', '500 http_request_not_executed']);

const errorCode = (text: string) => {
  try {
    return String((JSON.parse(text) as { code?: unknown }).code);
  } catch {
    return '';
  }
};

/**
 * Text only the server's own failures hold: a JavaScript error's name before its message, a stack
 * frame, a source file's path and line, a database driver's words. No answer may carry one.
 */
const LEAK = /\b(?:TypeError|RangeError|ReferenceError|URIError|SyntaxError|EvalError|SqliteError|DatabaseError|AggregateError): |\n\s+at [\w.<>$]+ \(|\((?:file:\/\/)?\/[^()\s]*\.(?:ts|js|mjs|cjs):\d+:\d+\)|Cannot read properties of|is not a function|datatype mismatch|SQLITE_[A-Z]+|node_modules\//;

/** The leaked text in an answer, if any (what matched, with a little around it). */
export function leakIn(text: string): string | null {
  const m = LEAK.exec(text);
  return m ? JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 80)) : null;
}

/** Hang guard per request: generous, as the slowest legitimate answer here takes a fraction of a second. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The headers undici's fetch sends with every request (what the fuzz sent while it used fetch), so
 * that the server sees the same requests: content negotiation and compression included.
 */
const FETCH_HEADERS: Record<string, string> = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'undici', 'accept-encoding': 'gzip, deflate' };

/**
 * The fuzz's own connections, never kept idle for long: a connection the server closes after its
 * 5 s keep-alive while the client picks it for the next request fails that request on the client's
 * side ("fetch failed", the server never saw it), which a loaded machine made happen between the
 * fuzz's set-up and its first requests. Kept 1 s, a connection is dropped well before that; and
 * each run of the fuzz has its own, closed at its end, so that none lies idle between runs (on a
 * loaded machine the 1 s timer itself can come late: every first request of a run was reset).
 *
 * Requests go through undici's `request` rather than `fetch`: fetch's web streams, Request objects
 * and per-request AbortSignal cost the test process more CPU than the server's own answer did.
 * What fetch did besides is done here too: redirects followed, gzip answers decoded,
 * and no answer in 30 s (its headers, or a pause in its body) is a hang.
 */
export const fuzzAgent = () =>
  new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS }).compose(interceptors.redirect({ maxRedirections: 20 }));

/** An answer's text, its gzip coding undone as fetch undid it (leniently: a stream cut short still gives what it holds); the server offers no other coding to a client that accepts gzip and deflate. */
function decoded(body: Buffer, coding: string | string[] | undefined): string {
  return coding === 'gzip' ? gunzipSync(body, { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString() : body.toString();
}

/** The connections of a caller that sends a few requests of its own (not a run of the fuzz). */
const SHARED_AGENT = fuzzAgent();

/**
 * Sends one request and returns what is wrong with the answer, if anything: a 5xx, an error body
 * not in WordPress's shape (`{code, message, data: {status}}` with the HTTP status), or no answer.
 */
export async function problemWith(server: TestServer, r: FuzzRequest, agent: Dispatcher = SHARED_AGENT): Promise<string | null> {
  const headers: Record<string, string> = { ...FETCH_HEADERS, ...r.headers };
  if (r.auth) headers.authorization = r.auth;
  if (r.type) headers['content-type'] = r.type;
  let status: number;
  let text: string;
  try {
    const res = await request(server.api + r.path, { method: r.method as Dispatcher.HttpMethod, headers, body: r.body, dispatcher: agent });
    status = res.statusCode;
    text = decoded(Buffer.from(await res.body.arrayBuffer()), res.headers['content-encoding']);
  } catch (e) {
    const cause = (e as Error).cause as { code?: string; message?: string } | undefined;
    return `${r.label}: no answer (${(e as Error).name}: ${(e as Error).message}${cause ? ` — ${cause.code ?? ''} ${cause.message ?? ''}` : ''})`;
  }
  if (status >= 500 && !WORDPRESS_5XX.has(`${status} ${errorCode(text)}`)) return `${r.label}: ${status} ${text.slice(0, 300)}`;
  const leak = leakIn(text);
  if (leak) return `${r.label}: ${status} leaks internal text (${leak})`;
  if (status < 400) return null;
  let body: { code?: unknown; message?: unknown; data?: { status?: unknown } | null };
  try {
    body = JSON.parse(text);
  } catch {
    return `${r.label}: ${status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof body?.code !== 'string' || typeof body.message !== 'string' || body.data?.status !== status)
    return `${r.label}: ${status} with a body not in WordPress's error shape: ${text.slice(0, 300)}`;
  return null;
}

/** Runs tasks with at most `size` at once, taking the items as they are needed (a generator makes them no sooner); resolves when all are done. */
export async function pool<T>(items: Iterable<T>, size: number, run: (item: T) => Promise<void>): Promise<void> {
  const next = items[Symbol.iterator]();
  const worker = async () => {
    for (let item = next.next(); !item.done; item = next.next()) await run(item.value);
  };
  await Promise.all(Array.from({ length: size }, worker));
}

/**
 * What is stored, as an administrator reads it back through the API: every collection a write route
 * changes. `self` is a caller's own account, which WordPress lets them edit (users/me): of it only
 * what they may not change themselves is compared (login, roles, capabilities).
 */
export async function storedState(server: TestServer, admin: string, variant: string, self?: number): Promise<Record<string, unknown>> {
  const paths = [
    'cms/v2/posts?status=any&context=edit&per_page=100',
    'cms/v2/pages?status=any&context=edit&per_page=100',
    'cms/v2/categories?context=edit&per_page=100&hide_empty=false',
    'cms/v2/tags?context=edit&per_page=100',
    ...(self === undefined
      ? ['cms/v2/users?context=edit&per_page=100']
      : [`cms/v2/users?context=edit&per_page=100&exclude=${self}`, `cms/v2/users/${self}?context=edit&_fields=id,username,roles,capabilities`]),
    'cms/v2/settings',
    'cms/v2/menus?context=edit&per_page=100',
    'cms/v2/menu-items?status=any&context=edit&per_page=100',
    'cms/v2/menu-locations',
    'cms/v2/navigation?status=any&context=edit&per_page=100',
    ...(variant === 'A' ? ['code-snippets/v1/snippets'] : []),
  ];
  const state: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await server.call(path, { auth: admin });
    state[path] = { status: res.status, total: res.headers.get('x-wp-total'), body: await res.json() };
  }
  return state;
}
