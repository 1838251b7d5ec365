import type { Ctx } from '{{handlerSrc}}/core/context.ts';
import { RestResponse } from '{{handlerSrc}}/engine/index.ts';
import plugin from '../plugin.ts';

/** GET {{namespace}}/items: every item, oldest first. */
export function listItems(ctx: Ctx) {
  return ctx.store.plugin(plugin).list();
}

/** POST {{namespace}}/items: the spec has checked `title` (a non-empty string) and the permission. */
export async function createItem(ctx: Ctx) {
  const item = await ctx.store.plugin(plugin).add(ctx.args.title);
  return new RestResponse(item, 201);
}
