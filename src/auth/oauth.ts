import { createHash } from 'node:crypto';
import type { ApiRoot } from '../engine/api-root.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import type { Store } from '../store/index.ts';
import { revokeAppPassword } from './app-passwords.ts';
import { hmac, purposeKey, sameSecret, siteSecret } from './secret.ts';

/** What the authorization server needs of the site (the core's Site has it): its home URL, its authorization page, URLs under it. */
interface Site {
  readonly home: string;
  readonly authPath: string;
  url(path: string): string;
}
/** What it needs of the engine serving it: its store, its site, and its API roots (which a resource indicator must name). */
interface Engine {
  readonly store: Store;
  readonly site: Site;
  readonly roots: readonly ApiRoot[];
}

/**
 * OAuth 2.1 for clients that expect it (MCP clients: the protocol's authorization spec), made of
 * application passwords: dynamic client registration (RFC 7591), the authorization code flow
 * with PKCE S256 whose authorization endpoint is the authorize-application page (the user logs
 * in and approves, which creates an application password), and a token endpoint that exchanges
 * the code for a bearer token standing for that password. Nothing new is stored: a client id, a
 * code and a token are each their content signed with a key of their own, and a token holds
 * only while its application password exists (revoking it revokes the token at once).
 */

/** How long a code may wait for its exchange (RFC 6749 §4.1.2: ten minutes at most). */
const CODE_TTL_S = 600;
/** A client registers at most this many redirect URIs, and a name of at most this many characters. */
const MAX_REDIRECT_URIS = 5;
const MAX_CLIENT_NAME = 200;
const MAX_URI_LENGTH = 2000;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const REFUSED_SCHEMES = new Set(['javascript:', 'data:']);

/**
 * wp_is_authorize_application_redirect_url_valid(): a scheme is required, javascript: and
 * data: are refused, and plain http is accepted only for the local machine (WordPress allows it
 * only in a "local" environment). App-specific schemes (myapp://) stay allowed, as in WordPress.
 * An OAuth client's redirect URIs are held to the same rule.
 */
export function redirectUrlProblem(url: string): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Invalid URL format.';
  }
  if (REFUSED_SCHEMES.has(parsed.protocol)) return 'Invalid URL format.';
  if (parsed.protocol === 'http:' && !LOCAL_HOSTS.has(parsed.hostname)) return 'The URL must be served over a secure connection.';
  return null;
}

interface Keys {
  client: Buffer;
  code: Buffer;
  token: Buffer;
}
const keysOf = new WeakMap<Store, Promise<Keys>>();

function keys(store: Store): Promise<Keys> {
  let k = keysOf.get(store);
  if (!k) {
    k = siteSecret(store).then((secret) => ({ client: purposeKey(secret, 'oauth-client'), code: purposeKey(secret, 'oauth-code'), token: purposeKey(secret, 'oauth-token') }));
    k.catch(() => keysOf.delete(store));
    keysOf.set(store, k);
  }
  return k;
}

