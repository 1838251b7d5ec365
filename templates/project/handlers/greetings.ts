import type { HandlerContext } from 'cms-spec/src/engine/index.ts';

/** GET {{namespace}}/hello: `name` is already checked (a string of at most 40 characters) and defaulted. */
export function hello(ctx: HandlerContext) {
  return { greeting: `Hello, ${ctx.args.name}!` };
}
