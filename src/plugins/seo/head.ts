import { hexDigest } from '../../core/digests.ts';
import type { HeadMeta, Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import type { PostRow } from '../../store/posts.ts';
import type { UserRow } from '../../store/users.ts';
import type { TermRow } from '../../store/terms.ts';
import { escapeAttr, escapeHtml, excerptText, renderContent, stripAllTags } from '../../format/format.ts';
import { authorPermalink, termLink } from '../../core/permalinks.ts';
import { formatLocalDate } from '../../format/date.ts';
import { attachmentImageSrc } from '../../core/attachment-image.ts';
import { avatarUrls } from '../../core/rest.ts';
import { Text, THRESHOLDS } from './analysis.ts';
import { firstImage, parseContent, type ContentImage } from './content.ts';
import { replaceVars, type Vars } from './replace-vars.ts';
import { META, META_KEYS, OPTION, templates, type TemplateKind } from './settings.ts';
import { postPermalink, type Target } from './targets.ts';

/**
 * The head of a page (Yoast's presenters over a Meta_Tags_Context): title, description, robots,
 * canonical, Open Graph, article times, author, X (Twitter) tags and the schema.org graph, made
 * from the stored content and the plugin's settings. get_head answers it as `{html, json}`; the
 * rendered site prints the same values (the title, description, canonical and robots through the
 * theme, the rest through wp_head).
 */

export interface Presentation {
  status: 200 | 404;
  title: string;
  description: string;
  robots: Record<string, string>;
  canonical?: string;
  og: { locale: string; type: string; title: string; description: string; url: string; site_name: string; images: OgImage[] };
  article: { publisher?: string; published_time?: string; modified_time?: string };
  author?: string;
  twitter: { card: string; title?: string; description?: string; image?: string; site?: string; misc?: Record<string, string> };
  schema: { '@context': string; '@graph': Record<string, unknown>[] };
}

/** An Open Graph image as Yoast's image presenter keeps it: an attachment's size and type, or a bare URL. */
export interface OgImage {
  width?: number;
  height?: number;
  url: string;
  type?: string;
}

const LOCALE = 'en_US';
const LANGUAGE = 'en-US';
const INDEXABLE_ROBOTS = { 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' };

const isoDate = (gmt: string) => `${gmt.replace(' ', 'T')}+00:00`;

/** The site's identity in the graph and the tags: the organisation or person it represents, and its social profiles. */
interface Publisher {
  node?: Record<string, unknown>;
  id?: string;
  sameAs: string[];
  /** The organisation's profile on the first social site (article:publisher). */
  profileA?: string;
  /** The handle on the second social site (twitter:site). */
  handleB?: string;
}

function socialHandle(value: string): string | undefined {
  const v = value.trim();
  if (!v) return undefined;
  const fromUrl = /^https?:\/\/[^/]+\/@?([A-Za-z0-9_]+)/.exec(v);
  return `@${(fromUrl ? fromUrl[1] : v).replace(/^@/, '')}`;
}

const personId = (site: Site, user: Pick<UserRow, 'id' | 'login'>) => `${site.home}/#/schema/person/${hexDigest('sha256', `${user.login}${user.id}`).slice(0, 32)}`;

/** Yoast's Person piece of an author: their avatar (get_avatar_url's 96 px), their website, their archive. */
function personNode(site: Site, user: UserRow): Record<string, unknown> {
  const avatar = avatarUrls(user.email, site.home)['96'];
  return {
    '@type': 'Person',
    '@id': personId(site, user),
    name: user.display_name,
    image: { '@type': 'ImageObject', inLanguage: LANGUAGE, '@id': `${site.home}/#/schema/person/image/`, url: avatar, contentUrl: avatar, caption: user.display_name },
    ...(user.url ? { sameAs: [user.url] } : {}),
    url: authorPermalink(site, user),
  };
}

async function publisherOf(store: Store, site: Site): Promise<Publisher> {
  const o = await store.options.getMany([OPTION.companyOrPerson, OPTION.companyName, OPTION.companyLogo, OPTION.personLogo, OPTION.personUserId, OPTION.socialSiteA, OPTION.socialSiteB, OPTION.otherSocialUrls]);
  let others: string[] = [];
  try {
    const parsed = JSON.parse(o[OPTION.otherSocialUrls] ?? '[]') as unknown;
    if (Array.isArray(parsed)) others = parsed.filter((x): x is string => typeof x === 'string' && x !== '');
  } catch {
    // an unreadable list names no profiles
  }
  const profileA = o[OPTION.socialSiteA] || undefined;
  const handleB = socialHandle(o[OPTION.socialSiteB] ?? '');
  const sameAs = [profileA, handleB ? `https://x.com/${handleB.slice(1)}` : undefined, ...others].filter((x): x is string => !!x);
  const logoNode = (url: string, caption: string) => ({ '@type': 'ImageObject', inLanguage: LANGUAGE, '@id': `${site.home}/#/schema/logo/image/`, url, contentUrl: url, caption });
  if (o[OPTION.companyOrPerson] === 'person') {
    const user = await store.users.get(Number(o[OPTION.personUserId]) || 0);
    if (!user) return { sameAs };
    const logo = o[OPTION.personLogo] || undefined;
    const id = personId(site, user);
    const node = { '@type': ['Person', 'Organization'], '@id': id, name: user.display_name, ...(logo ? { image: logoNode(logo, user.display_name), logo: { '@id': `${site.home}/#/schema/logo/image/` } } : {}), url: authorPermalink(site, user), ...(sameAs.length ? { sameAs } : {}) };
    return { node, id, sameAs, handleB };
  }
  const name = o[OPTION.companyName] ?? '';
  if (!name) return { sameAs, profileA, handleB };
  const logo = o[OPTION.companyLogo] || undefined;
  const id = `${site.home}/#organization`;
  const node = { '@type': 'Organization', '@id': id, name, url: `${site.home}/`, ...(logo ? { logo: logoNode(logo, name), image: { '@id': `${site.home}/#/schema/logo/image/` } } : {}), ...(sameAs.length ? { sameAs } : {}) };
  return { node, id, sameAs, profileA, handleB };
}

/** What a post's head needs besides the row: its SEO meta, author, first category and text. */
interface PostFacts {
  meta: Record<string, string>;
  author?: UserRow;
  categories: { name: string; url: string }[];
  tags: string[];
  /** The content's word count, as the analysis counts words. */
  words: number;
  /** The content formatted as the site shows it (renderContent), which the excerpt is made from. */
  rendered: string;
  /** The first image of the content (Yoast's first-content-image). */
  image?: string;
  /** The featured image (Yoast's featured-image), with its size and type. */
  featured?: OgImage;
  ancestors: PostRow[];
}

const THUMBNAIL_KEY = '_thumbnail_id';

/** The featured image of a post as Open Graph shows an attachment: its full size's width, height, URL and MIME type. */
async function featuredImage(store: Store, thumbnailId: string | undefined): Promise<OgImage | undefined> {
  const id = Number(thumbnailId);
  const src = await attachmentImageSrc(store, id);
  if (!src) return undefined;
  const attachment = await store.posts.get(id);
  const [url, width, height] = src;
  return { ...(width ? { width } : {}), ...(height ? { height } : {}), url, ...(attachment?.mime_type ? { type: attachment.mime_type } : {}) };
}

/** What a head reads of a post's content, which depends on the content alone. */
interface ContentFacts {
  words: number;
  images: readonly ContentImage[];
  rendered: string;
}

/** Content facts are kept by the content they were read from, up to this many characters of content and formatted text together (the oldest out first). */
const KEPT_CONTENT_CHARS = 8_000_000;
const keptContentFacts = new Map<string, ContentFacts>();
let keptContentChars = 0;

/** Formatting, parsing and counting the words of a post's content, once per content (each list of it made them again, three times a post). */
function contentFacts(raw: string): ContentFacts {
  const kept = keptContentFacts.get(raw);
  if (kept) return kept;
  const parsed = parseContent(raw);
  const facts = { words: new Text(parsed).words.length, images: parsed.images, rendered: renderContent(raw) };
  const size = raw.length + facts.rendered.length;
  if (size > KEPT_CONTENT_CHARS) return facts;
  for (const [content, old] of keptContentFacts) {
    if (keptContentChars + size <= KEPT_CONTENT_CHARS) break;
    keptContentFacts.delete(content);
    keptContentChars -= content.length + old.rendered.length;
  }
  keptContentFacts.set(raw, facts);
  keptContentChars += size;
  return facts;
}

/** A post's facts from what was read of it (its SEO meta, its author's row, its terms): the rest read or made here. */
async function postFacts(store: Store, site: Site, post: PostRow, own: Record<string, string>, author: UserRow | undefined, postTerms: readonly TermRow[]): Promise<PostFacts> {
  const categoryTax = site.types.taxonomy('category');
  const categories = categoryTax ? await Promise.all(postTerms.filter((t) => t.taxonomy === 'category').map(async (t) => ({ name: t.name, url: await termLink(store, site, categoryTax, t) }))) : [];
  const content = contentFacts(post.content);
  const ancestors: PostRow[] = [];
  const seen = new Set([post.id]);
  for (let parent = post.parent; parent && !seen.has(parent); ) {
    seen.add(parent);
    const row = await store.posts.get(parent);
    if (!row) break;
    ancestors.unshift(row);
    parent = row.parent;
  }
  return {
    meta: own,
    author,
    categories,
    tags: postTerms.filter((t) => t.taxonomy === 'post_tag').map((t) => t.name),
    words: content.words,
    rendered: content.rendered,
    image: firstImage(content.images, `${site.home}/`),
    featured: await featuredImage(store, own[THUMBNAIL_KEY]),
    ancestors,
  };
}

/** The plugin's settings a head is made from: the same for every head of a request. */
interface HeadSettings {
  templates: Awaited<ReturnType<typeof templates>>;
  publisher: Publisher;
  blogPublic: string | undefined;
}

/**
 * What the heads of one request read, read once: the plugin's settings, and the facts of the
 * posts it shows, read together for a page of a list (their SEO meta, authors and terms in one
 * query each, not one of each per post).
 */
export class HeadReads {
  private settings: Promise<HeadSettings> | undefined;
  private headless: Promise<string | undefined> | undefined;
  private readonly facts = new Map<number, Promise<PostFacts>>();

  constructor(
    private readonly store: Store,
    private readonly site: Site,
  ) {}

  settingsOf(): Promise<HeadSettings> {
    const { store, site } = this;
    return (this.settings ??= Promise.all([templates(store), publisherOf(store, site), store.options.get('blog_public')]).then(([t, publisher, blogPublic]) => ({ templates: t, publisher, blogPublic })));
  }

  /** The headless endpoints setting: '0' when the REST heads are off. */
  headlessRest(): Promise<string | undefined> {
    return (this.headless ??= this.store.options.get(OPTION.headlessRest));
  }

  /** Reads the facts of the posts not read yet, together. */
  preload(posts: readonly PostRow[]): void {
    const { store, site } = this;
    const fresh = posts.filter((p) => !this.facts.has(p.id));
    if (!fresh.length) return;
    const ids = fresh.map((p) => p.id);
    const together = Promise.all([store.posts.meta.ofMany(ids, [...META_KEYS, THUMBNAIL_KEY]), store.users.getMany([...new Set(fresh.map((p) => p.author))]), store.terms.termsOfPosts(ids)]);
    for (const post of fresh) {
      const facts = together.then(([meta, authors, terms]) => postFacts(store, site, post, meta.get(post.id) ?? {}, authors.find((a) => a.id === post.author), terms.get(post.id) ?? []));
      // a post whose head is never asked for (its request failed before) leaves no rejection unhandled
      facts.catch(() => undefined);
      this.facts.set(post.id, facts);
    }
  }

  factsOf(post: PostRow): Promise<PostFacts> {
    this.preload([post]);
    return this.facts.get(post.id)!;
  }
}

/** The variables every template may use, and the page's own. */
export function siteVars(site: Site, separator: string, paged: number): Vars {
  return { sitename: site.info.name, sitedesc: site.info.description, sep: separator, page: paged > 1 ? `Page ${paged}` : '', currentyear: String(new Date().getUTCFullYear()) };
}

/** The %%variables%% of a post (its title, excerpt, author, category, keyphrase, type). */
export function postVars(site: Site, post: PostRow, facts: { meta: Record<string, string>; authorName?: string; category?: string; rendered?: string }): Vars {
  const type = site.types.postType(post.type);
  return {
    title: post.title,
    excerpt: stripAllTags(excerptText(post.excerpt, facts.rendered ?? renderContent(post.content), 55, '')),
    excerpt_only: post.excerpt,
    name: facts.authorName ?? '',
    category: facts.category ?? '',
    primary_category: facts.category ?? '',
    focuskw: facts.meta[META.focusKeyphrase] ?? '',
    pt_single: type?.singular ?? '',
    pt_plural: type?.name ?? '',
    date: formatLocalDate('F j, Y', post.date),
  };
}

/** The SEO title of a post: its own (variables replaced), else its type's template. */
export function postTitle(titles: Record<string, string>, vars: Vars, post: PostRow, meta: Record<string, string>): string {
  return replaceVars(meta[META.title] || titles[post.type] || titles.post, vars);
}

export async function present(store: Store, site: Site, target: Target, reads = new HeadReads(store, site)): Promise<Presentation> {
  const {
    templates: { titles, descriptions, separator },
    publisher,
    blogPublic,
  } = await reads.settingsOf();
  const paged = target.kind === '404' ? 1 : target.paged;
  const vars = siteVars(site, separator, paged);
  const home = `${site.home}/`;
  const websiteId = `${site.home}/#website`;
  const graph: Record<string, unknown>[] = [];
  const crumbs: { name: string; url?: string }[] = [{ name: 'Home', url: home }];
  let kind: TemplateKind;
  // what og:description shows when neither its own nor the meta description is set (the excerpt, the term's description, the tagline)
  let ogFallbackDescription = '';
  let pageType: string | string[] = 'CollectionPage';
  // Yoast's og:type: an article, but for the home page and the blog (website) and an author (profile)
  let ogType = 'article';
  let noindex = target.kind === '404' || target.kind === 'search';
  let nofollow = false;
  let canonical: string | undefined = target.url;
  let ogTitle: string | undefined;
  let ogDescription: string | undefined;
  const images: OgImage[] = [];
  let twitter: Presentation['twitter'] = { card: 'summary_large_image' };
  const article: Presentation['article'] = {};
  let author: string | undefined;
  let post: PostRow | undefined;
  let facts: PostFacts | undefined;
  let pageName: string | undefined;

  switch (target.kind) {
    case 'post': {
      post = target.post;
      facts = await reads.factsOf(post);
      Object.assign(vars, postVars(site, post, { meta: facts.meta, authorName: facts.author?.display_name, category: facts.categories[0]?.name, rendered: facts.rendered }));
      // a static front page is the home page: its title is the home's unless it has its own SEO title
      kind = target.isFront ? 'home' : post.type === 'page' ? 'page' : 'post';
      ogFallbackDescription = target.isPostsPage ? '' : excerptText(post.excerpt, facts.rendered);
      pageType = target.isPostsPage ? 'CollectionPage' : 'WebPage';
      ogType = target.isFront || target.isPostsPage ? 'website' : 'article';
      const m = facts.meta;
      noindex = m[META.noindex] === '1';
      nofollow = m[META.nofollow] === 'true';
      if (m[META.canonical]) canonical = m[META.canonical];
      ogTitle = m[META.ogTitle] || undefined;
      ogDescription = m[META.ogDescription] || undefined;
      // Yoast's Open Graph image: the post's own, else its featured image, else the first image of its content
      const image: OgImage | undefined = m[META.ogImage] ? { url: m[META.ogImage] } : (facts.featured ?? (facts.image ? { url: facts.image } : undefined));
      if (image) images.push(image);
      twitter = { card: 'summary_large_image', title: m[META.twitterTitle] || undefined, description: m[META.twitterDescription] || undefined, image: m[META.twitterImage] || undefined };
      if (!target.isFront && !target.isPostsPage) {
        if (publisher.profileA && publisher.node?.['@type'] === 'Organization') article.publisher = publisher.profileA;
        if (post.type === 'post') article.published_time = isoDate(post.date_gmt);
        if (post.modified_gmt !== post.date_gmt) article.modified_time = isoDate(post.modified_gmt);
      }
      if (post.type === 'post' && facts.author) author = facts.author.display_name;
      // Slack's enhanced data (twitter:misc): the author of a post, the reading time of any singular page but the static front page
      if (!target.isFront && !target.isPostsPage) {
        const minutes = Math.max(1, Math.ceil(facts.words / THRESHOLDS.readingSpeedWordsPerMinute));
        twitter.misc = { ...(author ? { 'Written by': author } : {}), 'Est. reading time': `${minutes} minute${minutes === 1 ? '' : 's'}` };
      }
      if (!target.isFront) {
        for (const a of facts.ancestors) crumbs.push({ name: a.title, url: await postPermalink(store, site, a) });
        crumbs.push({ name: m[META.breadcrumbTitle] || post.title });
      }
      if (!target.isFront || m[META.title]) pageName = postTitle(titles, vars, post, m);
      break;
    }
    case 'home':
      kind = 'home';
      ogType = 'website';
      ogFallbackDescription = site.info.description;
      break;
    case 'term': {
      kind = target.term.taxonomy === 'category' || target.term.taxonomy === 'post_tag' ? (target.term.taxonomy as TemplateKind) : 'term';
      Object.assign(vars, { term_title: target.term.name, title: target.term.name, term_description: target.term.description });
      ogFallbackDescription = target.term.description;
      const ancestors: string[] = [];
      for (let parent = target.term.parent; parent && !ancestors.includes(String(parent)); ) {
        const row = await store.terms.get(parent);
        if (!row) break;
        crumbs.splice(1, 0, { name: row.name, url: await termLink(store, site, target.taxonomy, row) });
        ancestors.push(String(parent));
        parent = row.parent;
      }
      crumbs.push({ name: target.term.name });
      break;
    }
    case 'author':
      kind = 'author';
      Object.assign(vars, { name: target.user.display_name, title: target.user.display_name });
      pageType = 'ProfilePage';
      ogType = 'profile';
      crumbs.push({ name: `Archives for ${target.user.display_name}` });
      break;
    case 'date': {
      kind = 'date';
      const d = target.date;
      const local = `${String(d.year).padStart(4, '0')}-${String(d.month ?? 1).padStart(2, '0')}-${String(d.day ?? 1).padStart(2, '0')} 00:00:00`;
      vars.date = d.day ? formatLocalDate(site.options.date_format || 'F j, Y', local) : d.month ? formatLocalDate('F Y', local) : String(d.year);
      crumbs.push({ name: `Archives for ${vars.date}` });
      break;
    }
    case 'search':
      kind = 'search';
      vars.searchphrase = target.search;
      pageType = ['CollectionPage', 'SearchResultsPage'];
      canonical = undefined;
      crumbs.push({ name: `You searched for ${target.search}` });
      break;
    case '404':
      kind = '404';
      canonical = undefined;
      crumbs.push({ name: 'Error 404: Page not found' });
      break;
  }

  const title = pageName ?? replaceVars(titles[kind] ?? '', vars);
  // Yoast's meta description is the page's own or its template's, never a text of the page
  const description = stripAllTags(replaceVars((post && facts?.meta[META.description]) || descriptions[kind] || '', vars)).trim();
  if (blogPublic === '0') (noindex = true), (nofollow = true);
  const robots: Record<string, string> = { index: noindex ? 'noindex' : 'index', follow: nofollow ? 'nofollow' : 'follow', ...(noindex ? {} : INDEXABLE_ROBOTS) };
  // a page that asks not to be indexed names no canonical URL (Yoast's canonical presenter)
  if (noindex) canonical = undefined;
  const url = canonical ?? target.url;

  const website = {
    '@type': 'WebSite',
    '@id': websiteId,
    url: home,
    name: site.info.name,
    description: site.info.description,
    ...(publisher.id ? { publisher: { '@id': publisher.id } } : {}),
    potentialAction: [{ '@type': 'SearchAction', target: { '@type': 'EntryPoint', urlTemplate: `${site.home}/?s={search_term_string}` }, 'query-input': { '@type': 'PropertyValueSpecification', valueRequired: true, valueName: 'search_term_string' } }],
    inLanguage: LANGUAGE,
  };
  const image = images[0];
  if (target.kind !== '404') {
    const webpageId = url;
    const breadcrumbId = `${url}#breadcrumb`;
    const webpage: Record<string, unknown> = { '@type': pageType, '@id': webpageId, url, name: title, isPartOf: { '@id': websiteId } };
    if (target.kind === 'post' && target.isFront && publisher.id) webpage.about = { '@id': publisher.id };
    if (image) Object.assign(webpage, { primaryImageOfPage: { '@id': `${url}#primaryimage` }, image: { '@id': `${url}#primaryimage` }, thumbnailUrl: image.url });
    if (post) Object.assign(webpage, { datePublished: isoDate(post.date_gmt), dateModified: isoDate(post.modified_gmt) });
    if (description) webpage.description = description;
    Object.assign(webpage, { breadcrumb: { '@id': breadcrumbId }, inLanguage: LANGUAGE, potentialAction: [{ '@type': 'ReadAction', target: [url] }] });
    if (post?.type === 'post' && facts && target.kind === 'post' && !target.isFront) {
      const articleNode: Record<string, unknown> = {
        '@type': 'Article',
        '@id': `${url}#article`,
        isPartOf: { '@id': webpageId },
        ...(facts.author ? { author: { name: facts.author.display_name, '@id': personId(site, facts.author) } } : {}),
        headline: post.title,
        datePublished: isoDate(post.date_gmt),
        dateModified: isoDate(post.modified_gmt),
        mainEntityOfPage: { '@id': webpageId },
        wordCount: facts.words,
        commentCount: post.comment_count,
        ...(publisher.id ? { publisher: { '@id': publisher.id } } : {}),
        ...(image ? { image: { '@id': `${url}#primaryimage` }, thumbnailUrl: image.url } : {}),
        ...(facts.tags.length ? { keywords: facts.tags } : {}),
        ...(facts.categories.length ? { articleSection: facts.categories.map((c) => c.name) } : {}),
        inLanguage: LANGUAGE,
        // an invitation to comment while comments are open
        ...(post.comment_status === 'open' ? { potentialAction: [{ '@type': 'CommentAction', name: 'Comment', target: [`${url}#respond`] }] } : {}),
      };
      graph.push(articleNode);
    }
    graph.push(webpage);
    if (image)
      graph.push({ '@type': 'ImageObject', inLanguage: LANGUAGE, '@id': `${url}#primaryimage`, url: image.url, contentUrl: image.url, ...(image.width ? { width: image.width } : {}), ...(image.height ? { height: image.height } : {}) });
    graph.push({
      '@type': 'BreadcrumbList',
      '@id': breadcrumbId,
      itemListElement: crumbs.map((c, i) => ({ '@type': 'ListItem', position: i + 1, name: c.name, ...(c.url && i < crumbs.length - 1 ? { item: c.url } : {}) })),
    });
  }
  // Yoast's order: the page's pieces, then the WebSite, the site's organisation or person, and the author
  graph.push(website);
  if (publisher.node) graph.push(publisher.node);
  if (post?.type === 'post' && facts?.author && target.kind === 'post' && !target.isFront && personId(site, facts.author) !== publisher.id) graph.push(personNode(site, facts.author));

  ogTitle ??= title;
  ogDescription ??= description || stripAllTags(ogFallbackDescription).trim();
  if (publisher.handleB) twitter.site = publisher.handleB;
  return {
    status: target.kind === '404' ? 404 : 200,
    title,
    description,
    robots,
    canonical,
    og: { locale: LOCALE, type: ogType, title: ogTitle, description: ogDescription, url, site_name: site.info.name, images },
    article,
    author,
    twitter,
    schema: { '@context': 'https://schema.org', '@graph': graph },
  };
}

/** The page's title, description, canonical and robots as the theme prints them. */
export function headMeta(p: Presentation): HeadMeta {
  return { title: p.title, description: p.description, canonical: p.canonical, robots: Object.values(p.robots).join(', ') };
}

/**
 * The head as Yoast's presenters give it, in their order, each one's key with `:`, space and `-`
 * made `_` (Meta::get_head's `json`): a presenter with nothing to say is left out.
 */
export function headJson(p: Presentation): Record<string, unknown> {
  const all = headJsonOfAll(p);
  return p.status === 404 ? Object.fromEntries(Object.entries(all).filter(([k]) => ERROR_PAGE_KEYS.includes(k))) : all;
}

/** Yoast's presenters of an error page: title, description, robots, og:locale, og:title, og:site_name and the schema. */
const ERROR_PAGE_KEYS = ['title', 'description', 'robots', 'og_locale', 'og_title', 'og_site_name', 'schema'];

function headJsonOfAll(p: Presentation): Record<string, unknown> {
  const out: Record<string, unknown> = {
    title: p.title,
    description: p.description,
    robots: p.robots,
    canonical: p.canonical,
    og_locale: p.og.locale,
    og_type: p.og.type,
    og_title: p.og.title,
    og_description: p.og.description,
    og_url: p.og.url,
    og_site_name: p.og.site_name,
    article_publisher: p.article.publisher,
    article_published_time: p.article.published_time,
    article_modified_time: p.article.modified_time,
    og_image: p.og.images.length ? p.og.images : undefined,
    author: p.author,
    twitter_card: p.twitter.card,
    twitter_title: p.twitter.title,
    twitter_description: p.twitter.description,
    twitter_image: p.twitter.image,
    twitter_site: p.twitter.site,
    twitter_misc: p.twitter.misc && Object.keys(p.twitter.misc).length ? p.twitter.misc : undefined,
    schema: p.schema,
  };
  for (const [k, v] of Object.entries(out)) if (v === undefined || v === '') delete out[k];
  return out;
}

/** The debug markers around the head; the plugin names itself, where Yoast says "Yoast SEO plugin". */
const PRODUCT = 'SEO plugin';
const MARKER_OPEN = (version: string) => `<!-- This site is optimized with the ${PRODUCT} v${version} -->`;
const MARKER_CLOSE = `<!-- / ${PRODUCT}. -->`;
/** What Yoast's meta description presenter says to an SEO manager when a page has no description. */
export const NO_DESCRIPTION_NOTICE =
  '<!-- Admin only notice: this page does not show a meta description because it does not have one, either write it for this page specifically or go into the [SEO - Settings] menu and set up a template. -->';

const metaTag = (attr: 'name' | 'property', key: string, value: string | undefined) => (value ? `<meta ${attr}="${key}" content="${escapeAttr(value)}" />` : '');

/** JSON inside <script>: `<` escaped so no text in it can close the element. */
const scriptJson = (data: unknown) => JSON.stringify(data).replace(/</g, '\\u003c');

export interface HeadHtmlOptions {
  /** The plugin's version, in the opening marker. */
  version: string;
  /** With the title, description, robots and canonical (off: the rendered site's theme prints them, from headMeta). */
  withThemeTags: boolean;
  /** The viewer may manage the SEO settings: a page without a description says so in a comment, as Yoast tells them. */
  seoManager: boolean;
}

/** The head's HTML as Yoast's presenters print it (Meta::get_head's `html`): one presenter a line, between the markers. */
export function headHtml(p: Presentation, o: HeadHtmlOptions): string {
  const lines: string[] = [MARKER_OPEN(o.version)];
  if (o.withThemeTags) {
    lines.push(`<title>${escapeHtml(p.title)}</title>`);
    lines.push(p.description ? metaTag('name', 'description', p.description) : o.seoManager ? NO_DESCRIPTION_NOTICE : '');
    lines.push(metaTag('name', 'robots', Object.values(p.robots).join(', ')));
    if (p.canonical) lines.push(`<link rel="canonical" href="${escapeAttr(p.canonical)}" />`);
  }
  if (p.status === 404) lines.push(metaTag('property', 'og:locale', p.og.locale), metaTag('property', 'og:title', p.og.title), metaTag('property', 'og:site_name', p.og.site_name));
  else lines.push(...socialTags(p));
  lines.push(`<script type="application/ld+json" class="yoast-schema-graph">${scriptJson(p.schema)}</script>`, MARKER_CLOSE);
  return lines.filter((l) => l !== '').join('\n');
}

/** Open Graph, the article's times, the author and X (Twitter) tags, in the presenters' order. */
function socialTags(p: Presentation): string[] {
  return [
    metaTag('property', 'og:locale', p.og.locale),
    metaTag('property', 'og:type', p.og.type),
    metaTag('property', 'og:title', p.og.title),
    metaTag('property', 'og:description', p.og.description),
    metaTag('property', 'og:url', p.og.url),
    metaTag('property', 'og:site_name', p.og.site_name),
    metaTag('property', 'article:publisher', p.article.publisher),
    metaTag('property', 'article:published_time', p.article.published_time),
    metaTag('property', 'article:modified_time', p.article.modified_time),
    // each image, its width, height and type on lines of their own after it
    p.og.images
      .map((i) => [metaTag('property', 'og:image', i.url), ...(['width', 'height', 'type'] as const).filter((k) => i[k]).map((k) => metaTag('property', `og:image:${k}`, String(i[k])))].join('\n\t'))
      .join(''),
    metaTag('name', 'author', p.author),
    metaTag('name', 'twitter:card', p.twitter.card),
    metaTag('name', 'twitter:title', p.twitter.title),
    metaTag('name', 'twitter:description', p.twitter.description),
    metaTag('name', 'twitter:image', p.twitter.image),
    metaTag('name', 'twitter:site', p.twitter.site),
    Object.entries(p.twitter.misc ?? {})
      .flatMap(([label, data], i) => [metaTag('name', `twitter:label${i + 1}`, label), metaTag('name', `twitter:data${i + 1}`, data)])
      .join('\n\t'),
  ];
}