/** A value and its MAC: `base64url(JSON).mac`. Readable by anyone, made only with the key. */
const sign = (key: Buffer, value: object): string => {
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${body}.${hmac(key, body)}`;
};

function verified<T>(key: Buffer, signed: string): T | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot < 0) return undefined;
  const body = signed.slice(0, dot);
  if (!sameSecret(signed.slice(dot + 1), hmac(key, body))) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

/** A registered client: its name and redirect URIs, as its id carries them. */
interface Client {
  name: string;
  redirectUris: string[];
}
/** An approved authorization: whose application password, for which client, redirect URI, PKCE challenge and resource, until when. */
interface CodeGrant {
  u: number;
  p: string;
  c: string;
  r: string;
  ch: string;
  res: string | null;
  exp: number;
}
/** What a token stands for: a user's application password. */
interface TokenGrant {
  u: number;
  p: string;
}

const fingerprint = (clientId: string) => createHash('sha256').update(clientId).digest('base64url').slice(0, 22);

/** The authorization server is the site: its home URL, without a trailing slash. */
export const oauthIssuer = (site: Site): string => site.home.replace(/\/+$/, '');

const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** The token and registration endpoints, beside the authorization page (robots.txt already keeps crawlers from all three). */
const tokenPath = (site: Site) => `${site.authPath.replace(/\/+$/, '')}/token`;
const registerPath = (site: Site) => `${site.authPath.replace(/\/+$/, '')}/register`;

/** RFC 8414: what a client needs to know of the authorization server. */
function serverMetadata(site: Site): Record<string, unknown> {
  return {
    issuer: oauthIssuer(site),
    authorization_endpoint: site.url(site.authPath),
    token_endpoint: site.url(tokenPath(site)),
    registration_endpoint: site.url(registerPath(site)),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
  };
}

/** An OAuth answer: JSON that is never cached; the metadata and the endpoints a client calls from any origin allow it (no cookie is ever read). */
const json = (status: number, body: unknown, extra: Record<string, string> = {}): PageResponse => ({
  status,
  headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*', ...extra },
  body: JSON.stringify(body),
});

/** RFC 6749 §5.2's error answer (and RFC 7591 §3.2.2's). */
const oauthError = (status: number, error: string, description: string, extra: Record<string, string> = {}) => json(status, { error, error_description: description }, extra);

/**
 * The authorization server's own pages: its metadata, registration and token endpoints; null for
 * any other path. The authorization endpoint is the authorize-application page (authorize-page.ts).
 */
export async function oauthPage(req: PageRequest, engine: Engine): Promise<PageResponse | null> {
  const { site } = engine;
  const path = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
  const issuerPath = new URL(oauthIssuer(site)).pathname.replace(/\/$/, '');
  if (path === METADATA_PATH + issuerPath) return req.method === 'GET' || req.method === 'HEAD' ? json(200, serverMetadata(site), { 'Cache-Control': 'no-cache' }) : oauthError(405, 'invalid_request', 'Use GET.', { Allow: 'GET, HEAD' });
  if (path === registerPath(site)) return req.method === 'POST' ? register(engine.store, req) : oauthError(405, 'invalid_request', 'Use POST.', { Allow: 'POST' });
  if (path === tokenPath(site)) return req.method === 'POST' ? token(engine, req) : oauthError(405, 'invalid_request', 'Use POST.', { Allow: 'POST' });
  return null;
}

/**
 * RFC 7591: a public client (no secret: PKCE proves it) with its redirect URIs, each held to the
 * authorization page's rule for redirects. Its id carries what it registered, signed.
 */
async function register(store: Store, req: PageRequest): Promise<PageResponse> {
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return oauthError(400, 'invalid_client_metadata', 'The body must be a JSON object.');
  }
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return oauthError(400, 'invalid_client_metadata', 'The body must be a JSON object.');
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS || !uris.every((u) => typeof u === 'string' && u.length <= MAX_URI_LENGTH))
    return oauthError(400, 'invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URLs.`);
  for (const uri of uris as string[]) {
    const problem = redirectUrlProblem(uri) ?? (uri.includes('#') ? 'A redirect URI has no fragment.' : null);
    if (problem) return oauthError(400, 'invalid_redirect_uri', `${uri}: ${problem}`);
  }
  const grants = metadata.grant_types;
  if (grants !== undefined && !(Array.isArray(grants) && grants.includes('authorization_code'))) return oauthError(400, 'invalid_client_metadata', 'grant_types must include authorization_code.');
  const responses = metadata.response_types;
  if (responses !== undefined && !(Array.isArray(responses) && responses.includes('code'))) return oauthError(400, 'invalid_client_metadata', 'response_types must include code.');
  const name = typeof metadata.client_name === 'string' && metadata.client_name.trim() ? metadata.client_name.trim().slice(0, MAX_CLIENT_NAME) : 'MCP client';
  const client: Client = { name, redirectUris: uris as string[] };
  const clientId = sign((await keys(store)).client, client);
  // what the server supports replaces what it does not (RFC 7591 §3.2.1): no secret, the code grant only
  return json(201, {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    client_name: name,
    redirect_uris: client.redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
}

/** Whether a resource indicator (RFC 8707) names something this site's API serves: a URL under one of its API roots. */
const isOwnResource = (engine: Engine, resource: string) => engine.roots.some((root) => resource.startsWith(root.url));

/** An authorization request read from the authorization page's query, checked as RFC 6749 §4.1.2.1 says. */
export interface Authorization {
  clientName: string;
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string;
  resource: string | null;
  /** The request's query as received, kept through the page's login and approval steps. */
  query: Record<string, string>;
}

/**
 * The request, or what to answer instead: a bad client or redirect URI is told to the user on the
 * page (never redirected to, RFC 6749 §4.1.2.1); any other fault goes back to the client as an
 * error on its redirect URI.
 */
export async function readAuthorization(engine: Engine, query: Record<string, unknown>): Promise<{ ok: Authorization } | { problem: string } | { redirect: string }> {
  const q = Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const client = q.client_id ? verified<Client>((await keys(engine.store)).client, q.client_id) : undefined;
  if (!client) return { problem: 'The application is not registered with this site (unknown client_id).' };
  const redirectUri = q.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : '');
  if (!client.redirectUris.includes(redirectUri)) return { problem: 'The redirect_uri is not one the application registered.' };
  const state = q.state ?? null;
  const fail = (error: string, description: string) => ({ redirect: redirectWith(redirectUri, { error, error_description: description, state, iss: oauthIssuer(engine.site) }) });
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (q.code_challenge_method !== 'S256' || !CODE_CHALLENGE.test(q.code_challenge ?? '')) return fail('invalid_request', 'A code_challenge with code_challenge_method=S256 is required (PKCE).');
  if (q.resource !== undefined && !isOwnResource(engine, q.resource)) return fail('invalid_target', 'The resource is not served by this site.');
  return { ok: { clientName: client.name, clientId: q.client_id, redirectUri, state, challenge: q.code_challenge, resource: q.resource ?? null, query: q } };
}

