import type { Store } from '../../store/index.ts';
import { PROVIDERS, type Provider } from './providers.ts';

/**
 * Each connector's stored key and base URL, as two site options. An empty value is "not set": no
 * stored key, and the provider's own API root. Written by `cms-spec connector set` (or
 * `cms-spec option update`); read on every request, so a running server sees a change at once.
 */
export interface ConnectorSettings {
  key: string;
  baseUrl: string;
}

type Options = Pick<Store, 'options'>;

export const optionNames = (p: Provider) => ({ key: `mail_connectors_${p.id}_key`, baseUrl: `mail_connectors_${p.id}_base_url` });

/** Every option the plugin owns, empty until set. */
export const SETTINGS_DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  PROVIDERS.flatMap((p) => Object.values(optionNames(p)).map((name) => [name, ''])),
);

export async function readSettings(store: Options, p: Provider): Promise<ConnectorSettings> {
  const names = optionNames(p);
  const values = await store.options.getMany([names.key, names.baseUrl]);
  return { key: (values[names.key] ?? '').trim(), baseUrl: (values[names.baseUrl] ?? '').trim() };
}

/** Stores what is given; an empty string clears the value (the key is removed, the base URL is the provider's again). */
export async function saveSettings(store: Options, p: Provider, change: Partial<ConnectorSettings>): Promise<void> {
  const names = optionNames(p);
  if (change.key !== undefined) await store.options.set(names.key, change.key.trim());
  if (change.baseUrl !== undefined) await store.options.set(names.baseUrl, change.baseUrl.trim().replace(/\/+$/, ''));
}

/** Why a base URL cannot be used, or null: it must be an absolute http(s) URL without credentials, query or fragment. */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.replace('{dc}', 'dc'));
  } catch {
    return `"${value}" is not an absolute URL such as https://api.example.com/v3.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `A base URL must be http or https, not ${url.protocol}`;
  if (url.username || url.password) return 'A base URL cannot hold credentials; the key is set with --key.';
  if (url.search || url.hash) return 'A base URL cannot have a query or a fragment.';
  return null;
}
