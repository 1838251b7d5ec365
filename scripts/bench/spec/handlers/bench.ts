import type { HandlerContext } from '../../../../src/engine/types.ts';

/** Answers the validated, coerced args: what is left of a request once the engine is done with it. */
export async function echoArgs(ctx: HandlerContext) {
  return ctx.args;
}
