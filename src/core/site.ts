import type { Spec } from '../engine/spec.ts';
import type { EngineHost, HandlerContext, Logger, User } from '../engine/types.ts';
import { Roles } from '../auth/roles.ts';
import type { ShortcodeAttributes } from '../format/shortcodes.ts';
import type { Store } from '../store/index.ts';
import { fillDates, offsetMinutes, type SiteClock } from '../store/site-clock.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import type { UserRow } from '../store/users.ts';
import { cap, ContentTypes, type PostTypeInfo, type TaxonomyInfo } from './content-types.ts';
import { STYLESHEET } from './active-theme.ts';
import { CURIES } from './curies.ts';
import { BlockRegistry, type RenderTrace } from './blocks.ts';
import type { BlockSupportsState } from './block-library/supports/state.ts';
import { SharedState } from './shared-state.ts';
import type { Mailer } from './mail.ts';
import type { MediaLibrary } from './media.ts';
import type { CommentFormVisitor } from './comment-visitor.ts';
import { siteIconId, siteIconUrl, siteLogoId } from './site-icon.ts';

/** The site description fields of the index, in WordPress's key order; site.yaml's `site:` gives a new database's values. */
export interface SiteInfo {
  name: string;
  description: string;
  url: string;
  home: string;
  gmt_offset: string;
  timezone_string: string;
  page_for_posts: number;
  page_on_front: number;
  show_on_front: string;
}

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

/** Options besides the index fields that pages and permalinks read on every request, and those a post's creation reads. */
const EXTRA_OPTIONS = ['permalink_structure', 'date_format', 'time_format', 'start_of_week', 'posts_per_page', 'blog_charset', 'use_smilies', 'default_comment_status', 'default_ping_status', 'default_category'];

/** site.yaml's `site:` block with WordPress's defaults for what it leaves out. */
/**
 * What links are made with in a process that works on a site no `serve` has given its address yet
 * (`seed` then `post create` on a new file): serve's default listen address, never stored, so the
 * first serve still sets the real one.
 */
const UNSERVED_ADDRESS = 'http://127.0.0.1:8080';

function siteDefaults(spec: Spec): SiteInfo {
  const d = (spec.settings.site ?? {}) as Record<string, unknown>;
  return {
    name: String(d.name ?? ''),
    description: String(d.description ?? ''),
    url: String(d.url ?? ''),
    home: String(d.home ?? ''),
    gmt_offset: String(d.gmt_offset ?? '0'),
    timezone_string: String(d.timezone_string ?? ''),
    page_for_posts: Number(d.page_for_posts ?? 0),
    page_on_front: Number(d.page_on_front ?? 0),
    show_on_front: String(d.show_on_front ?? 'posts'),
  };
}

/** What a server-rendered page is about, handed to every plugin's site hooks. */
// the block registry renders on the pages this describes (see BlockRenderContext)
declare module './blocks.ts' {
  interface BlockRenderContext extends PageContext {}
}

export interface PageContext {
  store: Store;
  site: Site;
  /** 'home' | 'post' | 'page' | 'embed' | '404' | 'category' | 'tag' | 'author' | 'date' | 'search' | 'feed' */
  kind: string;
  /** The post shown, when there is one. */
  postId?: number;
  /** The page's canonical URL. */
  url: string;
  /**
   * The query args of the page's request, which blocks read as WordPress reads $_GET (a Query
   * Loop's `query-N-page`); none for a REST rendering.
   */
  queryArgs?: Readonly<Record<string, unknown>>;
  /** WordPress's is_singular(): the page shows one post (the site's page of a post or page); a REST rendering is not. */
  singular?: boolean;
  /**
   * WordPress's REQUEST_URI: the path (as the caller named it) and query args the request came in
   * with, which links back to the request are made of (the comment form's cancel-reply link).
   */
  requestUri?: { path: string; query: Readonly<Record<string, unknown>> };
  /** The site page's visitor, for the comment forms printed on it (src/site/comments.ts lends it); none over REST. */
  commentVisitor?: CommentFormVisitor;
  /** Set while a rendering that may be kept runs (src/core/kept-renderings.ts). */
  trace?: RenderTrace;
  /** The request's block-supports state: one per page or REST request, so containers are numbered across all it renders. */
  supports?: BlockSupportsState;
}

