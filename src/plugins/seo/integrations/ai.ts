import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Ctx } from '../../../core/context.ts';
import { invalidParam, RestError } from '../../../engine/index.ts';
import { OutboundStatusError } from '../../../net/errors.ts';
import { sameSecret } from '../../../auth/secret.ts';
import { keptAnswer } from '../../../net/kept.ts';
import { parseContent } from '../content.ts';
import seo from '../plugin.ts';
import { readSealedUserMeta, writeSealedUserMeta } from './sealed.ts';
import type { RemoteService, ServiceRequest } from '../../../net/service.ts';
import { seoService } from './service-call.ts';
import { serviceValues } from './services.ts';

/**
 * AI suggestions of titles and descriptions (Yoast's AI generator), through one of two protocols
 * (the option seo_ai_protocol):
 * - `chat-completions` (the default): an OpenAI-compatible chat-completions API at the base URL,
 *   with the API key as a Bearer token, so any compatible provider or a local model server serves;
 *   the prompt is built from the request (ai-prompts.json).
 * - `token-callback`: an AI service in the way of Yoast's, which authorizes each user with a
 *   PKCE-style exchange: the site keeps a code verifier per user and asks for tokens with its
 *   SHA-256 digest; the service calls back (ai_generator/callback) with the tokens and the digest,
 *   which must match, and takes the verifier from the answer as proof. Tokens are kept sealed, an
 *   expired access token is refreshed (refresh_callback) and a refused one renewed, once.
 * Either way a user's consent comes first, usage is counted per month, user and kind (content,
 * store products), and seo_ai_monthly_limit caps the site's requests.
 */

interface Prompts {
  count: number;
  maxContentCharacters: number;
  system: string;
  keyphrase: string;
  answer: string;
  kinds: Record<string, { what: string; lengths: Record<string, number> }>;
  types: Record<string, { kind: string; subject: string }>;
  platforms: Record<string, string>;
}

const PROMPTS = JSON.parse(readFileSync(new URL('./ai-prompts.json', import.meta.url), 'utf8')) as Prompts;

const META = { consent: 'seo_ai_consent', verifier: 'seo_ai_code_verifier', access: 'seo_ai_access_token', refresh: 'seo_ai_refresh_token' } as const;
const FREE_SPARKS_OPTION = 'seo_ai_free_sparks_started_on';
const PROTOCOL_OPTION = 'seo_ai_protocol';
const PROTOCOLS = ['chat-completions', 'token-callback'] as const;
type Protocol = (typeof PROTOCOLS)[number];
/** A code verifier is good for five minutes (Yoast's Code_Verifier_Handler). */
const VERIFIER_TTL_S = 300;
/** The service's usage answers (the "subscription cache" bust_subscription_cache empties) are kept this long. */
const USAGE_TTL_S = 3600;
const USAGE_CACHE_PREFIX = 'ai-usage:';

const now = () => Math.floor(Date.now() / 1000);
const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

interface AiSettings {
  protocol: Protocol;
  call: RemoteService;
  apiKey: string;
  model: string;
  /** Requests per month and kind; 0 for no limit. */
  monthlyLimit: number;
}

async function aiSettings(ctx: Ctx): Promise<AiSettings> {
  const protocol = ((await ctx.store.options.get(PROTOCOL_OPTION)) ?? '').trim() || 'chat-completions';
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw ctx.fail('wpseo_integration_misconfigured', { problem: `The option ${PROTOCOL_OPTION} must be one of ${PROTOCOLS.join(', ')}.` }, { settings: [PROTOCOL_OPTION] });
  const values = await serviceValues(ctx.store, 'ai', protocol === 'token-callback' ? ['seo_ai_api_key'] : []);
  const limit = values.seo_ai_monthly_limit;
  if (!/^\d+$/.test(limit)) throw ctx.fail('wpseo_integration_misconfigured', { problem: 'The option seo_ai_monthly_limit must be a whole number (0 for no limit).' }, { settings: ['seo_ai_monthly_limit'] });
  const apiKey = protocol === 'chat-completions' ? values.seo_ai_api_key : '';
  return { protocol: protocol as Protocol, call: seoService('ai', values.seo_ai_base_url, [apiKey]), apiKey, model: values.seo_ai_model, monthlyLimit: Number(limit) };
}

// --- consent ---

const hasConsent = async (ctx: Ctx, userId: number) => (await ctx.store.users.meta.get(userId, META.consent)) === '1';

