import { readFileSync } from 'node:fs';
import type { RegisteredMeta } from '../../core/content-types.ts';
import type { Store } from '../../store/index.ts';

/**
 * The plugin's settings (options, Yoast's wpseo / wpseo_titles / wpseo_social arrays as separate
 * options) and its registered post meta (Yoast's _yoast_wpseo_* keys).
 */

/** The plugin's version (Yoast SEO's it follows), in its definition and in the head's opening marker. */
export const PLUGIN_VERSION = '28.4.0';

/** Post meta keys: the SEO fields of a post, Yoast's own keys, shown and written in a post's `meta`. */
export const META = {
  focusKeyphrase: '_yoast_wpseo_focuskw',
  title: '_yoast_wpseo_title',
  description: '_yoast_wpseo_metadesc',
  noindex: '_yoast_wpseo_meta-robots-noindex',
  nofollow: '_yoast_wpseo_meta-robots-nofollow',
  canonical: '_yoast_wpseo_canonical',
  cornerstone: '_yoast_wpseo_is_cornerstone',
  breadcrumbTitle: '_yoast_wpseo_bctitle',
  ogTitle: '_yoast_wpseo_opengraph-title',
  ogDescription: '_yoast_wpseo_opengraph-description',
  ogImage: '_yoast_wpseo_opengraph-image',
  twitterTitle: '_yoast_wpseo_twitter-title',
  twitterDescription: '_yoast_wpseo_twitter-description',
  twitterImage: '_yoast_wpseo_twitter-image',
} as const;

export const META_KEYS: string[] = Object.values(META);

const text = (description: string) => ({ type: 'string', description, default: '' });
const POST_TYPES = ['post', 'page'];
/** Robots and canonical overrides are Yoast's "advanced" fields: their own capability, as the plugin has it. */
const ADVANCED = 'wpseo_edit_advanced_metadata';

export const POST_META: RegisteredMeta[] = [
  { key: META.focusKeyphrase, postTypes: POST_TYPES, schema: text('The focus keyphrase the post is analysed for.'), writeCap: 'edit_posts' },
  { key: META.title, postTypes: POST_TYPES, schema: text('The SEO title; replacement variables (%%title%%, %%sep%%, %%sitename%%...) allowed. Empty: the title template.'), writeCap: 'edit_posts' },
  { key: META.description, postTypes: POST_TYPES, schema: text('The meta description; replacement variables allowed. Empty: the description template.'), writeCap: 'edit_posts' },
  { key: META.noindex, postTypes: POST_TYPES, schema: { type: 'integer', enum: [0, 1, 2], default: 0, description: '0: the post type default, 1: noindex, 2: index.' }, writeCap: ADVANCED },
  { key: META.nofollow, postTypes: POST_TYPES, schema: { type: 'boolean', default: false, description: 'Ask search engines not to follow the links of the post.' }, writeCap: ADVANCED },
  { key: META.canonical, postTypes: POST_TYPES, schema: { type: 'string', format: 'uri', default: '', description: 'The canonical URL, when not the permalink.' }, writeCap: ADVANCED },
  { key: META.cornerstone, postTypes: POST_TYPES, schema: { type: 'boolean', default: false, description: 'Cornerstone content.' }, writeCap: 'edit_posts' },
  { key: META.breadcrumbTitle, postTypes: POST_TYPES, schema: text('The title in breadcrumbs. Empty: the post title.'), writeCap: 'edit_posts' },
  { key: META.ogTitle, postTypes: POST_TYPES, schema: text('The Open Graph title. Empty: the SEO title.'), writeCap: 'edit_posts' },
  { key: META.ogDescription, postTypes: POST_TYPES, schema: text('The Open Graph description. Empty: the meta description.'), writeCap: 'edit_posts' },
  { key: META.ogImage, postTypes: POST_TYPES, schema: { type: 'string', format: 'uri', default: '', description: 'The Open Graph image URL. Empty: the first image of the content.' }, writeCap: 'edit_posts' },
  { key: META.twitterTitle, postTypes: POST_TYPES, schema: text('The X (Twitter) title. Empty: the Open Graph title.'), writeCap: 'edit_posts' },
  { key: META.twitterDescription, postTypes: POST_TYPES, schema: text('The X (Twitter) description. Empty: the Open Graph description.'), writeCap: 'edit_posts' },
  { key: META.twitterImage, postTypes: POST_TYPES, schema: { type: 'string', format: 'uri', default: '', description: 'The X (Twitter) image URL. Empty: the Open Graph image.' }, writeCap: 'edit_posts' },
];