/** A page of the site that was answered, as plugins that count visits see it. */
export interface PageView {
  store: Store;
  site: Site;
  /** GET or HEAD. */
  method: string;
  /** The path asked for, without the query. */
  path: string;
  status: number;
  /** The answer's Content-Type ('' when none): a page is `text/html`, a feed or sitemap is not. */
  contentType: string;
  /** The Referer header, '' when none. */
  referrer: string;
  /** The User-Agent header, '' when none (a crawler names itself there). */
  userAgent: string;
}

/** What a page's `<head>` says of it before plugins change it (document_title_parts, wp_robots, rel_canonical...). */
export interface HeadMeta {
  title: string;
  description: string;
  /** The canonical URL; none on a 404. */
  canonical?: string;
  /** The robots directives (`noindex, follow`...); none means the default, indexable. */
  robots?: string;
}

/** A change to stored content, told to the active plugins after it is made (save_post, delete_post, edited_term...). */
export type ContentEvent =
  /**
   * `previousStatus` and `status`: a saved post's status before and after the save ('new' before a
   * new post), when its writer tells (wp_transition_post_status). `content`: the saved post's
   * content, when its writer has the row (a listener that needs it does not read the post again).
   */
  | { type: 'postSaved' | 'postDeleted'; postId: number; postType: string; previousStatus?: string; status?: string; content?: string }
  | { type: 'termSaved' | 'termDeleted'; termId: number; taxonomy: string };

/**
 * What a shortcode renders with: the page (its store, site and post), do_shortcode over the same
 * shortcodes for what it encloses, and the counters WordPress's handlers keep in `static`
 * variables (gallery-N, audio-{post}-N...), which run on through one rendering of the content.
 */
export interface ShortcodeContext {
  page: PageContext;
  doShortcode(text: string): Promise<string>;
  /** The next number of a handler's counter (1 first). */
  instance(counter: string): number;
}

/** A shortcode's renderer (add_shortcode's callback): its attributes, the text it encloses ('' when none) and its name. */
export type ShortcodeRenderer = (atts: ShortcodeAttributes, content: string, tag: string, ctx: ShortcodeContext) => string | Promise<string>;

/** A plugin's hooks into the rendered site: wp_head, wp_footer, the_content, and a page view. */
export interface SiteHooks {
  /** HTML for `<head>`. */
  head?(ctx: PageContext): Promise<string> | string;
  /** The page's title, description, canonical URL and robots, to change (an SEO plugin's templates and overrides). */
  headMeta?(meta: HeadMeta, ctx: PageContext): Promise<HeadMeta> | HeadMeta;
  /** HTML before `</body>`. */
  footer?(ctx: PageContext): Promise<string> | string;
  /** the_content filter: the post's formatted HTML in, the filtered HTML out (the API's `content.rendered` goes through it too). */
  content?(html: string, ctx: PageContext): Promise<string> | string;
  /**
   * The plugin's shortcodes by name (add_shortcode), rendered by the_content's do_shortcode with
   * the core's; wptexturize leaves them alone, shortcode_unautop unwraps a paragraph holding only
   * one, strip_shortcodes takes them out of generated excerpts.
   */
  shortcodes?: Readonly<Record<string, ShortcodeRenderer>>;
  /**
   * The shared-state topics whose change changes what `content` renders (a plugin's own data it
   * keeps in memory, such as the active snippets): rendered content is kept per post until the
   * options, the active plugins or one of these topics moves (src/core/kept-renderings.ts). What
   * `content` reads through `ctx.store` needs none: a rendering that uses the store is not kept.
   */
  topics?: readonly string[];
  /** Told after a page of the site is answered (never for API requests). */
  pageView?(view: PageView): Promise<void> | void;
}

/**
 * REST fields a plugin computes for the core's objects (register_rest_field with a get_callback;
 * rest-fields.ts adds them). The object a field is computed for: a post of a post type, a term,
 * a user, or a post type (the `types` route).
 */
