import type { Ctx } from '../../core/context.ts';
import { permalink } from '../../core/permalinks.ts';
import { readablePost } from '../../core/post-access.ts';
import { collection, contextOf, nsUrl, pageOf, pick } from '../../core/rest.ts';
import { termLink, termPermalink } from '../../core/permalinks.ts';

const POST_SUBTYPES = ['post', 'page'];
const TERM_SUBTYPES = ['category', 'post_tag'];
/** get_post_format_strings (6.1), in its order: the formats the post-format search walks. */
const POST_FORMAT_NAMES: Record<string, string> = { standard: 'Standard', aside: 'Aside', chat: 'Chat', gallery: 'Gallery', link: 'Link', image: 'Image', quote: 'Quote', status: 'Status', video: 'Video', audio: 'Audio' };
/** The post_format taxonomy's archive: `/type/{format}/`, plain `?post_format={format}` (_post_format_link). */
const POST_FORMAT_ARCHIVE = { archiveBase: 'type', plainVar: { name: 'post_format', byId: false } };
const FIELDS = { view: ['id', 'title', 'url', 'type', 'subtype'], edit: ['id', 'title', 'url', 'type', 'subtype'], embed: ['id', 'title', 'url', 'type', 'subtype'] };

/** The search handler's subtypes that the request asks for (`any` is all of them). */
function subtypesOf(ctx: Ctx, all: string[]): string[] {
  const asked = (Array.isArray(ctx.args.subtype) ? ctx.args.subtype : [ctx.args.subtype ?? 'any']) as string[];
  return asked.includes('any') ? all : all.filter((s) => asked.includes(s));
}

/** GET /search: WP_REST_Search_Controller with the post and term handlers. */
export async function search(ctx: Ctx<'cms-v2:search.search'>) {
  const page = pageOf(ctx);
  const context = contextOf(ctx);
  const list = (v: unknown) => (Array.isArray(v) && v.length ? (v as never[]) : undefined);
  const items: Record<string, unknown>[] = [];
  let total = 0;
  if (ctx.args.type === 'post-format') {
    // WP_REST_Post_Format_Search_Handler: the formats whose name or slug holds the text (case-blind)
    // and that have a link, i.e. a term, i.e. some post carries them; no subtypes and no _links
    const inUse = new Set(await ctx.store.posts.formatsInUse());
    const text = String(ctx.args.search ?? '').toLowerCase();
    const found = Object.entries(POST_FORMAT_NAMES).filter(([slug, name]) => inUse.has(slug) && (!text || slug.includes(text) || name.toLowerCase().includes(text)));
    total = found.length;
    for (const [slug, name] of found.slice(page.offset, page.offset + page.perPage))
      items.push(pick({ id: slug, title: name, url: termPermalink(ctx.site, POST_FORMAT_ARCHIVE, { id: 0, slug }), type: 'post-format' }, FIELDS[context]));
  } else if (ctx.args.type === 'term') {
    // one ordered list over several taxonomies: take each one's first offset+limit, merge by name
    const wanted = page.offset + page.perPage;
    const rows = [];
    for (const tax of subtypesOf(ctx, TERM_SUBTYPES)) {
      const r = await ctx.store.terms.query({ taxonomy: tax, search: ctx.args.search || undefined, include: list(ctx.args.include), exclude: list(ctx.args.exclude), orderby: 'name', order: 'asc', offset: 0, limit: wanted });
      rows.push(...r.rows);
      total += r.total;
    }
    rows.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    for (const t of rows.slice(page.offset, wanted)) {
      const tax = ctx.site.types.taxonomy(t.taxonomy)!;
      items.push({
        // WP_REST_Term_Search_Handler::prepare_item (6.1) answers the taxonomy as `type` and no `subtype`
        ...pick({ id: t.id, title: t.name, url: await termLink(ctx.store, ctx.site, tax, t), type: t.taxonomy }, FIELDS[context]),
        _links: { self: [{ embeddable: true, href: nsUrl(ctx, `${tax.restBase}/${t.id}`) }], about: [{ href: nsUrl(ctx, `taxonomies/${tax.slug}`) }], collection: [{ href: nsUrl(ctx, 'search') }] },
      });
    }
  } else {
    const types = subtypesOf(ctx, POST_SUBTYPES);
    if (types.length) {
      const r = await ctx.store.posts.query({
        types, statuses: ['publish'], search: ctx.args.search || undefined, include: list(ctx.args.include), exclude: list(ctx.args.exclude),
        orderby: ctx.args.search ? 'relevance' : 'date', order: 'desc', offset: page.offset, limit: page.perPage,
      });
      total = r.total;
      for (const p of r.rows.filter((row) => readablePost(ctx, row))) {
        const type = ctx.site.types.postType(p.type)!;
        const url = permalink(ctx.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date, parentPath: p.parent ? (await ctx.store.posts.ancestorSlugs(p)).join('/') || undefined : undefined });
        items.push({
          ...pick({ id: p.id, title: p.title, url, type: 'post', subtype: p.type }, FIELDS[context]),
          _links: { self: [{ embeddable: true, href: nsUrl(ctx, `${type.restBase}/${p.id}`) }], about: [{ href: nsUrl(ctx, `types/${p.type}`) }], collection: [{ href: nsUrl(ctx, 'search') }] },
        });
      }
    }
  }
  return collection(ctx, items, total, page, 'rest_search_invalid_page_number');
}
