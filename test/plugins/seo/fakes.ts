import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the SEO plugin's remote services, each speaking the protocol of the real one
 * (an OpenAI-compatible chat-completions API, Yoast's AI token service, SEMrush, Wincher, Search
 * Console's searchAnalytics), checking credentials as it does and failing with its error bodies.
 * Every exchange is recorded, so a test counts what reached a service; `failNext` makes the next
 * matching requests fail as the service would (a 429 with Retry-After, a 500...).
 */

export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Answer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer only after this long (a service that does not answer in time). */
  delayMs?: number;
}

type Route = [method: string, path: RegExp, handle: (x: Exchange, m: RegExpMatchArray) => Answer | Promise<Answer>];

export class FakeService {
  readonly seen: Exchange[] = [];
  url = '';
  private server?: Server;
  private failures: { match: RegExp; answer: Answer }[] = [];

  constructor(private readonly routes: Route[]) {}

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const u = new URL(req.url ?? '/', 'http://fake');
      const x: Exchange = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.seen.push(x);
      let answer: Answer = { status: 404, body: { error: 'not_found', message: `No route ${x.method} ${x.path}` } };
      const failure = this.failures.findIndex((f) => f.match.test(x.path));
      if (failure >= 0) answer = this.failures.splice(failure, 1)[0].answer;
      else
        for (const [method, path, handle] of this.routes) {
          const m = x.path.match(path);
          if (m && method === x.method) {
            answer = await handle(x, m);
            break;
          }
        }
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` requests whose path matches get this answer instead. */
  failNext(match: RegExp, answer: Answer, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push({ match, answer });
  }

  hits(match: RegExp): number {
    return this.seen.filter((x) => match.test(x.path)).length;
  }

  /** Everything any request carried (paths, queries, headers, bodies), to be searched for secrets. */
  everything(): string {
    return this.seen.map((x) => `${x.method} ${x.path}?${x.query} ${JSON.stringify(x.headers)} ${x.body}`).join('\n');
  }
}

const json = (x: Exchange): any => {
  try {
    return JSON.parse(x.body);
  } catch {
    return {};
  }
};
const form = (x: Exchange) => new URLSearchParams(x.body);
const bearer = (x: Exchange) => /^Bearer (.+)$/.exec(String(x.headers.authorization ?? ''))?.[1] ?? '';
const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A JWT as the AI service issues them (unsigned here: the site reads only `exp`). */
export const jwt = (claims: Record<string, unknown>) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}.${randomBytes(8).toString('base64url')}`;

// --- an OpenAI-compatible chat-completions API (a provider, a gateway or a local model server) ---

export const CHAT_KEY = 'sk-test-4f9a8b7c6d5e4f3a';

/** POST /v1/chat/completions with `Authorization: Bearer <key>`; answers five titles built from the request, as JSON in the message. */
export function chatCompletionsApi(): FakeService {
  return new FakeService([
    [
      'POST',
      /^\/v1\/chat\/completions$/,
      (x) => {
        if (bearer(x) !== CHAT_KEY) return { status: 401, body: { error: { message: `Incorrect API key provided: ${bearer(x)}.`, type: 'invalid_request_error', code: 'invalid_api_key' } } };
        const req = json(x);
        const keyphrase = /focus keyphrase "([^"]+)"/.exec(req.messages?.[0]?.content ?? '')?.[1] ?? 'page';
        const content = JSON.stringify([1, 2, 3, 4, 5].map((i) => `${keyphrase[0].toUpperCase()}${keyphrase.slice(1)} guide, part ${i}`));
        return {
          body: {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            model: req.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
          },
        };
      },
    ],
  ]);
}

// --- Yoast's AI service: per-user tokens handed over through the site's callbacks ---

