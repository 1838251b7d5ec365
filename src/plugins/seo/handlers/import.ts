import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/index.ts';
import { IMPORT_TYPES, IMPORTERS, importBatch, type ImportType } from '../importing.ts';
import seo from '../plugin.ts';

/**
 * POST import/{plugin}/{type} (Yoast's Importing_Route): one batch of importing another SEO plugin's
 * post data (`posts`) or removing it afterwards (`cleanup`), answered like the indexing routes.
 */
export async function importData(ctx: Ctx<'seo:import.importData'>) {
  const plugin = ctx.request.urlParams.plugin;
  const type = ctx.request.urlParams.type as ImportType;
  if (!IMPORTERS[plugin] || !IMPORT_TYPES.includes(type))
    throw new RestError('rest_no_route', `Requested importer not found: plugins ${Object.keys(IMPORTERS).join(', ')}; types ${IMPORT_TYPES.join(', ')}.`, 404);
  const { objects, full } = await importBatch(ctx.store, ctx.store.plugin(seo), plugin, type);
  return { objects, next_url: full ? ctx.api.restUrl(`seo/v1/import/${plugin}/${type}`) : false };
}
