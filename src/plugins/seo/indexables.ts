import type { PostTypeInfo } from '../../core/content-types.ts';
import type { Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import type { PostRow } from '../../store/posts.ts';
import type { TermRow } from '../../store/terms.ts';
import { termLink } from '../../core/permalinks.ts';
import { readabilityAnalysis, seoAnalysis, Text } from './analysis.ts';
import { parseContent } from './content.ts';
import { postTitle, postVars, siteVars } from './head.ts';
import { linkKind } from './links.ts';
import { replaceVars } from './replace-vars.ts';
import type { IndexableFields } from './repo.ts';
import { META, META_KEYS, templates } from './settings.ts';
import { postPermalink, VIEWABLE_POST_TYPES } from './targets.ts';

/**
 * The indexable builders (Yoast's Indexable_*_Builder): what the plugin stores of each post, term,
 * post-type archive and general page, with the SEO and readability analysis of its text.
 */

const nullIfEmpty = (s: string | undefined) => (s ? s : null);
const toInt = (b: boolean) => (b ? 1 : 0);

/** The post types whose posts get indexables: those with pages of their own on the site. */
export const indexedPostTypes = (site: Site): string[] => site.types.postTypes.filter((t) => t.viewable && VIEWABLE_POST_TYPES.includes(t.slug)).map((t) => t.slug);

/** The post types with an archive page of their own (register_post_type's has_archive). */
export const archivedPostTypes = (site: Site): PostTypeInfo[] => site.types.postTypes.filter((t) => t.viewable && t.hasArchive);

export const indexedTaxonomies = (site: Site): string[] => site.types.taxonomies.filter((t) => t.viewable).map((t) => t.slug);

/** A post type archive's URL: `{home}/{type}/`, or `?post_type=` with plain permalinks. */
export const postTypeArchiveUrl = (site: Site, type: PostTypeInfo) => (site.options.permalink_structure ? `${site.home}/${type.slug}/` : `${site.home}/?post_type=${type.slug}`);

/** Builds the indexables of a batch of posts (their meta, authors and categories read in one go each). */
export async function buildPostIndexables(store: Store, site: Site, posts: PostRow[]): Promise<IndexableFields[]> {
  if (!posts.length) return [];
  const ids = posts.map((p) => p.id);
  const [{ titles, separator }, metas, categories, authors] = await Promise.all([
    templates(store),
    store.posts.meta.ofMany(ids, META_KEYS),
    store.terms.termsOfPosts(ids, 'category'),
    store.users.getMany([...new Set(posts.map((p) => p.author))]),
  ]);
  const authorName = new Map(authors.map((u) => [u.id, u.display_name]));
  const out: IndexableFields[] = [];
  for (const post of posts) {
    const meta = metas.get(post.id) ?? {};
    const url = await postPermalink(store, site, post);
    const vars = { ...siteVars(site, separator, 1), ...postVars(site, post, { meta, authorName: authorName.get(post.author), category: categories.get(post.id)?.[0]?.name }) };
    const text = new Text(parseContent(post.content));
    const seo = seoAnalysis({
      keyphrase: meta[META.focusKeyphrase] ?? '',
      title: postTitle(titles, vars, post, meta),
      slug: post.slug,
      metaDescription: replaceVars(meta[META.description] ?? '', vars),
      text,
      isInternal: (link) => linkKind(link.href, url, site) === 'internal',
    });
    const readability = readabilityAnalysis(text);
    const noindex = meta[META.noindex];
    out.push({
      object_type: 'post',
      object_sub_type: post.type,
      object_id: post.id,
      permalink: url,
      author_id: post.author,
      post_parent: post.parent,
      title: nullIfEmpty(meta[META.title]),
      description: nullIfEmpty(meta[META.description]),
      breadcrumb_title: meta[META.breadcrumbTitle] || post.title,
      post_status: post.status,
      is_public: noindex === '1' ? 0 : noindex === '2' ? 1 : null,
      is_protected: toInt(post.password !== ''),
      canonical: nullIfEmpty(meta[META.canonical]),
      primary_focus_keyword: nullIfEmpty(meta[META.focusKeyphrase]),
      primary_focus_keyword_score: seo.score,
      readability_score: readability.score,
      seo_assessments: seo.results.length ? JSON.stringify(seo.results) : null,
      readability_assessments: readability.results.length ? JSON.stringify(readability.results) : null,
      is_cornerstone: toInt(meta[META.cornerstone] === 'true'),
      is_robots_noindex: noindex === '1' ? 1 : noindex === '2' ? 0 : null,
      is_robots_nofollow: toInt(meta[META.nofollow] === 'true'),
      open_graph_title: nullIfEmpty(meta[META.ogTitle]),
      open_graph_description: nullIfEmpty(meta[META.ogDescription]),
      open_graph_image: nullIfEmpty(meta[META.ogImage]),
      twitter_title: nullIfEmpty(meta[META.twitterTitle]),
      twitter_description: nullIfEmpty(meta[META.twitterDescription]),
      twitter_image: nullIfEmpty(meta[META.twitterImage]),
      estimated_reading_time_minutes: readability.readingTimeMinutes,
      object_last_modified: post.modified_gmt,
      object_published_at: post.date_gmt,
    });
  }
  return out;
}

/** A term's indexable: its archive URL, and the readability of its description (terms carry no keyphrase here). */
export async function buildTermIndexable(store: Store, site: Site, term: TermRow): Promise<IndexableFields | null> {
  const taxonomy = site.types.taxonomy(term.taxonomy);
  if (!taxonomy?.viewable) return null;
  const readability = readabilityAnalysis(new Text(parseContent(term.description)));
  return {
    object_type: 'term',
    object_sub_type: term.taxonomy,
    object_id: term.id,
    permalink: await termLink(store, site, taxonomy, term),
    breadcrumb_title: term.name,
    is_public: null,
    readability_score: readability.score,
    readability_assessments: readability.results.length ? JSON.stringify(readability.results) : null,
    estimated_reading_time_minutes: readability.readingTimeMinutes,
  };
}

export function buildPostTypeArchiveIndexable(site: Site, type: PostTypeInfo): IndexableFields {
  return { object_type: 'post-type-archive', object_sub_type: type.slug, object_id: null, permalink: postTypeArchiveUrl(site, type), breadcrumb_title: type.name, is_public: 1 };
}

/** The general pages Yoast's indexing/general makes, in its order: 404, search, date archive, home. */
export const GENERAL_PAGES: readonly { type: string; subType: string | null }[] = [
  { type: 'system-page', subType: '404' },
  { type: 'system-page', subType: 'search-result' },
  { type: 'date-archive', subType: null },
  { type: 'home-page', subType: null },
];

export function buildGeneralIndexable(site: Site, page: { type: string; subType: string | null }): IndexableFields {
  const base = { object_type: page.type, object_sub_type: page.subType, object_id: null };
  switch (page.type) {
    case 'home-page':
      return { ...base, permalink: `${site.home}/`, breadcrumb_title: site.info.name, description: null, is_public: 1 };
    case 'date-archive':
      return { ...base, permalink: null, is_public: 1 };
    default:
      return { ...base, permalink: null, breadcrumb_title: page.subType === '404' ? 'Error 404: Page not found' : 'You searched for', is_public: 0 };
  }
}
