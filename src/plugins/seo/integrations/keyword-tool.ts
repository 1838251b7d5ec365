import { createHash } from 'node:crypto';
import type { Ctx } from '../../../core/context.ts';
import { keptAnswer } from '../../../net/kept.ts';
import seo from '../plugin.ts';
import { OAuthClient } from './oauth.ts';
import { seoService } from './service-call.ts';
import { requireIntegration, serviceValues } from './services.ts';

/**
 * Keyword research (Yoast's SEMrush integration): the site connects once through OAuth, and the
 * editor asks for keyphrases related to its focus keyphrase in a country's database, each answer
 * kept for a day. The API is SEMrush's (`oauth2/access_token`, `api/v1/keywords/phrase_fullsearch`
 * with the access token in the query) at the base URL of the settings.
 */

const TOKENS_OPTION = 'seo_keyword_tool_tokens';
const COUNTRY_OPTION = 'seo_keyword_tool_country_code';
/** Yoast keeps related keyphrases in a transient for a day (DAY_IN_SECONDS). */
const RELATED_TTL_S = 86_400;
const CACHE_PREFIX = 'related-keyphrases:';
/** What Yoast asks for: the phrase, its volume and trend, the 10 most searched, fewer than 1000 searches excluded. */
const PHRASE_QUERY = { export_columns: 'Ph,Nq,Td', display_limit: '10', display_offset: '0', display_sort: 'nq_desc', display_filter: '+|Nq|Lt|1000' };

async function connection(ctx: Ctx) {
  const values = await serviceValues(ctx.store, 'keyword_tool');
  const call = seoService('keyword_tool', values.seo_keyword_tool_base_url);
  const oauth = new OAuthClient(ctx.store, call, {
    service: 'keyword_tool',
    tokensOption: TOKENS_OPTION,
    clientId: values.seo_keyword_tool_client_id,
    clientSecret: values.seo_keyword_tool_client_secret,
    tokenPath: 'oauth2/access_token',
    redirectUri: values.seo_keyword_tool_redirect_uri,
    connectHow: 'authenticate with POST seo/v1/keyword-tool/authenticate {code}, the code its authorization page gave.',
  });
  return { call, oauth };
}

/** Exchanges the authorization code for the site's tokens. */
export async function authenticate(ctx: Ctx, code: string) {
  const { oauth } = await connection(ctx);
  return { tokens: OAuthClient.publicView(await oauth.exchange(code)), status: 200 };
}

/** Keeps the database (country) the editor chose. */
export async function setCountryCode(ctx: Ctx, countryCode: string) {
  await requireIntegration(ctx.store, 'keyword_tool');
  await ctx.store.options.set(COUNTRY_OPTION, countryCode);
  return { success: true, status: 200 };
}

/** The keyphrases related to one in a country's database: `{column_names, rows}` as the service gives them, from the day's cache when asked before (stale while the service is down). */
export async function relatedKeyphrases(ctx: Ctx, keyphrase: string, countryCode: string) {
  const repo = ctx.store.plugin(seo);
  const key = `${CACHE_PREFIX}${countryCode}:${createHash('sha256').update(keyphrase).digest('hex')}`;
  const { call, oauth } = await connection(ctx);
  const results = await keptAnswer(ctx, repo.remote, key, { seconds: RELATED_TTL_S }, async () => {
    const path = 'api/v1/keywords/phrase_fullsearch';
    const answer = await oauth.request<{ data?: unknown } | null>(call, (token) => ({ path, query: { phrase: keyphrase, database: countryCode, ...PHRASE_QUERY, access_token: token } }));
    if (!answer || typeof answer.data !== 'object' || answer.data === null) throw call.invalidAnswer(path, 'no data');
    return answer.data;
  });
  return { results, status: 200 };
}
