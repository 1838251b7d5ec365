import { invalidParam, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { sanitizeKey } from '../../core/menus.ts';
import { exportedTypes, GENERATOR, wxrStream } from '../../import/wxr-export.ts';

/** A month (export.php's month selects: YYYY-MM, its first day) or a day, as YYYY-MM-DD; refused when it is no date. */
function dayOf(name: string, given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  const day = given.length === 7 ? `${given}-01` : given;
  const parsed = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== day) throw invalidParam(name, `${name} is not a date: ${given}.`);
  return day;
}

/**
 * GET export (export_wp): the site's content as WordPress writes its export, WXR 1.2, named and
 * typed as WordPress sends it, streamed as it is written (a site's export can be hundreds of
 * megabytes: none of it is held whole).
 */
export async function exportSite(ctx: Ctx<'cms-import:exports.exportSite'>) {
  const content = ctx.args.content ?? 'all';
  const author = ctx.args.author ?? undefined;
  const category = ctx.args.category ?? undefined;
  if (content !== 'all' && exportedTypes(ctx.site, content).length !== 1) throw invalidParam('content', `content is all or a post type this site exports (${exportedTypes(ctx.site).join(', ')}), not ${content}.`);
  if (author !== undefined && !(await ctx.store.users.get(author))) throw invalidParam('author', `There is no user with the ID ${author}.`);
  if (category !== undefined && (await ctx.store.terms.get(category))?.taxonomy !== 'category') throw invalidParam('category', `There is no category with the ID ${category}.`);
  const options = { postType: content, author, category, startDate: dayOf('start_date', ctx.args.start_date ?? undefined), endDate: dayOf('end_date', ctx.args.end_date ?? undefined), status: ctx.args.status ?? undefined, generator: GENERATOR };
  const sitename = sanitizeKey(ctx.site.info.name);
  const filename = `${sitename ? `${sitename}.` : ''}WordPress.${new Date().toISOString().slice(0, 10)}.xml`;
  return new RestResponse(null, 200, { 'Content-Description': 'File Transfer', 'Content-Disposition': `attachment; filename=${filename}` }, { body: wxrStream(ctx.store, ctx.site, options), contentType: 'text/xml; charset=UTF-8' });
}
