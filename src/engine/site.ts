import type { SiteDefaults, Spec } from './spec.ts';
import type { Store } from '../store/index.ts';

/** The site description fields of the index, in WordPress's key order (the spec's defaults have the same shape). */
export type SiteInfo = SiteDefaults;

/** Index field → WordPress option name. */
const OPTION_OF: Record<keyof SiteInfo, string> = {
  name: 'blogname',
  description: 'blogdescription',
  url: 'siteurl',
  home: 'home',
  gmt_offset: 'gmt_offset',
  timezone_string: 'timezone_string',
  page_for_posts: 'page_for_posts',
  page_on_front: 'page_on_front',
  show_on_front: 'show_on_front',
};

const NUMERIC_FIELDS = new Set<keyof SiteInfo>(['page_for_posts', 'page_on_front']);

/**
 * The site's identity as stored in its options, cached in memory. Anything that changes those
 * options calls `refresh()`, which reloads them and tells listeners (the engine rebuilds its
 * index buffers then, never per request).
 */
export class Site {
  info!: SiteInfo;
  /** The home URL without a trailing slash. */
  home = '';
  /** `{home}/{prefix}/` — the API root clients discover. */
  apiRoot = '';
  /** The Link header every answer carries so clients find the API (rest_output_link_header). */
  apiLink = '';
  /** Other options read often (permalink_structure, date formats...), by option name. */
  options: Record<string, string> = {};
  private listeners: (() => void)[] = [];

  constructor(
    readonly spec: Spec,
    readonly store: Store,
  ) {}

  /** Writes the spec's defaults for options not stored yet (a new site); `baseUrl` stands in for an empty url/home. */
  async install(baseUrl: string): Promise<string[]> {
    const d = this.spec.site;
    const values: Record<string, string> = {};
    for (const [field, option] of Object.entries(OPTION_OF) as [keyof SiteInfo, string][]) {
      const v = d[field];
      values[option] = (field === 'url' || field === 'home') && !v ? baseUrl : String(v);
    }
    const added = await this.store.options.addMissing(values);
    await this.refresh();
    return added;
  }

  async refresh(): Promise<void> {
    const stored = await this.store.options.getMany([...Object.values(OPTION_OF), ...EXTRA_OPTIONS]);
    const d = this.spec.site;
    const info = {} as Record<string, unknown>;
    for (const [field, option] of Object.entries(OPTION_OF) as [keyof SiteInfo, string][]) {
      const v = stored[option] ?? String(d[field]);
      info[field] = NUMERIC_FIELDS.has(field) ? Number(v) || 0 : v;
    }
    this.info = info as unknown as SiteInfo;
    this.home = this.info.home.replace(/\/+$/, '');
    this.apiRoot = `${this.home}/${this.spec.apiPrefix}/`;
    this.apiLink = `<${this.apiRoot}>; rel="https://api.w.org/"`;
    this.options = stored;
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** rest_url(): the absolute URL of an API path. */
  restUrl(path: string): string {
    return this.apiRoot + path.replace(/^\/+/, '');
  }

  /** An absolute URL on the site itself. */
  url(path: string): string {
    return this.home + (path.startsWith('/') ? path : `/${path}`);
  }
}

/** Options besides the index fields that pages and permalinks read on every request. */
const EXTRA_OPTIONS = ['permalink_structure', 'date_format', 'time_format', 'posts_per_page', 'blog_charset'];