/** What a page kind's title and description default to (Yoast's wpseo_titles `title-*` and `metadesc-*`). */
export type TemplateKind = 'post' | 'page' | 'home' | 'category' | 'post_tag' | 'term' | 'author' | 'date' | 'search' | '404' | 'archive';

/**
 * The default title templates give the titles the site has without the plugin (WordPress's
 * document title: "Post – Site", "News – Page 2 – Site"...), so activating it changes no title
 * until someone sets a template or a post's SEO title. Yoast's own defaults differ in wording
 * ("News Archives - Site").
 */
const DEFAULT_TITLES: Record<TemplateKind, string> = {
  post: '%%title%% %%sep%% %%page%% %%sep%% %%sitename%%',
  page: '%%title%% %%sep%% %%page%% %%sep%% %%sitename%%',
  home: '%%sitename%% %%sep%% %%page%% %%sep%% %%sitedesc%%',
  category: '%%term_title%% %%sep%% %%page%% %%sep%% %%sitename%%',
  post_tag: '%%term_title%% %%sep%% %%page%% %%sep%% %%sitename%%',
  term: '%%term_title%% %%sep%% %%page%% %%sep%% %%sitename%%',
  author: '%%name%% %%sep%% %%page%% %%sep%% %%sitename%%',
  date: '%%date%% %%sep%% %%page%% %%sep%% %%sitename%%',
  search: 'Search Results for “%%searchphrase%%” %%sep%% %%page%% %%sep%% %%sitename%%',
  '404': 'Page not found %%sep%% %%sitename%%',
  archive: '%%pt_plural%% %%sep%% %%page%% %%sep%% %%sitename%%',
};

/** Empty description templates fall back to what the theme says (the excerpt, the term's description, the tagline). */
const DEFAULT_DESCRIPTIONS: Partial<Record<TemplateKind, string>> = {};

export const OPTION = {
  separator: 'seo_separator',
  titleTemplates: 'seo_title_templates',
  descriptionTemplates: 'seo_description_templates',
  companyOrPerson: 'seo_company_or_person',
  companyName: 'seo_company_name',
  companyLogo: 'seo_company_logo',
  companyLogoId: 'seo_company_logo_id',
  personLogo: 'seo_person_logo',
  personLogoId: 'seo_person_logo_id',
  personUserId: 'seo_company_or_person_user_id',
  socialSiteA: 'seo_social_site_a',
  socialSiteB: 'seo_social_site_b',
  otherSocialUrls: 'seo_other_social_urls',
  tracking: 'seo_tracking',
  finishedSteps: 'seo_configuration_finished_steps',
  workouts: 'seo_workouts',
  headlessRest: 'seo_enable_headless_rest_endpoints',
  setupSteps: 'seo_setup_steps',
  completedTasks: 'seo_completed_tasks',
  trackedActions: 'seo_tracked_actions',
  seenPostTypes: 'seo_seen_post_types',
  seenTaxonomies: 'seo_seen_taxonomies',
  indexingStarted: 'seo_indexing_started',
  indexablesCompleted: 'seo_indexables_indexing_completed',
  indexingCompleted: 'seo_indexing_completed',
  importCursor: (plugin: string, type: string) => `seo_import_cursor_${plugin}_${type}`,
  integrationActive: (integration: string) => `seo_${integration}_integration_active`,
} as const;

