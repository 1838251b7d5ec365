import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../../../core/context.ts';
import seo from '../plugin.ts';
import { OAuthClient } from './oauth.ts';
import { readSealedOption, writeSealedOption } from './sealed.ts';
import { seoService } from './service-call.ts';
import { notConnected, serviceValues } from './services.ts';

/**
 * Rank tracking (Yoast's Wincher integration): the site connects to one website of an account
 * through OAuth with PKCE (authorization-url, then authenticate with the code), then tracks
 * keyphrases and reads their positions. The API is Wincher's (`beta/account`,
 * `beta/websites/{id}/keywords/bulk`, `beta/yoast/{id}`, `beta/websites/{id}/keywords/{keyword}`,
 * `v1/yoast/upgrade-campaign`) at the base URL of the settings; its OAuth server's
 * `connect/authorize` and `connect/token` at the auth base URL (the API's when unset).
 */

const TOKENS_OPTION = 'seo_rank_tracker_tokens';
const WEBSITE_OPTION = 'seo_rank_tracker_website_id';
/** The PKCE verifier of the authorization URL last handed out, sealed, until its code is exchanged. */
const PKCE_OPTION = 'seo_rank_tracker_pkce';
const PKCE_TTL_S = 3600;
const SCOPE = 'profile account websites:read websites:write offline_access';
const CONNECT_HOW = 'open the URL of GET seo/v1/rank-tracker/authorization-url, sign in, then POST seo/v1/rank-tracker/authenticate {code, websiteId}.';

interface Pkce {
  verifier: string;
  created_at: number;
}

interface TrackedKeyword {
  id?: unknown;
  keyword?: unknown;
  [field: string]: unknown;
}

async function connection(ctx: Ctx) {
  const values = await serviceValues(ctx.store, 'rank_tracker');
  const api = seoService('rank_tracker', values.seo_rank_tracker_base_url);
  const auth = seoService('rank_tracker', values.seo_rank_tracker_auth_base_url || values.seo_rank_tracker_base_url);
  const oauth = new OAuthClient(ctx.store, auth, {
    service: 'rank_tracker',
    tokensOption: TOKENS_OPTION,
    clientId: values.seo_rank_tracker_client_id,
    clientSecret: values.seo_rank_tracker_client_secret,
    tokenPath: 'connect/token',
    redirectUri: values.seo_rank_tracker_redirect_uri,
    connectHow: CONNECT_HOW,
  });
  return { values, api, auth, oauth };
}

type Connection = Awaited<ReturnType<typeof connection>>;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Where the user signs in: the OAuth server's authorize URL with a fresh PKCE challenge (S256). */
export async function authorizationUrl(ctx: Ctx) {
  const { values, auth } = await connection(ctx);
  const verifier = randomBytes(32).toString('base64url');
  await writeSealedOption(ctx.store, PKCE_OPTION, { verifier, created_at: Math.floor(Date.now() / 1000) } satisfies Pkce);
  const url = auth.url('connect/authorize', {
    response_type: 'code',
    client_id: values.seo_rank_tracker_client_id,
    scope: SCOPE,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...(values.seo_rank_tracker_redirect_uri ? { redirect_uri: values.seo_rank_tracker_redirect_uri } : {}),
  });
  return { url, status: 200 };
}

/** Exchanges the code of the authorization URL (with its PKCE verifier) and keeps the website it is for. */
export async function authenticate(ctx: Ctx, code: string, websiteId: number) {
  const { oauth } = await connection(ctx);
  const pkce = await readSealedOption<Pkce>(ctx.store, PKCE_OPTION);
  if (!pkce || pkce.created_at + PKCE_TTL_S < Date.now() / 1000)
    throw ctx.fail('wpseo_rank_tracker_no_authorization');
  const tokens = await oauth.exchange(code, { code_verifier: pkce.verifier });
  await ctx.store.options.delete(PKCE_OPTION);
  await ctx.store.options.set(WEBSITE_OPTION, String(websiteId));
  return { tokens: OAuthClient.publicView(tokens), status: 200 };
}

async function websiteId(ctx: Ctx): Promise<string> {
  const id = await ctx.store.options.get(WEBSITE_OPTION);
  if (!id) throw notConnected('rank_tracker', CONNECT_HOW);
  return id;
}

