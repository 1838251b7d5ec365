import type { Ctx } from '../../../../src/core/context.ts';
import { RestResponse } from '../../../../src/engine/index.ts';
import { hello } from '../plugin.ts';

export const list = (ctx: Ctx) => ctx.store.plugin(hello).list();

export const add = async (ctx: Ctx) => new RestResponse(await ctx.store.plugin(hello).add(ctx.args.text), 201);
