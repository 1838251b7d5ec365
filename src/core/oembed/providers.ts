import { readFileSync } from 'node:fs';
import { config } from '../../config.ts';
import builtIn from './providers.json' with { type: 'json' };

/**
 * The sanctioned providers (WP_oEmbed::$providers): URL patterns of well-known sites and their
 * oEmbed endpoints, kept as data in providers.json. A provider file named by
 * CMS_SPEC_OEMBED_PROVIDERS, in the same format, is tried first.
 */
export interface ProviderEntry {
  name: string;
  /** A case-insensitive regular expression matched against the start of the URL. */
  pattern: string;
  /** The endpoint; `{format}` stands for the format asked for (always json here), `{home}` for the site's address (VideoPress's `for`). */
  endpoint: string;
}

interface Provider {
  name: string;
  pattern: RegExp;
  endpoint: string;
}

function compile(entries: unknown, source: string): Provider[] {
  if (!Array.isArray(entries)) throw new Error(`oEmbed provider list ${source} must be a JSON array`);
  return entries.map((e: Partial<ProviderEntry>, i) => {
    if (typeof e?.pattern !== 'string' || typeof e.endpoint !== 'string') throw new Error(`oEmbed provider list ${source}: entry ${i} needs string 'pattern' and 'endpoint'`);
    return { name: e.name ?? e.endpoint, pattern: new RegExp(`^(?:${e.pattern})`, 'i'), endpoint: e.endpoint.replace('{format}', 'json') };
  });
}

const builtInProviders = compile(builtIn, 'src/core/oembed/providers.json');
const extraProviders = new Map<string, Provider[]>();

function providers(): Provider[] {
  const file = config().oembed.providersFile;
  if (!file) return builtInProviders;
  let extra = extraProviders.get(file);
  if (!extra) extraProviders.set(file, (extra = compile(JSON.parse(readFileSync(file, 'utf8')), file)));
  return [...extra, ...builtInProviders];
}

/** WP_oEmbed::get_provider without discovery: the endpoint of the first provider whose pattern matches. */
export function providerEndpoint(url: string): string | null {
  return providers().find((p) => p.pattern.test(url))?.endpoint ?? null;
}

/** The hosts of every provider's endpoint, for the site's outbound reachability check. */
export function providerHosts(): string[] {
  return [...new Set(providers().map((p) => new URL(p.endpoint.replace(/\{[^}]*\}/g, 'x')).hostname))];
}
