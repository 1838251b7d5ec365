// Plain JavaScript, so the benchmark's cms-spec process runs without a TypeScript loader, as a
// deployed one does (see src/engine/load-module.ts).

/**
 * Answers the validated, coerced args: what is left of a request once the engine is done with it.
 * @param {import('../../../../src/engine/types.ts').HandlerContext} ctx
 */
export async function echoArgs(ctx) {
  return ctx.args;
}
