import { RestError } from '../../../engine/index.ts';
import { OutboundStatusError } from '../../../net/errors.ts';
import type { Store } from '../../../store/index.ts';
import type { ServiceId } from '../settings.ts';
import { readSealedOption, writeSealedOption } from './sealed.ts';
import type { RemoteService, ServiceRequest } from '../../../net/service.ts';
import { notConnected } from './services.ts';

/** OAuth tokens as kept (sealed) in an option: times in seconds since the epoch. */
export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  expires: number;
  created_at: number;
}

export interface OAuthClientConfig {
  service: ServiceId;
  /** The option the sealed tokens are kept in. */
  tokensOption: string;
  clientId: string;
  clientSecret: string;
  /** The token endpoint, under the OAuth server's base URL. */
  tokenPath: string;
  /** Sent with the code exchange when set: the redirect URI the code was issued for. */
  redirectUri: string;
  /** What to do to connect, for the not-connected error. */
  connectHow: string;
}

/** Tokens are refreshed this long before they expire, so none runs out on the way to the service. */
const EXPIRY_MARGIN_S = 60;
/** What a token answer without expires_in is taken to last. */
const DEFAULT_LIFETIME_S = 3600;

const now = () => Math.floor(Date.now() / 1000);

/**
 * The OAuth 2.0 client of a service the site connects to for the whole site (RFC 6749): the
 * authorization code exchanged for tokens (with a PKCE verifier when the caller has one), the
 * tokens kept sealed, refreshed when they have expired or when the service refuses them once.
 * Tokens never leave the server: what a route shows of them is `publicView`.
 */
export class OAuthClient {
  constructor(
    private readonly store: Store,
    /** Calls to the OAuth server. */
    private readonly auth: RemoteService,
    private readonly cfg: OAuthClientConfig,
  ) {
    auth.remember(cfg.clientSecret);
  }

  /** Exchanges an authorization code for tokens and keeps them; `extra` adds fields (code_verifier). */
  async exchange(code: string, extra: Record<string, string> = {}): Promise<OAuthTokens> {
    const tokens = await this.tokenRequest({ grant_type: 'authorization_code', code, ...(this.cfg.redirectUri ? { redirect_uri: this.cfg.redirectUri } : {}), ...extra });
    await writeSealedOption(this.store, this.cfg.tokensOption, tokens);
    return tokens;
  }

  /** The stored tokens, refreshed first when they have expired; not connected is a 400 saying how to connect. */
  async tokens(): Promise<OAuthTokens> {
    const tokens = await readSealedOption<OAuthTokens>(this.store, this.cfg.tokensOption);
    if (!tokens?.access_token) throw notConnected(this.cfg.service, this.cfg.connectHow);
    return tokens.expires - EXPIRY_MARGIN_S <= now() ? this.refresh(tokens) : tokens;
  }

  /** A request to the service's API with the access token; a 401 refreshes the tokens and asks once more. */
  async request<T>(api: RemoteService, build: (accessToken: string) => ServiceRequest): Promise<T> {
    let tokens = await this.tokens();
    api.remember(tokens.access_token);
    const first = build(tokens.access_token);
    try {
      return api.decode<T>(await api.send(first), first.path);
    } catch (e) {
      if (!(e instanceof OutboundStatusError && e.status === 401)) throw api.failure(e, first.path);
    }
    tokens = await this.refresh(tokens);
    api.remember(tokens.access_token);
    return api.json<T>(build(tokens.access_token));
  }

  async disconnect(): Promise<void> {
    await this.store.options.delete(this.cfg.tokensOption);
  }

  /** What an answer may show of tokens: when they expire, never their values. */
  static publicView(tokens: OAuthTokens): { expires: number; has_expired: boolean; created_at: number } {
    return { expires: tokens.expires, has_expired: tokens.expires <= now(), created_at: tokens.created_at };
  }

  private async refresh(tokens: OAuthTokens): Promise<OAuthTokens> {
    if (!tokens.refresh_token) {
      await this.disconnect();
      throw notConnected(this.cfg.service, `its authorization expired. ${this.cfg.connectHow}`);
    }
    const fresh = await this.tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, tokens.refresh_token);
    await writeSealedOption(this.store, this.cfg.tokensOption, fresh);
    return fresh;
  }

  /** A token request; `refreshing` is the refresh token used, kept when the answer brings no new one. */
  private async tokenRequest(grant: Record<string, string>, refreshing?: string): Promise<OAuthTokens> {
    const path = this.cfg.tokenPath;
    for (const secret of Object.values(grant)) this.auth.remember(secret);
    let body: Record<string, unknown> | null;
    try {
      body = this.auth.decode<Record<string, unknown> | null>(await this.auth.send({ method: 'POST', path, form: { ...grant, client_id: this.cfg.clientId, client_secret: this.cfg.clientSecret } }), path);
    } catch (e) {
      // RFC 6749 §5.2: a refused grant is a 400 (invalid_grant...) or a 401 (invalid_client)
      if (!(e instanceof OutboundStatusError && (e.status === 400 || e.status === 401))) throw this.auth.failure(e, path);
      const said = this.auth.providerMessage(e.body);
      const detail = said ? `: “${said}”` : '';
      if (refreshing === undefined)
        throw new RestError('wpseo_oauth_authentication_failed', `${this.auth.title} did not accept the authorization code (HTTP ${e.status})${detail}. Ask for a new code and authenticate again.`, 400, {
          service: this.cfg.service,
          provider_status: e.status,
        });
      await this.disconnect();
      throw notConnected(this.cfg.service, `it no longer accepts this site's authorization (HTTP ${e.status})${detail}. ${this.cfg.connectHow}`);
    }
    const access = body?.access_token;
    if (typeof access !== 'string' || !access) throw this.auth.invalidAnswer(path, 'no access_token');
    this.auth.remember(access);
    const lifetime = typeof body?.expires_in === 'number' && body.expires_in >= 0 ? body.expires_in : DEFAULT_LIFETIME_S;
    const refresh = typeof body?.refresh_token === 'string' && body.refresh_token ? body.refresh_token : (refreshing ?? '');
    const at = now();
    return { access_token: access, refresh_token: refresh, expires: at + lifetime, created_at: at };
  }
}
