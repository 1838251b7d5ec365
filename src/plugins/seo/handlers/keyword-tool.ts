import type { Ctx } from '../../../core/context.ts';
import { countryCode as countryCodeArg, text } from '../integrations/args.ts';
import { authenticate as exchange, relatedKeyphrases as related, setCountryCode } from '../integrations/keyword-tool.ts';

/** Keyword research (Yoast's semrush/* routes); the client is integrations/keyword-tool.ts. */

/** POST keyword-tool/authenticate {code}: `{tokens: {expires, has_expired, created_at}, status}`. */
export const authenticate = (ctx: Ctx<'seo:keyword-tool.authenticate'>) => exchange(ctx, text(ctx.args.code, 'code', 2048));

/** POST keyword-tool/country_code {country_code}: `{success, status}`. */
export const countryCode = (ctx: Ctx<'seo:keyword-tool.countryCode'>) => setCountryCode(ctx, countryCodeArg(ctx.args.country_code));

/** GET keyword-tool/related_keyphrases?keyphrase=&country_code=: `{results: {column_names, rows}, status}`. */
export const relatedKeyphrases = (ctx: Ctx<'seo:keyword-tool.relatedKeyphrases'>) => related(ctx, text(ctx.args.keyphrase, 'keyphrase').toLowerCase().replace(/\s+/g, ' '), countryCodeArg(ctx.args.country_code));
