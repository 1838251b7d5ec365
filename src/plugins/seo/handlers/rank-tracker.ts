import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { positiveInteger, text, textList } from '../integrations/args.ts';
import { accountLimit, authenticate as exchange, authorizationUrl as urlToSignIn, track, tracked, untrack, upgradeCampaign as campaign } from '../integrations/rank-tracker.ts';

/** Rank tracking (Yoast's wincher/* routes); the client is integrations/rank-tracker.ts. */

/** GET rank-tracker/authorization-url: `{url, status}`. */
export const authorizationUrl = (ctx: Ctx<'seo:rank-tracker.authorizationUrl'>) => urlToSignIn(ctx);

/** POST rank-tracker/authenticate {code, websiteId}: `{tokens: {expires, has_expired, created_at}, status}`. */
export const authenticate = (ctx: Ctx<'seo:rank-tracker.authenticate'>) => exchange(ctx, text(ctx.args.code, 'code', 2048), positiveInteger(ctx.args.websiteId, 'websiteId'));

/** POST rank-tracker/keyphrases/track {keyphrases}: `{results: {keyword: {id, keyword}}, status}`. */
export const trackKeyphrases = (ctx: Ctx<'seo:rank-tracker.trackKeyphrases'>) => track(ctx, textList(ctx.args.keyphrases, 'keyphrases'));

/** POST rank-tracker/keyphrases {keyphrases?, permalink?, startAt?}: `{results: {keyword: {...}}, status}`. */
export function trackedKeyphrases(ctx: Ctx<'seo:rank-tracker.trackedKeyphrases'>) {
  const { keyphrases, permalink, startAt } = ctx.args;
  if (startAt !== undefined && (typeof startAt !== 'string' || Number.isNaN(Date.parse(startAt)))) throw invalidParam('startAt', 'startAt must be a date (ISO 8601).');
  return tracked(ctx, keyphrases === undefined ? undefined : textList(keyphrases, 'keyphrases', 1000), permalink === undefined ? undefined : text(permalink, 'permalink', 2048), startAt);
}

/** DELETE rank-tracker/keyphrases/untrack: reads `keyphraseID` as the plugin does (the interface declares no argument). */
export const untrackKeyphrase = (ctx: Ctx<'seo:rank-tracker.untrackKeyphrase'>) => untrack(ctx, positiveInteger(ctx.args.keyphraseID, 'keyphraseID'));

/** GET rank-tracker/account/limit: `{canTrack, limit, usage, historyDays, status}`. */
export const limit = (ctx: Ctx<'seo:rank-tracker.limit'>) => accountLimit(ctx);

/** GET rank-tracker/account/upgrade-campaign: `{discount, months, status}`. */
export const upgradeCampaign = (ctx: Ctx<'seo:rank-tracker.upgradeCampaign'>) => campaign(ctx);
