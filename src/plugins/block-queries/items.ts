import type { Ctx } from '../../core/context.ts';
import { attachmentImageSrc } from '../../core/attachment-image.ts';
import { renderedTitle, restDate } from '../../core/rest.ts';
import { authorPermalink, permalink } from '../../core/permalinks.ts';
import { excerptText, renderContent } from '../../format/format.ts';
import type { PostRow } from '../../store/posts.ts';
import type { TermRow } from '../../store/terms.ts';
import { taxonomiesOfType } from './args.ts';

/**
 * The items the Kadence routes answer: the query summary of prepare_query_item_for_response
 * (Posts block, query helpers) and the picker entry of prepare_item_for_response (post-select).
 */

const THUMBNAIL_KEY = '_thumbnail_id';

/** get_permalink, with a page's ancestors in its path. */
async function linkOf(ctx: Ctx, post: PostRow): Promise<string> {
  const parentPath = post.parent ? (await ctx.store.posts.ancestorSlugs(post)).join('/') || undefined : undefined;
  return permalink(ctx.site, { id: post.id, type: post.type, slug: post.slug, status: post.status, date: post.date, parentPath });
}

/** get_the_excerpt: the post's own excerpt, else 55 words of its content; a protected post's says so. */
function excerptOf(post: PostRow): string {
  if (post.password) return 'There is no excerpt because this is a protected post.';
  return excerptText(post.excerpt, renderContent(post.content));
}

/** A WP_Term as get_the_terms serialises it. */
function termObject(t: TermRow): Record<string, unknown> {
  return { term_id: t.id, name: t.name, slug: t.slug, term_group: t.term_group, term_taxonomy_id: t.id, taxonomy: t.taxonomy, description: t.description, parent: t.parent, count: t.count, filter: 'raw' };
}

/** get_the_category: the terms with _make_cat_compat's legacy fields. */
function categoryObject(t: TermRow): Record<string, unknown> {
  return { ...termObject(t), cat_ID: t.id, category_count: t.count, category_description: t.description, cat_name: t.name, category_nicename: t.slug, category_parent: t.parent };
}

/**
 * prepare_query_item_for_response for a page of posts: dates, title and excerpt raw and rendered,
 * link, author, featured image, author/comment/category/tag info and every taxonomy's terms as
 * `[{value, label}]`. `authorWebsite` adds the author's website (the Pro version does).
 */
export async function queryItems(ctx: Ctx, posts: PostRow[], authorWebsite: boolean): Promise<Record<string, unknown>[]> {
  const ids = posts.map((p) => p.id);
  const [terms, thumbs, authors] = await Promise.all([
    ctx.store.terms.termsOfPosts(ids),
    ctx.store.posts.meta.ofMany(ids, [THUMBNAIL_KEY]),
    ctx.store.users.getMany([...new Set(posts.map((p) => p.author))]),
  ]);
  const authorById = new Map(authors.map((u) => [u.id, u]));
  return Promise.all(
    posts.map(async (post) => {
      const type = ctx.site.types.postType(post.type);
      const supports = (feature: string) => type?.supports.includes(feature) ?? false;
      const thumbnail = Number(thumbs.get(post.id)?.[THUMBNAIL_KEY]) || 0;
      const item: Record<string, unknown> = {
        id: post.id,
        date: restDate(post.date),
        date_gmt: restDate(post.date_gmt),
        modified: restDate(post.modified),
        modified_gmt: restDate(post.modified_gmt),
        title: { raw: post.title, rendered: renderedTitle(post) },
        excerpt: { raw: post.excerpt, rendered: excerptOf(post) },
        type: post.type,
        slug: post.slug,
        status: post.status,
        link: await linkOf(ctx, post),
        author: post.author,
        featured_media: thumbnail || '',
      };
      if (supports('thumbnail') && thumbnail) item.featured_image_src_large = (await attachmentImageSrc(ctx.store, thumbnail, 'large')) ?? false;
      const author = authorById.get(post.author);
      // PHP's empty array: a type without authors shows []
      let authorInfo: Record<string, unknown> | [] = [];
      if (supports('author')) {
        authorInfo = { display_name: author?.display_name ?? '', author_link: author ? authorPermalink(ctx.site, author) : '' };
        if (authorWebsite) authorInfo.author_website_link = author?.url ?? '';
      }
      item.author_info = authorInfo;
      if (supports('comments')) item.comment_info = post.comment_count;
      const own = terms.get(post.id) ?? [];
      if (post.type === 'post') {
        item.category_info = own.filter((t) => t.taxonomy === 'category').map(categoryObject);
        const tags = own.filter((t) => t.taxonomy === 'post_tag').map(termObject);
        item.tag_info = tags.length ? tags : false;
      }
      const byTaxonomy: Record<string, { value: number; label: string }[]> = {};
      for (const tax of taxonomiesOfType(ctx, post.type)) {
        const list = own.filter((t) => t.taxonomy === tax.slug).map((t) => ({ value: t.id, label: t.name }));
        if (list.length) byTaxonomy[tax.slug] = list;
      }
      item.taxonomy_info = Object.keys(byTaxonomy).length ? byTaxonomy : [];
      return item;
    }),
  );
}

/** prepare_item_for_response of the post pickers. */
export async function selectItems(ctx: Ctx, posts: PostRow[]): Promise<Record<string, unknown>[]> {
  return Promise.all(
    posts.map(async (post) => ({
      id: post.id,
      title: { raw: post.title, rendered: renderedTitle(post) },
      type: post.type,
      date: restDate(post.date),
      slug: post.slug,
      status: post.status,
      link: await linkOf(ctx, post),
      author: post.author,
      date_gmt: restDate(post.date_gmt),
    })),
  );
}