/** The redirect URI with the answer's args added (the URI's own query kept). */
function redirectWith(uri: string, args: Record<string, string | null>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(args)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/** The user approved, and the application password `uuid` was made: back to the client with a code for it. */
export async function approved(engine: Engine, a: Authorization, userId: number, uuid: string): Promise<string> {
  const grant: CodeGrant = { u: userId, p: uuid, c: fingerprint(a.clientId), r: a.redirectUri, ch: a.challenge, res: a.resource, exp: Math.floor(Date.now() / 1000) + CODE_TTL_S };
  return redirectWith(a.redirectUri, { code: sign((await keys(engine.store)).code, grant), state: a.state, iss: oauthIssuer(engine.site) });
}

/** The user said no. */
export const denied = (engine: Engine, a: Authorization): string =>
  redirectWith(a.redirectUri, { error: 'access_denied', error_description: 'The user did not approve the connection.', state: a.state, iss: oauthIssuer(engine.site) });

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * RFC 6749 §4.1.3 with PKCE: the code is checked against its client, redirect URI, verifier and
 * resource, and its application password must still exist and never have been used. The
 * exchange is that password's first use, recorded in the same statement that checks it, so a
 * code works once; a second exchange revokes the password (and so the token it gave, §4.1.2).
 */
async function token(engine: Engine, req: PageRequest): Promise<PageResponse> {
  const { store } = engine;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return oauthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded.');
  const form = new URLSearchParams(req.body.toString('utf8'));
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is required.');
  if (grantType !== 'authorization_code') return oauthError(400, 'unsupported_grant_type', 'Only grant_type=authorization_code is supported.');
  const [code, clientId, redirectUri, verifier] = ['code', 'client_id', 'redirect_uri', 'code_verifier'].map((k) => form.get(k));
  if (!code || !clientId || !redirectUri || !verifier) return oauthError(400, 'invalid_request', 'code, client_id, redirect_uri and code_verifier are required.');
  const k = await keys(store);
  if (!verified<Client>(k.client, clientId)) return oauthError(401, 'invalid_client', 'The client is not registered with this site.');
  if (!CODE_VERIFIER.test(verifier)) return oauthError(400, 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters.');
  const grant = verified<CodeGrant>(k.code, code);
  const invalid = (why: string) => oauthError(400, 'invalid_grant', why);
  if (!grant || grant.exp < Date.now() / 1000) return invalid('The code is invalid or has expired.');
  if (grant.c !== fingerprint(clientId) || grant.r !== redirectUri) return invalid('The code was issued to another client or redirect_uri.');
  if (s256(verifier) !== grant.ch) return invalid('The code_verifier does not match the code_challenge.');
  const resource = form.get('resource');
  if (resource !== null && grant.res !== null && resource !== grant.res) return oauthError(400, 'invalid_target', 'The resource is not the one the code was issued for.');
  if (!(await store.appPasswords.get(grant.u, grant.p))) return invalid('The application password the code stands for was revoked.');
  if (!(await store.appPasswords.recordFirstUse(grant.p, Math.floor(Date.now() / 1000), req.ip))) {
    await revokeAppPassword(store, grant.u, grant.p).catch(() => {});
    return invalid('The code was used already; the token it gave is revoked.');
  }
  const tokenGrant: TokenGrant = { u: grant.u, p: grant.p };
  // no expiry: the token lasts as long as its application password, which the user sees and revokes in their profile
  return json(200, { access_token: sign(k.token, tokenGrant), token_type: 'Bearer' }, { Pragma: 'no-cache' });
}

/** The application password a bearer token stands for, when it is one this site made; whether it still exists is the caller's to check. */
export async function tokenGrant(store: Store, token: string): Promise<TokenGrant | undefined> {
  const grant = verified<TokenGrant>((await keys(store)).token, token);
  return grant && Number.isInteger(grant.u) && typeof grant.p === 'string' ? grant : undefined;
}