export type RestFieldObject =
  | { kind: 'post'; post: PostRow; type: PostTypeInfo }
  | { kind: 'term'; term: TermRow; taxonomy: TaxonomyInfo }
  | { kind: 'user'; user: UserRow }
  | { kind: 'type'; type: PostTypeInfo };

/** Fields computed together (one plugin's `yoast_head` and `yoast_head_json` share one head). */
export interface RestFieldGroup {
  /** The fields' names, in the order they are added. */
  names: readonly string[];
  /** Whether the fields are registered for this object (register_rest_field's object types). */
  registeredFor(object: RestFieldObject): boolean;
  /** The values of `wanted` (the group's fields the request asks for, never none) for one object. */
  get(ctx: HandlerContext<Store, Site>, object: RestFieldObject, wanted: readonly string[]): Promise<Record<string, unknown>>;
  /**
   * Told, before `get` is asked for each, of the objects a request shows together (a page of a
   * list), those the group is registered for: what their fields read can be read for all at once.
   */
  prepare?(ctx: HandlerContext<Store, Site>, objects: readonly RestFieldObject[]): void;
}

/** A plugin's hooks with its name, for failure reports. */
export interface NamedSiteHooks {
  plugin: string;
  hooks: SiteHooks;
}

/** A plugin's listener to content changes, with its name. */
export interface NamedContentListener {
  plugin: string;
  listener(event: ContentEvent, store: Store, site: Site): Promise<void> | void;
}

/** What a job runs with: the site's store (a job wanting a transaction opens its own), the site, and its log. */
export interface JobContext {
  store: Store;
  site: Site;
  log: Logger;
}

/** A recurring job of the scheduler (src/core/cron.ts; a WordPress cron event with a schedule): the core's, or a plugin's (its definition's `jobs`). */
export interface CronJob {
  /** Its name, as WordPress names cron hooks (`wp_scheduled_delete`); one job per hook on a site. */
  hook: string;
  /** Seconds between runs: WordPress's schedules are hourly (3600), twicedaily (43200), daily (86400) and weekly (604800). */
  interval: number;
  run(job: JobContext): Promise<void>;
}

/** A plugin as WordPress's plugins screen and `wp/v2/plugins` show it. */
export interface PluginStatus {
  /** `folder/file`, e.g. `code-snippets/code-snippets`. */
  plugin: string;
  name: string;
  title: string;
  version: string;
  description: string;
  author: string;
  pluginUri: string;
  authorUri: string;
  status: 'active' | 'inactive';
  dependsOn: readonly string[];
  /** Why it cannot be activated (failed to load, or its migration failed), if it cannot. */
  error?: string;
}

/** Plugin activation as the core's REST routes and CLI reach it; the plugin registry implements it. */
export interface PluginControl {
  list(): PluginStatus[];
  get(pluginOrName: string): PluginStatus | undefined;
  /** Activates or deactivates; throws a RestError saying why when it cannot. Resolves once the routes are rebuilt. */
  setActive(pluginOrName: string, active: boolean): Promise<PluginStatus>;
  /** Installs the slug's plugin from the trusted source (inactive); throws WordPress's RestError when it cannot. */
  install(slug: string): Promise<PluginStatus>;
  /** Deletes an inactive plugin with its data; resolves to what it was. */
  uninstall(pluginOrName: string): Promise<PluginStatus>;
  /** The active plugins' definitions, in load order, as far as the core's services read them. */
  activeDefinitions(): readonly DeclaredOutbound[];
}

/** What a plugin's definition says of the hosts it talks to (read by site health's reachability test). */
export interface DeclaredOutbound {
  title: string;
  /** Its options and their defaults: the values `outbound.hosts` is given are these, as stored now. */
  settings?: Readonly<Record<string, string>>;
  outbound?: { hosts?(options: Readonly<Record<string, string>>): string[] };
}

/**
 * The site as the core knows it: its identity as stored in its options (cached in memory), and
 * what its active plugins have registered (content types, roles' capabilities, site hooks).
 * Anything that changes those options calls `refresh()`, which reloads them and tells listeners
 * (the engine rebuilds its index buffers then, never per request).
 */