/** A remote service of the integration routes: the options it needs and may be given. */
export interface ServiceData {
  name: string;
  /** The integrations/set_active switch that turns its routes off, if any. */
  integration: string | null;
  /** Needed before it is called: option → what to set it to. */
  settings: Record<string, string>;
  /** Optional: option → its default and what it is. */
  options: Record<string, { default: string; description: string }>;
}

export type ServiceId = 'ai' | 'keyword_tool' | 'rank_tracker' | 'search_metrics';

/** Lists the plugin keeps as data: the alerts a user may dismiss, the introductions, integrations, tracked actions, and the remote services. */
export interface StateData {
  dismissableAlerts: string[];
  introductions: string[];
  integrations: string[];
  trackedActions: string[];
  services: Record<ServiceId, ServiceData>;
}

export const STATE: StateData = JSON.parse(readFileSync(new URL('./state.json', import.meta.url), 'utf8')) as StateData;

/** The options the plugin owns, with the defaults written on its first activation. */
export const SETTINGS: Record<string, string> = {
  [OPTION.separator]: '–',
  [OPTION.titleTemplates]: JSON.stringify(DEFAULT_TITLES),
  [OPTION.descriptionTemplates]: JSON.stringify(DEFAULT_DESCRIPTIONS),
  [OPTION.companyOrPerson]: 'company',
  [OPTION.companyName]: '',
  [OPTION.companyLogo]: '',
  [OPTION.companyLogoId]: '0',
  [OPTION.personLogo]: '',
  [OPTION.personLogoId]: '0',
  [OPTION.personUserId]: '0',
  [OPTION.socialSiteA]: '',
  [OPTION.socialSiteB]: '',
  [OPTION.otherSocialUrls]: '[]',
  [OPTION.tracking]: '0',
  [OPTION.finishedSteps]: '[]',
  [OPTION.workouts]: JSON.stringify({ configuration: { finishedSteps: [] } }),
  [OPTION.headlessRest]: '1',
  [OPTION.setupSteps]: '{}',
  [OPTION.completedTasks]: '[]',
  [OPTION.trackedActions]: '{}',
  ...Object.fromEntries(STATE.integrations.map((i) => [OPTION.integrationActive(i), '1'])),
  ...Object.fromEntries(Object.values(STATE.services).flatMap((s) => Object.keys(s.settings).map((name) => [name, '']))),
  ...Object.fromEntries(Object.values(STATE.services).flatMap((s) => Object.entries(s.options).map(([name, o]) => [name, o.default]))),
};

/** A stored JSON option, or its fallback when unset or unreadable. */
export async function jsonOption<T>(store: Store, name: string, fallback: T): Promise<T> {
  const raw = await store.options.get(name);
  if (raw === undefined || raw === '') return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export interface Templates {
  titles: Record<TemplateKind, string>;
  descriptions: Partial<Record<TemplateKind, string>>;
  separator: string;
}

/** The templates made of the options last read, while they are the options read (every head made afresh asks for them). */
let lastTemplates: { stored: readonly (string | undefined)[]; made: Readonly<Templates> } | undefined;

/** The title and description templates, the stored ones over the defaults; the object is shared: never change it. */
export async function templates(store: Store): Promise<Readonly<Templates>> {
  const options = await store.options.getMany([OPTION.titleTemplates, OPTION.descriptionTemplates, OPTION.separator]);
  const stored = [options[OPTION.titleTemplates], options[OPTION.descriptionTemplates], options[OPTION.separator]];
  if (lastTemplates?.stored.every((raw, i) => raw === stored[i])) return lastTemplates.made;
  const parse = (raw: string | undefined) => {
    try {
      const v = raw ? (JSON.parse(raw) as unknown) : {};
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const made = {
    titles: { ...DEFAULT_TITLES, ...parse(stored[0]) },
    descriptions: { ...DEFAULT_DESCRIPTIONS, ...parse(stored[1]) },
    separator: stored[2] ?? '-',
  };
  lastTemplates = { stored, made };
  return made;
}