export interface TokenServiceState {
  /** Seconds an access token lives (negative: issued already expired). */
  accessLifetime: number;
  /** Send a wrong code_challenge to the callback (someone else's request). */
  corruptChallenge: boolean;
  /** Take expired access tokens still (a token that expires between two of the site's requests). */
  acceptExpired: boolean;
  /** What the site's callbacks answered, in order. */
  callbacks: { status: number; body: any }[];
  /** Tokens issued and not invalidated. */
  valid: Set<string>;
  refreshTokens: Set<string>;
}

/**
 * token/request and token/refresh call the site back (callback_url / refresh_callback_url) with new
 * tokens and the challenge, and accept only if the site answers the code verifier whose SHA-256
 * is that challenge; openai/suggestions/{type} and usage/{month} need a live access token.
 */
export function aiTokenService(): FakeService & { state: TokenServiceState } {
  const state: TokenServiceState = { accessLifetime: 3600, corruptChallenge: false, acceptExpired: false, callbacks: [], valid: new Set(), refreshTokens: new Set() };
  const callbackUrls = new Map<string, { callback: string; refresh: string }>();

  async function handOver(url: string, userId: string, challenge: string): Promise<Answer> {
    const access = jwt({ sub: userId, exp: Math.floor(Date.now() / 1000) + state.accessLifetime });
    const refresh = jwt({ sub: userId, exp: Math.floor(Date.now() / 1000) + 86400, typ: 'refresh' });
    const sent = state.corruptChallenge ? sha256Hex('someone else') : challenge;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_jwt: access, refresh_jwt: refresh, code_challenge: sent, user_id: Number(userId) }) });
    const body = await res.json();
    state.callbacks.push({ status: res.status, body });
    if (res.status !== 200 || sha256Hex(String(body.code_verifier)) !== challenge) return { status: 401, body: { message: 'The site could not be verified.', error_code: 'CALLBACK_VERIFICATION_FAILED' } };
    state.valid.add(access);
    state.refreshTokens.add(refresh);
    return { body: {} };
  }

  const live = (token: string) => {
    if (!state.valid.has(token)) return false;
    const exp = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).exp as number;
    return state.acceptExpired || exp > Date.now() / 1000;
  };

  const service = new FakeService([
    [
      'POST',
      /^\/token\/request$/,
      (x) => {
        const b = json(x);
        callbackUrls.set(String(b.user_id), { callback: b.callback_url, refresh: b.refresh_callback_url });
        return handOver(b.callback_url, String(b.user_id), b.code_challenge);
      },
    ],
    [
      'POST',
      /^\/token\/refresh$/,
      (x) => {
        const refresh = bearer(x);
        if (!state.refreshTokens.has(refresh)) return { status: 401, body: { message: 'Invalid refresh token.', error_code: 'INVALID_TOKEN' } };
        state.refreshTokens.delete(refresh);
        const userId = String(JSON.parse(Buffer.from(refresh.split('.')[1], 'base64url').toString()).sub);
        return handOver(callbackUrls.get(userId)!.refresh, userId, json(x).code_challenge);
      },
    ],
    [
      'POST',
      /^\/token\/invalidate$/,
      (x) => {
        state.valid.delete(bearer(x));
        return { body: {} };
      },
    ],
    [
      'POST',
      /^\/openai\/suggestions\/([\w-]+)$/,
      (x, m) => {
        if (!live(bearer(x))) return { status: 401, body: { message: 'Unauthorized', error_code: 'UNAUTHORIZED' } };
        const subject = json(x).subject ?? {};
        return { body: { choices: [1, 2, 3, 4, 5].map((i) => ({ text: `${m[1]} about ${subject.focus_keyphrase} #${i}` })) } };
      },
    ],
    [
      'GET',
      /^\/usage\/(\d{4}-\d{2})$/,
      (x, m) => (live(bearer(x)) ? { body: { period: m[1], totalUsed: { license: 12, limit: 100 } } } : { status: 401, body: { message: 'Unauthorized' } }),
    ],
  ]);
  return Object.assign(service, { state });
}