export class Site implements EngineHost {
  info!: SiteInfo;
  /** The home URL without a trailing slash. */
  home = '';
  /** `{home}/{prefix}/` — the API root clients discover. */
  apiRoot = '';
  /** The Link header every answer carries so clients find the API (rest_output_link_header). */
  linkHeader = '';
  /** Other options read often (permalink_structure, date formats...), by option name. */
  options: Record<string, string> = {};
  /** The site's logo and icon (attachment ids, 0 for none) and the icon's full-size URL, as the root index shows them; read with the options. */
  identityImages = { site_logo: 0, site_icon: 0, site_icon_url: '' };
  /** Path of the application-authorization page. */
  readonly authPath: string;
  /** Path of the admin (WordPress's /wp-admin/), with its login screen at `{adminPath}login`; ends with a slash. */
  readonly adminPath: string;
  readonly defaults: SiteInfo;
  /** Registered by the core and the active plugins; replaced whole when a plugin is (de)activated. */
  types = new ContentTypes();
  roles = new Roles();
  hooks: readonly NamedSiteHooks[] = [];
  /** The REST fields the active plugins compute for posts, terms, users and post types (rest-fields.ts). */
  restFields: readonly RestFieldGroup[] = [];
  /**
   * The block types, patterns and pattern categories of the core and the active plugins; renders
   * block content. Empty until the plugin registry starts, which registers the core's blocks first.
   */
  blocks = new BlockRegistry();
  contentListeners: readonly NamedContentListener[] = [];
  /** The active plugins' recurring jobs (their definitions' `jobs`), run by the scheduler. */
  jobs: readonly CronJob[] = [];
  /** The scheduler of a serving instance, told of content changes so a post scheduled through it is published on time. */
  scheduler?: { contentChanged(event: ContentEvent): void };
  /** Set once the plugin registry has started. */
  plugins!: PluginControl;
  /** Versions of what instances sharing the database keep in memory (see shared-state.ts). */
  readonly shared: SharedState;
  /** The uploads and attachments (WordPress's media library), for the core's routes and plugins that import images. */
  media!: MediaLibrary;
  /** Where the site's mail goes (its SMTP server, or the log); see notices.ts for what it sends. */
  mail!: Mailer;
  private listeners: (() => void)[] = [];

  constructor(
    readonly spec: Spec,
    readonly store: Store,
  ) {
    this.authPath = String(spec.settings.auth_path ?? '/cms-admin/authorize-application');
    this.adminPath = String(spec.settings.admin_path ?? '/cms-admin/').replace(/\/*$/, '/');
    this.defaults = siteDefaults(spec);
    this.shared = new SharedState(store);
    this.shared.on('options', () => this.refresh());
  }

  /** After this instance wrote options: reload them here, and tell the instances sharing the database. */
  async optionsChanged(): Promise<void> {
    await this.refresh();
    await this.shared.changed('options');
  }

  /**
   * Writes the spec's defaults for options not stored yet (a new site); `baseUrl` stands in for an
   * empty url/home. An empty `baseUrl` leaves the address empty (`seed` on a new file, which does
   * not know where the site will be served); the first install with one (`serve`) then fills it.
   */
  async install(baseUrl: string): Promise<string[]> {
    const values: Record<string, string> = {};
    for (const [field, option] of Object.entries(OPTION_OF) as [keyof SiteInfo, string][]) {
      const v = this.defaults[field];
      values[option] = (field === 'url' || field === 'home') && !v ? baseUrl : String(v);
    }
    const added = await this.store.options.addMissing(values);
    if (baseUrl) {
      const address = await this.store.options.getMany([OPTION_OF.url, OPTION_OF.home]);
      for (const [option, value] of Object.entries(address)) if (value === '') await this.store.options.set(option, baseUrl);
    }
    await this.refresh();
    return added;
  }

  async refresh(): Promise<void> {
    const stored = await this.store.options.getMany([...Object.values(OPTION_OF), ...EXTRA_OPTIONS]);
    const info = {} as Record<string, unknown>;
    for (const [field, option] of Object.entries(OPTION_OF) as [keyof SiteInfo, string][]) {
      const v = stored[option] ?? String(this.defaults[field]);
      info[field] = NUMERIC_FIELDS.has(field) ? Number(v) || 0 : (field === 'url' || field === 'home') && !v ? UNSERVED_ADDRESS : v;
    }
    this.info = info as unknown as SiteInfo;
    this.home = this.info.home.replace(/\/+$/, '');
    this.apiRoot = `${this.home}/${this.spec.apiPrefix}/`;
    this.linkHeader = `<${this.apiRoot}>; rel="https://api.w.org/"`;
    this.options = stored;
    const [logo, icon, iconUrl] = await Promise.all([siteLogoId(this.store), siteIconId(this.store), siteIconUrl(this.store)]);
    this.identityImages = { site_logo: logo, site_icon: icon, site_icon_url: iconUrl };
    for (const l of this.listeners) l();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * The root index (`GET /{prefix}/`) in WordPress's key order: the site description, the
   * namespaces, the authentication scheme, the routes, then the site's logo and icon
   * (add_site_logo_to_index, add_site_icon_to_index), each linked as an embeddable
   * `wp:featuredmedia` when set.
   */
  rootIndex(namespaces: string[], routes: Record<string, unknown>, restUrl: (path: string) => string): Record<string, unknown> {
    const images = this.identityImages;
    const media = (['site_logo', 'site_icon'] as const).filter((type) => images[type]).map((type) => ({ embeddable: true, type, href: restUrl(`cms/v2/media/${images[type]}`) }));
    return {
      ...this.info,
      namespaces,
      authentication: { 'application-passwords': { endpoints: { authorization: this.url(this.authPath) } } },
      routes,
      ...images,
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }], ...(media.length ? { 'wp:featuredmedia': media, curies: CURIES } : {}) },
    };
  }