/** Gives or revokes the user's consent; revoking also ends their tokens, at the service too when it has them. */
export async function setConsent(ctx: Ctx, given: boolean): Promise<string> {
  const userId = ctx.user!.id;
  if (given) {
    await ctx.store.users.meta.set(userId, META.consent, '1');
    return 'Consent successfully given.';
  }
  await ctx.store.users.meta.delete(userId, META.consent);
  const access = await readSealedUserMeta<string>(ctx.store, userId, META.access);
  await forgetTokens(ctx, userId);
  if (access) await invalidateAtService(ctx, userId, access);
  return 'Consent successfully revoked.';
}

/** Tells the token service the user's tokens are void; the user's revocation stands whatever it answers (Yoast ignores its refusals too). */
async function invalidateAtService(ctx: Ctx, userId: number, access: string): Promise<void> {
  try {
    const { call } = await aiSettings(ctx);
    call.remember(access);
    await call.json({ method: 'POST', path: 'token/invalidate', json: { user_id: String(userId) }, headers: { authorization: `Bearer ${access}` } });
  } catch (e) {
    ctx.log.error(`AI consent revoked for user ${userId}; the service was not told: ${e instanceof Error ? e.message : String(e)}`);
  }
}

async function forgetTokens(ctx: Ctx, userId: number): Promise<void> {
  for (const key of [META.access, META.refresh, META.verifier]) await ctx.store.users.meta.delete(userId, key);
}

// --- the token service's callbacks ---


/**
 * POST ai_generator/callback and refresh_callback (public: the AI service calls them): stores the
 * tokens when code_challenge is the SHA-256 digest of the user's pending code verifier, and answers
 * the verifier as proof; anything else is 401 "Unauthorized.".
 */
export async function storeCallbackTokens(ctx: Ctx) {
  const userId = ctx.args.user_id as number;
  const pending = await readSealedUserMeta<{ code: string; created_at: number }>(ctx.store, userId, META.verifier);
  if (!pending) throw ctx.fail('wpseo_ai_unauthorized');
  if (pending.created_at + VERIFIER_TTL_S < now()) {
    await ctx.store.users.meta.delete(userId, META.verifier);
    throw ctx.fail('wpseo_ai_unauthorized');
  }
  if (!sameSecret(sha256Hex(pending.code), String(ctx.args.code_challenge))) throw ctx.fail('wpseo_ai_unauthorized');
  await writeSealedUserMeta(ctx.store, userId, META.access, String(ctx.args.access_jwt));
  await writeSealedUserMeta(ctx.store, userId, META.refresh, String(ctx.args.refresh_jwt));
  await ctx.store.users.meta.delete(userId, META.verifier);
  return { message: 'Tokens successfully stored.', code_verifier: pending.code };
}

// --- the token protocol, for one user ---

