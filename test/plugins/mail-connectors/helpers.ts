import type { TestServer } from '../../helpers/server.ts';
import { providerNamed } from '../../../src/plugins/mail-connectors/providers.ts';
import { saveSettings } from '../../../src/plugins/mail-connectors/settings.ts';
import type { ProviderId } from './fakes.ts';

export const NAMESPACES: Record<ProviderId, string> = {
  mailchimp: 'kb-mail-a/v1',
  convertkit: 'kb-mail-b/v1',
  fluentcrm: 'kb-mail-c/v1',
  brevo: 'kb-mail-d/v1',
  activecampaign: 'kb-mail-e/v1',
  mailerlite: 'kb-mail-f/v1',
  getresponse: 'kb-mail-g/v1',
};

export interface ErrorBody {
  code: string;
  message: string;
  data: { status: number; provider?: string; provider_status?: number; retry_after?: number; params?: Record<string, string>; endpoints?: string[]; missing?: string };
}

export interface Got<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** Every body the site answered in this process, to be searched for keys. */
export const answered: string[] = [];

/** GET {ns}/get with query params (arrays as `name[]`), as `auth`; the body is kept for the key search. */
export async function getConnector<T = unknown>(server: TestServer, ns: string, params: Record<string, string | string[]>, auth?: string): Promise<Got<T>> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const x of Array.isArray(v) ? v : [v]) q.append(Array.isArray(v) ? `${k}[]` : k, x);
  const res = await server.call(`${ns}/get?${q}`, { auth });
  const text = await res.text();
  answered.push(`${res.status} ${[...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${text}`);
  return { status: res.status, body: JSON.parse(text) as T, text, headers: res.headers };
}

/** Stores a connector's key and base URL in the site, as `cms-spec connector set` does. */
export async function configure(server: TestServer, provider: ProviderId, settings: { key?: string; baseUrl?: string }): Promise<void> {
  await saveSettings(server.app.store, providerNamed(provider)!, settings);
}

const ENV = ['CMS_SPEC_OUTBOUND_ALLOW', 'CMS_SPEC_OUTBOUND_TIMEOUT_MS'];

/** Sets the outbound settings for a suite's lifetime (the fakes listen on 127.0.0.1); returns the restore function. */
export function setOutboundEnv(values: Record<string, string>): () => void {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