// --- SEMrush: OAuth and the keyword database ---

export const SEMRUSH = { clientId: 'yoast-site', clientSecret: 'semrush-client-secret-0123456789', code: 'semrush-code-5a5a5a5a' };

export interface OAuthServerState {
  /** Seconds issued access tokens live. */
  expiresIn: number;
  /** The tokens the service takes now. */
  access: Set<string>;
  refresh: Set<string>;
  /** Every token it ever issued. */
  issued: string[];
}

function tokenEndpoint(state: OAuthServerState, client: { clientId: string; clientSecret: string }, acceptCode: (f: URLSearchParams) => boolean) {
  return (x: Exchange): Answer => {
    const f = form(x);
    if (f.get('client_id') !== client.clientId || f.get('client_secret') !== client.clientSecret) return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed.' } };
    const grant = f.get('grant_type');
    if (grant === 'authorization_code' && !acceptCode(f)) return { status: 400, body: { error: 'invalid_grant', error_description: 'The authorization code is invalid or expired.' } };
    if (grant === 'refresh_token' && !state.refresh.delete(f.get('refresh_token') ?? ''))
      return { status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token is invalid.' } };
    if (grant !== 'authorization_code' && grant !== 'refresh_token') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const access = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    state.access.add(access);
    state.refresh.add(refresh);
    state.issued.push(access, refresh);
    return { body: { access_token: access, token_type: 'Bearer', expires_in: state.expiresIn, refresh_token: refresh } };
  };
}

/** oauth2/access_token (form-encoded, client credentials in the body) and api/v1/keywords/phrase_fullsearch (access_token in the query). */
export function semrushApi(): FakeService & { state: OAuthServerState } {
  const state: OAuthServerState = { expiresIn: 3600, access: new Set(), refresh: new Set(), issued: [] };
  const service = new FakeService([
    ['POST', /^\/oauth2\/access_token$/, tokenEndpoint(state, SEMRUSH, (f) => f.get('code') === SEMRUSH.code)],
    [
      'GET',
      /^\/api\/v1\/keywords\/phrase_fullsearch$/,
      (x) => {
        if (!state.access.has(x.query.get('access_token') ?? '')) return { status: 401, body: { error: 'invalid_token', error_description: 'The access token provided is invalid.' } };
        const phrase = x.query.get('phrase') ?? '';
        const rows = ['recipe', 'benefits', 'types'].map((w, i) => [`${phrase} ${w}`, String(1000 * (3 - i)), '0.81,0.67,1.00']);
        return { body: { data: { column_names: x.query.get('export_columns')?.split(','), rows }, status: 200 } };
      },
    ],
  ]);
  return Object.assign(service, { state });
}

// --- Wincher: OAuth with PKCE, and the keyword tracking API ---

export const WINCHER = { clientId: 'yoast', clientSecret: 'wincher-client-secret-abcdef012345' };

export interface WincherState extends OAuthServerState {
  limit: number | null;
  keywords: { id: number; keyword: string }[];
  websiteIds: Set<string>;
}

/**
 * connect/authorize stands for the sign-in page: it answers the code for the PKCE challenge it was
 * given; connect/token takes that code only with the verifier whose S256 digest is the challenge.
 */
export function wincherApi(): FakeService & { state: WincherState } {
  const state: WincherState = { expiresIn: 3600, access: new Set(), refresh: new Set(), issued: [], limit: 3, keywords: [], websiteIds: new Set(['4242']) };
  const challenges = new Map<string, string>();
  let nextId = 100;
  const authed = (x: Exchange) => state.access.has(bearer(x));
  const unauthorized: Answer = { status: 401, body: { error: 'unauthorized', message: 'Bearer token is missing or invalid' } };
  const service = new FakeService([
    [
      'GET',
      /^\/connect\/authorize$/,
      (x) => {
        if (x.query.get('client_id') !== WINCHER.clientId || x.query.get('code_challenge_method') !== 'S256') return { status: 400, body: { error: 'invalid_request' } };
        const code = `wincher-code-${randomBytes(6).toString('hex')}`;
        challenges.set(code, x.query.get('code_challenge') ?? '');
        return { body: { code } };
      },
    ],
    [
      'POST',
      /^\/connect\/token$/,
      tokenEndpoint(state, WINCHER, (f) => {
        const challenge = challenges.get(f.get('code') ?? '');
        return challenge !== undefined && createHash('sha256').update(f.get('code_verifier') ?? '').digest('base64url') === challenge && challenges.delete(f.get('code')!);
      }),
    ],
    ['GET', /^\/beta\/account$/, (x) => (authed(x) ? { body: { limits: { keywords: { usage: state.keywords.length, limit: state.limit }, history_days: 31 } } } : unauthorized)],
    [
      'POST',
      /^\/beta\/websites\/(\d+)\/keywords\/bulk$/,
      (x, m) => {
        if (!authed(x)) return unauthorized;
        if (!state.websiteIds.has(m[1])) return { status: 404, body: { message: 'Website not found' } };
        const added = (json(x) as { keyword: string }[]).map((k) => ({ id: nextId++, keyword: k.keyword, groups: [], created_at: '2026-01-01T00:00:00Z' }));
        state.keywords.push(...added.map(({ id, keyword }) => ({ id, keyword })));
        return { status: 201, body: { data: added } };
      },
    ],
    [
      'POST',
      /^\/beta\/yoast\/(\d+)$/,
      (x) => {
        if (!authed(x)) return unauthorized;
        return { body: { data: state.keywords.map((k, i) => ({ id: k.id, keyword: k.keyword, position: { value: i + 3, change: -1 }, updated_at: '2026-01-02T00:00:00Z', request: json(x) })) } };
      },
    ],
    [
      'DELETE',
      /^\/beta\/websites\/(\d+)\/keywords\/(\d+)$/,
      (x, m) => {
        if (!authed(x)) return unauthorized;
        const i = state.keywords.findIndex((k) => k.id === Number(m[2]));
        if (i < 0) return { status: 404, body: { message: 'Keyword not found' } };
        state.keywords.splice(i, 1);
        return { status: 204 };
      },
    ],
    ['GET', /^\/v1\/yoast\/upgrade-campaign$/, (x) => (authed(x) ? { body: { type: 'RATE', months: 3, value: 0.3 } } : unauthorized)],
  ]);
  return Object.assign(service, { state });
}

// --- Search Console's searchAnalytics/query ---

export const SEARCH_CONSOLE_TOKEN = 'ya29.search-console-token-0123456789';

/** POST webmasters/v3/sites/{site}/searchAnalytics/query with a Bearer token: queries, or one row per date of the range. */
export function searchConsoleApi(): FakeService {
  return new FakeService([
    [
      'POST',
      /^\/webmasters\/v3\/sites\/([^/]+)\/searchAnalytics\/query$/,
      (x) => {
        if (bearer(x) !== SEARCH_CONSOLE_TOKEN) return { status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } } };
        const q = json(x);
        if (q.dimensions?.[0] === 'date') {
          const rows = [];
          for (let t = Date.parse(q.startDate); t <= Date.parse(q.endDate); t += 86_400_000) rows.push({ keys: [new Date(t).toISOString().slice(0, 10)], clicks: 2, impressions: 10, ctr: 0.2, position: 4 });
          return { body: { rows, responseAggregationType: 'byProperty' } };
        }
        const queries = ['green tea', 'tea brewing', 'oolong', 'matcha', 'chai', 'rooibos'].map((k, i) => ({ keys: [k], clicks: 60 - i * 10, impressions: 600 - i * 50, ctr: 0.1, position: 1.5 + i }));
        return { body: { rows: queries.slice(0, q.rowLimit), responseAggregationType: 'byProperty' } };
      },
    ],
  ]);
}
