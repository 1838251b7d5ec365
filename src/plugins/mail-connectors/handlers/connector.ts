import type { Ctx } from '../../../core/context.ts';
import { RestResponse } from '../../../engine/index.ts';
import { readConnector } from '../connector.ts';
import { providerNamed } from '../providers.ts';
import { readSettings } from '../settings.ts';

/**
 * GET kb-mail-{a..g}/v1/get: one read endpoint of the provider the route's `config.provider`
 * names, with the key from `apikey` (where the namespace takes one) or the site's settings.
 * X-WP-Total and X-WP-TotalPages say how long the provider's whole list is, when it says so.
 */
export async function get(ctx: Ctx<'mail-connectors:connector.get'>): Promise<RestResponse> {
  const provider = providerNamed(String(ctx.config.provider));
  if (!provider) throw new Error(`route ${ctx.request.route} names no mail provider in its config`);
  const answer = await readConnector(provider, await readSettings(ctx.store, provider), {
    // a JSON null is a param not sent (WordPress's isset)
    endpoint: ctx.args.endpoint ?? undefined,
    queryargs: ctx.args.queryargs ?? undefined,
    page: ctx.args.page,
    perPage: ctx.args.per_page,
    search: ctx.args.search ?? undefined,
    apikey: ctx.args.apikey ?? undefined,
  });
  const headers: Record<string, string> = {};
  if (answer.total !== undefined) headers['X-WP-Total'] = String(answer.total);
  if (answer.totalPages !== undefined) headers['X-WP-TotalPages'] = String(answer.totalPages);
  return new RestResponse(answer.data, 200, headers);
}
