import type { Ctx } from '../../../core/context.ts';
import { bustSubscriptionCache as bust, setConsent, startFreeSparks, storeCallbackTokens, suggestions, usage } from '../integrations/ai.ts';

/** AI suggestions (Yoast's ai_generator/* and ai/free_sparks); the protocols are in integrations/ai.ts. */

/** POST ai_generator/callback and refresh_callback {access_jwt, refresh_jwt, code_challenge, user_id}: the AI service hands over a user's tokens. */
export const callback = (ctx: Ctx<'seo:ai.callback'>) => storeCallbackTokens(ctx);

/** POST ai_generator/consent {consent}: Yoast's plain-string answer. */
export const consent = (ctx: Ctx<'seo:ai.consent'>) => setConsent(ctx, ctx.args.consent === true);

export const freeSparks = (ctx: Ctx<'seo:ai.freeSparks'>) => startFreeSparks(ctx);

export const bustSubscriptionCache = (ctx: Ctx<'seo:ai.bustSubscriptionCache'>) => bust(ctx);

/** POST ai_generator/get_suggestions: a list of suggestion strings. */
export const getSuggestions = (ctx: Ctx<'seo:ai.getSuggestions'>) =>
  suggestions(ctx, {
    type: String(ctx.args.type),
    promptContent: String(ctx.args.prompt_content),
    focusKeyphrase: String(ctx.args.focus_keyphrase),
    language: String(ctx.args.language),
    platform: String(ctx.args.platform),
    editor: String(ctx.args.editor),
  });

export const getUsage = (ctx: Ctx<'seo:ai.getUsage'>) => usage(ctx, ctx.args.is_store_product_entity === true);
