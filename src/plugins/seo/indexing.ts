import type { Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import { sqlDate } from '../../store/transact.ts';
import { parseContent } from './content.ts';
import { archivedPostTypes, buildGeneralIndexable, buildPostIndexables, buildPostTypeArchiveIndexable, buildTermIndexable, GENERAL_PAGES, indexedPostTypes, indexedTaxonomies } from './indexables.ts';
import { absoluteLink, linkKind } from './links.ts';
import type { IndexableRow, NewLink, SeoRepo } from './repo.ts';
import { OPTION } from './settings.ts';
import { resolveUrl } from './targets.ts';

/**
 * The indexing actions (Yoast's src/actions/indexing): each indexes the next batch of what is not
 * indexed yet (or went stale when its object was saved) and answers the indexables it wrote. The
 * REST routes run one batch per call with the reference's limits; `cms-spec seo index` runs them
 * all to the end.
 */

/** The batch limits of the REST routes (wpseo_*_indexation_limit, wpseo_link_indexing_limit). */
export const LIMITS = { posts: 25, terms: 25, postTypeArchives: 25, links: 5 } as const;

export async function indexPosts(store: Store, site: Site, repo: SeoRepo, limit: number): Promise<IndexableRow[]> {
  const posts = await repo.unindexedPosts(indexedPostTypes(site), limit);
  const fields = await buildPostIndexables(store, site, posts);
  const rows: IndexableRow[] = [];
  for (const f of fields) rows.push(await repo.save(f, true));
  if (rows.length) await repo.dashboards.clear();
  return rows;
}

export async function indexTerms(store: Store, site: Site, repo: SeoRepo, limit: number): Promise<IndexableRow[]> {
  const rows: IndexableRow[] = [];
  for (const term of await repo.unindexedTerms(indexedTaxonomies(site), limit)) {
    const fields = await buildTermIndexable(store, site, term);
    if (fields) rows.push(await repo.save(fields, true));
  }
  return rows;
}

export async function indexPostTypeArchives(site: Site, repo: SeoRepo, limit: number): Promise<IndexableRow[]> {
  const done = await repo.indexedSubTypes('post-type-archive');
  const rows: IndexableRow[] = [];
  for (const type of archivedPostTypes(site).filter((t) => !done.has(t.slug)).slice(0, limit)) rows.push(await repo.save(buildPostTypeArchiveIndexable(site, type), false));
  return rows;
}

async function pendingGeneralPages(repo: SeoRepo) {
  const done = new Map<string, Set<string>>();
  for (const type of new Set(GENERAL_PAGES.map((p) => p.type))) done.set(type, await repo.indexedSubTypes(type));
  return GENERAL_PAGES.filter((p) => !done.get(p.type)!.has(p.subType ?? ''));
}

/** The general pages not indexed yet, all in one go (there are four at most). */
export async function indexGeneral(site: Site, repo: SeoRepo): Promise<IndexableRow[]> {
  const rows: IndexableRow[] = [];
  for (const page of await pendingGeneralPages(repo)) rows.push(await repo.save(buildGeneralIndexable(site, page), false));
  return rows;
}

/**
 * Link indexing of posts or terms: reads each indexable's content (a post's content, a term's
 * description), stores its links with the indexables they point at, and sets its link counts and
 * its targets' incoming counts.
 */
export async function indexLinks(store: Store, site: Site, repo: SeoRepo, objectType: 'post' | 'term', limit: number): Promise<IndexableRow[]> {
  const pending = await repo.pendingLinks(objectType, limit);
  if (!pending.length) return [];
  const ids = pending.map((r) => r.object_id!);
  const contents = new Map<number, string>();
  if (objectType === 'post') for (const p of await store.posts.getMany(ids)) contents.set(p.id, p.content);
  else for (const t of await store.terms.getMany(ids)) contents.set(t.id, t.description);
  for (const row of pending) {
    const base = row.permalink ?? `${site.home}/`;
    const links: NewLink[] = [];
    for (const link of parseContent(contents.get(row.object_id!) ?? '').links) {
      const kind = linkKind(link.href, base, site);
      if (!kind) continue;
      links.push({ url: absoluteLink(link.href, base)!, type: kind, target_indexable_id: null, target_post_id: null });
    }
    await resolveTargets(store, site, repo, links.filter((l) => l.type === 'internal'));
    await repo.replaceLinks(row.id, links);
  }
  await repo.dashboards.clear();
  return repo.getMany(pending.map((r) => r.id));
}

/** Finds the indexables internal links point at: by stored permalink first, else by resolving the URL as the site does. */
async function resolveTargets(store: Store, site: Site, repo: SeoRepo, links: NewLink[]): Promise<void> {
  if (!links.length) return;
  const byUrl = await repo.byPermalinks([...new Set(links.map((l) => l.url))]);
  for (const link of links) {
    let target = byUrl.get(link.url);
    if (!target) {
      const resolved = await resolveUrl(store, site, link.url);
      if (resolved.kind === 'post') target = await repo.byObject('post', resolved.post.id);
      else if (resolved.kind === 'term') target = await repo.byObject('term', resolved.term.id);
      if (target) byUrl.set(link.url, target);
    }
    if (!target) continue;
    link.target_indexable_id = target.id;
    if (target.object_type === 'post') link.target_post_id = target.object_id;
  }
}

/**
 * Yoast's background indexing (the wpseo_indexable_index_batch cron event, every fifteen minutes):
 * one batch of each indexing action, each in its own transaction, so a site edited outside the
 * dashboard keeps its indexables current without anyone running the indexing.
 */
export async function indexInBackground(store: Store, site: Site, repoOf: (store: Store) => SeoRepo): Promise<void> {
  await store.transaction((s) => indexPosts(s, site, repoOf(s), LIMITS.posts));
  await store.transaction((s) => indexTerms(s, site, repoOf(s), LIMITS.terms));
  await store.transaction((s) => indexPostTypeArchives(site, repoOf(s), LIMITS.postTypeArchives));
  await store.transaction((s) => indexGeneral(site, repoOf(s)));
  await store.transaction((s) => indexLinks(s, site, repoOf(s), 'post', LIMITS.links));
  await store.transaction((s) => indexLinks(s, site, repoOf(s), 'term', LIMITS.links));
}

/** How much indexing is left, per action (the indexing notification's count; the CLI's progress total). */
export async function remaining(site: Site, repo: SeoRepo): Promise<{ posts: number; terms: number; postTypeArchives: number; general: number; postLinks: number; termLinks: number }> {
  const archivesDone = await repo.indexedSubTypes('post-type-archive');
  const [posts, terms, postLinks, termLinks] = await Promise.all([
    repo.countUnindexedPosts(indexedPostTypes(site)),
    repo.countUnindexedTerms(indexedTaxonomies(site)),
    repo.countPendingLinks('post'),
    repo.countPendingLinks('term'),
  ]);
  return {
    posts,
    terms,
    postTypeArchives: archivedPostTypes(site).filter((t) => !archivesDone.has(t.slug)).length,
    general: (await pendingGeneralPages(repo)).length,
    // what indexing will write still needs its links read afterwards
    postLinks: postLinks + posts,
    termLinks: termLinks + terms,
  };
}

/** `prepare`: indexing starts (Yoast's Indexing_Helper::prepare). */
export async function prepareIndexing(store: Store): Promise<void> {
  await store.options.set(OPTION.indexingStarted, sqlDate(new Date()));
  await store.options.set(OPTION.indexablesCompleted, '0');
}

/** `indexables-complete`: every object has its indexable. */
export async function indexablesComplete(store: Store): Promise<void> {
  await store.options.set(OPTION.indexablesCompleted, '1');
}

/** `complete`: indexing, links included, is done. */
export async function completeIndexing(store: Store): Promise<void> {
  await store.options.set(OPTION.indexingStarted, '0');
  await store.options.set(OPTION.indexingCompleted, sqlDate(new Date()));
}
