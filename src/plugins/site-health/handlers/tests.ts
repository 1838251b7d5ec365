import type { Ctx } from '../../../core/context.ts';
import { TESTS } from '../checks.ts';
import type { HealthRun } from '../result.ts';
import { directorySizes as sizesOf } from '../sizes.ts';

/** The checks run inside the server, for the caller: their own credentials are what the round trip sends back. */
function runOf(ctx: Ctx): HealthRun {
  const authorization = ctx.request.headers.authorization;
  return { store: ctx.store, site: ctx.site, where: 'server', caller: authorization && ctx.user ? { authorization, userId: ctx.user.id } : undefined };
}

/** GET tests/{test}: the test the route's config names (`config: {test: loopback-requests}`). */
export function run(ctx: Ctx<'site-health:tests.run'>) {
  return TESTS[ctx.config.test as keyof typeof TESTS](runOf(ctx));
}

/** GET directory-sizes */
export function directorySizes(ctx: Ctx<'site-health:tests.directorySizes'>) {
  return sizesOf(runOf(ctx));
}
