import type { Ctx } from '../../../core/context.ts';
import { RestError } from '../../../engine/errors.ts';
import { STATE } from '../settings.ts';

/**
 * The routes of the remote services (AI suggestions, keyword research, rank tracking, search
 * metrics; the route's `config.service`). Their clients come with issue 18; until then each answers
 * which settings the service needs (400) or, once they are set, that this server has no client for
 * it yet (501). Their arguments are validated as declared before this runs.
 */
export async function notConfigured(ctx: Ctx): Promise<never> {
  const service = STATE.services[String(ctx.config.service)];
  const settings = Object.keys(service.settings);
  const stored = await ctx.store.options.getMany(settings);
  const missing = settings.filter((name) => !stored[name]);
  if (missing.length)
    throw new RestError(
      'wpseo_integration_not_configured',
      `The ${service.name} is not configured: set the option${missing.length > 1 ? 's' : ''} ${missing.map((m) => `${m} (${service.settings[m]})`).join(', ')}.`,
      400,
      { settings: missing },
    );
  throw new RestError('wpseo_integration_unavailable', `The ${service.name} is configured, but this server has no client for it yet.`, 501);
}