/** A JWT whose payload has no `exp` in the future counts as expired (as Yoast's Token_Manager reads it; the signature is the service's business). */
function jwtExpired(jwt: string): boolean {
  const parts = jwt.split('.');
  if (parts.length !== 3) return true;
  try {
    const exp = (JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp !== 'number' || exp < now();
  } catch {
    return true;
  }
}

const is = (e: unknown, status: number) => e instanceof OutboundStatusError && e.status === status;

class TokenFlow {
  constructor(
    private readonly ctx: Ctx,
    private readonly call: RemoteService,
  ) {}

  private get userId(): number {
    return this.ctx.user!.id;
  }

  /** A request with the user's access token; a refused token is renewed and the request made once more. */
  async authorized<T>(build: (token: string) => ServiceRequest): Promise<T> {
    let token = await this.accessToken();
    for (let attempt = 1; ; attempt++) {
      const r = build(token);
      try {
        return this.call.decode<T>(await this.call.send(r), r.path);
      } catch (e) {
        if (is(e, 403)) throw await this.consentRevoked();
        if (!is(e, 401) || attempt > 1) throw this.call.failure(e, r.path);
      }
      await forgetTokens(this.ctx, this.userId);
      token = await this.accessToken();
    }
  }

  /** The stored access token; none is asked for, an expired one refreshed (a refused refresh starts over). */
  private async accessToken(): Promise<string> {
    const access = await readSealedUserMeta<string>(this.ctx.store, this.userId, META.access);
    if (access && !jwtExpired(access)) {
      this.call.remember(access);
      return access;
    }
    const refresh = access ? await readSealedUserMeta<string>(this.ctx.store, this.userId, META.refresh) : undefined;
    if (!refresh) await this.requestTokens();
    else
      try {
        await this.refreshTokens(refresh);
      } catch (e) {
        if (is(e, 403)) throw await this.consentRevoked();
        if (!is(e, 401)) throw this.call.failure(e, 'token/refresh');
        await this.requestTokens();
      }
    // the service stored the new tokens through the callback while it was being asked
    const fresh = await readSealedUserMeta<string>(this.ctx.store, this.userId, META.access);
    if (!fresh || fresh === access)
      throw this.ctx.fail('wpseo_ai_no_callback', { callback: this.ctx.site.restUrl('seo/v1/ai_generator/callback') });
    this.call.remember(fresh);
    return fresh;
  }

  /** A fresh code verifier kept (sealed) for the callback; its digest is the challenge sent. */
  private async challenge(): Promise<string> {
    const code = randomBytes(32).toString('hex');
    await writeSealedUserMeta(this.ctx.store, this.userId, META.verifier, { code, created_at: now() });
    return sha256Hex(code);
  }

  private async requestTokens(): Promise<void> {
    const site = this.ctx.site;
    const json = {
      service: 'openai',
      code_challenge: await this.challenge(),
      license_site_url: site.home,
      user_id: String(this.userId),
      callback_url: site.restUrl('seo/v1/ai_generator/callback'),
      refresh_callback_url: site.restUrl('seo/v1/ai_generator/refresh_callback'),
    };
    try {
      await this.call.send({ method: 'POST', path: 'token/request', json });
    } catch (e) {
      if (is(e, 403)) throw await this.consentRevoked();
      throw this.call.failure(e, 'token/request');
    }
  }

  /** Raw failures come out: the caller decides what a 401 or 403 means. */
  private async refreshTokens(refresh: string): Promise<void> {
    this.call.remember(refresh);
    await this.call.send({ method: 'POST', path: 'token/refresh', json: { code_challenge: await this.challenge() }, headers: { authorization: `Bearer ${refresh}` } });
  }

  /** The service says the user's consent is gone (Yoast's CONSENT_REVOKED): it is gone here too. */
  private async consentRevoked(): Promise<RestError> {
    await this.ctx.store.users.meta.delete(this.userId, META.consent);
    await forgetTokens(this.ctx, this.userId);
    return this.ctx.fail('wpseo_ai_consent_revoked');
  }
}

// --- suggestions ---

export interface SuggestionRequest {
  type: string;
  promptContent: string;
  focusKeyphrase: string;
  language: string;
  platform: string;
  editor: string;
}

const entityOf = (type: string) => (type.startsWith('product-') ? 'product' : 'content');
const monthOf = (ctx: Ctx) => ctx.site.localDate().slice(0, 7);

/** Suggestions for a title or description: consent, the month's limit, the service, the usage counted. */
export async function suggestions(ctx: Ctx, req: SuggestionRequest): Promise<string[]> {
  const settings = await aiSettings(ctx);
  const userId = ctx.user!.id;
  if (!(await hasConsent(ctx, userId))) throw ctx.fail('wpseo_ai_consent_required');
  const repo = ctx.store.plugin(seo);
  const month = monthOf(ctx);
  const entity = entityOf(req.type);
  if (settings.monthlyLimit > 0 && (await repo.aiUsage(month, entity, userId)).site >= settings.monthlyLimit)
    throw ctx.fail('wpseo_ai_usage_limit_reached', { limit: settings.monthlyLimit, month }, {
      limit: settings.monthlyLimit,
    });
  const { list, tokens } = settings.protocol === 'chat-completions' ? await chatSuggestions(settings, req) : await tokenSuggestions(ctx, settings, req);
  await repo.recordAiUsage(month, userId, entity, tokens);
  if (settings.protocol === 'token-callback') await repo.remote.clear(`${USAGE_CACHE_PREFIX}${userId}:`);
  return list;
}

const fill = (template: string, vars: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));

/** The system instruction and the user message of a request (ai-prompts.json). */
export function prompt(req: SuggestionRequest): { system: string; user: string } {
  const type = PROMPTS.types[req.type];
  const kind = PROMPTS.kinds[type.kind];
  const vars = {
    count: PROMPTS.count,
    what: kind.what,
    subject: type.subject,
    platform: PROMPTS.platforms[req.platform],
    length: kind.lengths[req.platform],
    language: req.language,
    keyphrase: req.focusKeyphrase.trim(),
  };
  const system = fill(PROMPTS.system, vars) + (vars.keyphrase ? fill(PROMPTS.keyphrase, vars) : '') + fill(PROMPTS.answer, vars);
  const text = parseContent(req.promptContent)
    .blocks.map((b) => b.text)
    .join('\n')
    .slice(0, PROMPTS.maxContentCharacters);
  return { system, user: text };
}

interface ChatAnswer {
  choices?: { message?: { content?: unknown } }[];
  usage?: { total_tokens?: unknown };
}

