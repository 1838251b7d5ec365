import type { Store } from '../../store/index.ts';

/**
 * The design library's options: where each remote service is (Kadence's own hosts by default,
 * any compatible server when changed), the license the AI services are called with, the business
 * profile the AI content is written for, and how long catalogues are kept. Read on every request,
 * so `cms-spec option update` takes effect at once.
 */
export const OPTION = {
  /** Kadence Cloud's pattern library: `get/`, `categories/`, `pages/`, `pages-categories/`, `single/`, `page/`. */
  patternsUrl: 'design_library_patterns_url',
  /** The AI content service ("prophecy"): content jobs, image search and collections, verticals, keywords, analytics. */
  aiUrl: 'design_library_ai_url',
  /** The AI credits service: `get-remaining`. */
  creditsUrl: 'design_library_credits_url',
  /** The starter template catalogue: `get/`. */
  starterUrl: 'design_library_starter_url',
  /** The starter sites' content: `wp-json/kadence-starter-base/v1/…` and `<site>/wp-json/kadence-starter-base/v1/…`. */
  starterBaseUrl: 'design_library_starter_base_url',
  licenseKey: 'design_library_license_key',
  licenseEmail: 'design_library_license_email',
  /** The licensed product: kadence-blocks or kadence-blocks-pro. */
  product: 'design_library_product',
  /**
   * The business profile AI content is written for (Kadence's `kadence_blocks_prophecy`), JSON:
   * {companyName, industry, industrySpecific?, industryOther?, location, missionStatement, tone, keywords, lang}.
   */
  profile: 'design_library_profile',
  /** Seconds a catalogue, image list or vertical list is served from the store before it is asked again. */
  cacheSeconds: 'design_library_cache_seconds',
} as const;

export const DEFAULTS: Readonly<Record<string, string>> = {
  [OPTION.patternsUrl]: 'https://patterns.startertemplatecloud.com/wp-json/kadence-cloud/v1/',
  [OPTION.aiUrl]: 'https://content.startertemplatecloud.com/wp-json/prophecy/v1/',
  [OPTION.creditsUrl]: 'https://content.startertemplatecloud.com/wp-json/kadence-credits/v1/',
  [OPTION.starterUrl]: 'https://api.startertemplatecloud.com/wp-json/kadence-starter/v1/',
  [OPTION.starterBaseUrl]: 'https://base.startertemplatecloud.com/',
  [OPTION.licenseKey]: '',
  [OPTION.licenseEmail]: '',
  [OPTION.product]: 'kadence-blocks',
  [OPTION.profile]: '',
  [OPTION.cacheSeconds]: String(7 * 24 * 3600),
};

export type Settings = { -readonly [K in keyof typeof OPTION]: string };

/** The current settings, each trimmed; an empty URL is its default again. */
export async function readSettings(store: Pick<Store, 'options'>): Promise<Settings> {
  const names = Object.values(OPTION);
  const stored = await store.options.getMany([...names]);
  const out = {} as Settings;
  for (const [field, name] of Object.entries(OPTION) as [keyof Settings, string][]) {
    const value = (stored[name] ?? '').trim();
    out[field] = value || (name.endsWith('_url') ? DEFAULTS[name] : value);
  }
  return out;
}

/** The hosts the plugin talks to with these options, for site health. */
export function hostsOf(options: Readonly<Record<string, string>>): string[] {
  const hosts = new Set<string>();
  for (const name of [OPTION.patternsUrl, OPTION.aiUrl, OPTION.creditsUrl, OPTION.starterUrl, OPTION.starterBaseUrl]) {
    try {
      hosts.add(new URL(options[name] || DEFAULTS[name]).origin.replace(/^https:\/\//, ''));
    } catch {
      // a setting that is not a URL is reported by the route that uses it
    }
  }
  return [...hosts];
}