  /**
   * add_active_theme_link_to_index: a user who may switch themes, or edit posts of any type, is
   * shown where the active theme is (the block editor reads its supports there).
   */
  indexLinks(user: User | null, restUrl: (path: string) => string): Record<string, unknown[]> | undefined {
    if (!user) return undefined;
    const may = ['switch_themes', 'manage_network_themes', 'edit_posts'].some((c) => user.caps.has(c)) || this.types.postTypes.some((t) => t.showInRest !== false && user.caps.has(cap(t, 'edit_posts')));
    if (!may) return undefined;
    return { 'wp:active-theme': [{ href: restUrl(`cms/v2/themes/${STYLESHEET}`) }], curies: CURIES };
  }

  /**
   * Route templates' instances: `post_type` is every post type a plugin registered, with its slug
   * and rest base, as WordPress registers a REST controller per show_in_rest type.
   */
  routeInstances(each: string): readonly Readonly<Record<string, string>>[] {
    if (each !== 'post_type') return [];
    return this.types.pluginPostTypes.map((t) => ({ slug: t.slug, rest_base: t.restBase }));
  }

  /** rest_url(): the absolute URL of an API path. */
  restUrl(path: string): string {
    return this.apiRoot + path.replace(/^\/+/, '');
  }

  /** An absolute URL on the site itself. */
  url(path: string): string {
    return this.home + (path.startsWith('/') ? path : `/${path}`);
  }

  /** The site's clock: timezone_string, else gmt_offset (wp_timezone). */
  get clock(): SiteClock {
    return { home: this.home, gmtOffsetHours: Number(this.info.gmt_offset) || 0, timezone: this.info.timezone_string };
  }

  /** The site's calendar date ('YYYY-MM-DD') at an instant, on its clock. */
  localDate(at: Date = new Date()): string {
    return new Date(at.getTime() + offsetMinutes(this.clock, at) * 60000).toISOString().slice(0, 10);
  }

  /**
   * PHP's date('c') of a site-local time as get_post_time and mysql2date give it: the time read on
   * the site's clock (date_create with wp_timezone), so its offset is the site's at that time,
   * whatever GMT time the row keeps beside it (imported rows keep their old site's).
   */
  isoDate(local: string): string {
    const minutes = Math.round((Date.parse(`${local.replace(' ', 'T')}Z`) - Date.parse(`${fillDates(this.clock, local, undefined, new Date()).gmt.replace(' ', 'T')}Z`)) / 60000) || 0;
    const abs = Math.abs(minutes);
    return `${local.replace(' ', 'T')}${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }
}