/** A message's text: a string, or the text parts of a list of content parts (some compatible servers answer those). */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

async function chatSuggestions(settings: AiSettings, req: SuggestionRequest): Promise<{ list: string[]; tokens: number }> {
  const { system, user } = prompt(req);
  if (!user) throw invalidParam('prompt_content', 'prompt_content has no text to write suggestions from.');
  const path = 'chat/completions';
  const answer = await settings.call.json<ChatAnswer | null>({
    method: 'POST',
    path,
    // no sampling settings: the model's defaults (some models refuse any temperature but their own)
    json: { model: settings.model, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] },
    headers: { authorization: `Bearer ${settings.apiKey}` },
  });
  const list = readSuggestions((answer?.choices ?? []).map((c) => messageText(c?.message?.content)).join('\n'));
  if (!list.length) throw settings.call.invalidAnswer(path, 'no suggestions');
  const tokens = answer?.usage?.total_tokens;
  return { list, tokens: typeof tokens === 'number' && tokens >= 0 ? Math.round(tokens) : 0 };
}

/** The suggestions in a model's answer: its JSON array of strings, or else one per line (numbering, bullets and quotes dropped). */
export function readSuggestions(content: string): string[] {
  const unfenced = content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '');
  let list: string[];
  try {
    const parsed: unknown = JSON.parse(unfenced);
    list = Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    list = unfenced.split('\n').map((line) => line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').replace(/^["“']+|["”']+$/g, ''));
  }
  return [...new Set(list.map((s) => s.trim()).filter(Boolean))].slice(0, PROMPTS.count);
}

async function tokenSuggestions(ctx: Ctx, settings: AiSettings, req: SuggestionRequest): Promise<{ list: string[]; tokens: number }> {
  const path = `openai/suggestions/${req.type}`;
  const answer = await new TokenFlow(ctx, settings.call).authorized<{ choices?: { text?: unknown }[] } | null>((token) => ({
    method: 'POST',
    path,
    json: {
      service: 'openai',
      user_id: String(ctx.user!.id),
      subject: { content: req.promptContent, focus_keyphrase: req.focusKeyphrase, language: req.language, platform: req.platform },
    },
    headers: { authorization: `Bearer ${token}`, 'x-yst-cohort': req.editor },
  }));
  const list = (answer?.choices ?? []).map((c) => c?.text).filter((t): t is string => typeof t === 'string' && t.trim() !== '');
  if (!list.length) throw settings.call.invalidAnswer(path, 'no suggestions');
  return { list, tokens: 0 };
}

// --- usage, free sparks, the subscription cache ---

/**
 * The month's usage: with chat-completions, counted here (the site's requests of the kind against
 * the monthly limit, the user's requests and tokens); with the token service, its own usage
 * answer, kept for an hour.
 */
export async function usage(ctx: Ctx, storeProduct: boolean): Promise<unknown> {
  const settings = await aiSettings(ctx);
  const userId = ctx.user!.id;
  const month = monthOf(ctx);
  const entity = storeProduct ? 'product' : 'content';
  const repo = ctx.store.plugin(seo);
  if (settings.protocol === 'token-callback') {
    if (!(await hasConsent(ctx, userId))) throw ctx.fail('wpseo_ai_consent_required');
    const key = `${USAGE_CACHE_PREFIX}${userId}:${month}:${entity}`;
    return keptAnswer(ctx, repo.remote, key, { seconds: USAGE_TTL_S }, () =>
      new TokenFlow(ctx, settings.call).authorized<unknown>((token) => ({ path: `usage/${month}`, headers: { authorization: `Bearer ${token}` } })),
    );
  }
  const counted = await repo.aiUsage(month, entity, userId);
  const started = await ctx.store.options.get(FREE_SPARKS_OPTION);
  return {
    period: month,
    entity,
    totalUsed: { license: counted.site, limit: settings.monthlyLimit || null },
    user: { requests: counted.requests, tokens: counted.tokens },
    freeSparksStartedOn: started ? new Date(Number(started) * 1000).toISOString() : null,
  };
}

/** Records when the site started using its free suggestions (once: the first start counts). */
export async function startFreeSparks(ctx: Ctx): Promise<string> {
  await ctx.store.options.addMissing({ [FREE_SPARKS_OPTION]: String(now()) });
  return 'Free sparks successfully started.';
}

/** Drops the kept usage answers of the token service, so the next get_usage asks it again. */
export async function bustSubscriptionCache(ctx: Ctx): Promise<string> {
  await ctx.store.plugin(seo).remote.clear(USAGE_CACHE_PREFIX);
  return 'Subscription cache successfully busted.';
}