async function limits(c: Connection) {
  const answer = await c.oauth.request<{ limits?: { keywords?: { usage?: number | null; limit?: number | null }; history_days?: number | null } } | null>(c.api, (token) => ({
    path: 'beta/account',
    headers: bearer(token),
  }));
  const usage = answer?.limits?.keywords?.usage ?? 0;
  const limit = answer?.limits?.keywords?.limit ?? null;
  return { canTrack: limit === null || usage < limit, limit, usage, historyDays: answer?.limits?.history_days ?? null };
}

/** How many keyphrases the account may track and tracks now. */
export async function accountLimit(ctx: Ctx) {
  const c = await connection(ctx);
  await websiteId(ctx);
  return { ...(await limits(c)), status: 200 };
}

/** The account's upgrade offer: a rate discount and its months, or nulls when there is none. */
export async function upgradeCampaign(ctx: Ctx) {
  const c = await connection(ctx);
  await websiteId(ctx);
  const offer = await c.oauth.request<{ type?: string; months?: number; value?: number } | null>(c.api, (token) => ({ path: 'v1/yoast/upgrade-campaign', headers: bearer(token) }));
  const shown = offer?.type === 'RATE' && offer.months && offer.value;
  return { discount: shown ? offer.value : null, months: shown ? offer.months : null, status: 200 };
}

/** Keyed by keyword, as the plugin answers its lists. */
function byKeyword(list: TrackedKeyword[]): Record<string, TrackedKeyword> {
  return Object.fromEntries(list.filter((k) => typeof k.keyword === 'string').map((k) => [k.keyword as string, k]));
}

function keywordList(c: Connection, answer: { data?: unknown } | null, path: string): TrackedKeyword[] {
  if (!answer || !Array.isArray(answer.data)) throw c.api.invalidAnswer(path, 'no list of keywords');
  return answer.data.filter((k): k is TrackedKeyword => typeof k === 'object' && k !== null);
}

/** Starts tracking keyphrases, within the account's limit. */
export async function track(ctx: Ctx, keyphrases: string[]) {
  const c = await connection(ctx);
  const id = await websiteId(ctx);
  const account = await limits(c);
  if (!account.canTrack || (account.limit !== null && account.usage + keyphrases.length > account.limit))
    throw ctx.fail('wpseo_rank_tracker_limit_exceeded', { usage: account.usage, limit: String(account.limit), more: keyphrases.length }, {
      limit: account.limit,
      usage: account.usage,
      canTrack: account.canTrack,
    });
  const path = `beta/websites/${id}/keywords/bulk`;
  const answer = await c.oauth.request<{ data?: unknown } | null>(c.api, (token) => ({ method: 'POST', path, json: keyphrases.map((keyword) => ({ keyword, groups: [] })), headers: bearer(token) }));
  const added = keywordList(c, answer, path).map((k) => ({ id: k.id, keyword: k.keyword }));
  return { results: byKeyword(added), status: 200 };
}

/** The tracked keyphrases with their positions: those named, else every focus keyphrase of the site; for one page when `permalink` is given. */
export async function tracked(ctx: Ctx, keyphrases: string[] | undefined, permalink: string | undefined, startAt: string | undefined) {
  const c = await connection(ctx);
  const id = await websiteId(ctx);
  const used = keyphrases ?? (await ctx.store.plugin(seo).focusKeyphrases());
  const path = `beta/yoast/${id}`;
  const answer = await c.oauth.request<{ data?: unknown } | null>(c.api, (token) => ({
    method: 'POST',
    path,
    json: { keywords: used, url: permalink ?? null, start_at: startAt ?? null },
    headers: bearer(token),
  }));
  let list = keywordList(c, answer, path);
  if (used.length) {
    const wanted = new Set(used.map((k) => k.toLowerCase()));
    list = list.filter((k) => typeof k.keyword === 'string' && wanted.has(k.keyword.toLowerCase()));
  }
  return { results: byKeyword(list), status: 200 };
}

/** Stops tracking one keyphrase, by the id tracking gave it. */
export async function untrack(ctx: Ctx, keyphraseId: number) {
  const c = await connection(ctx);
  const id = await websiteId(ctx);
  await c.oauth.request(c.api, (token) => ({ method: 'DELETE', path: `beta/websites/${id}/keywords/${keyphraseId}`, headers: bearer(token) }));
  return { status: 200 };
}
