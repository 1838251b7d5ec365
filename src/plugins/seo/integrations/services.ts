import { RestError } from '../../../engine/index.ts';
import type { Store } from '../../../store/index.ts';
import { OPTION, STATE, type ServiceId } from '../settings.ts';

/** A service's settings and options as stored (options at their defaults when unset). */
export type ServiceValues = Record<string, string>;

/**
 * The stored settings of a remote service, once it may be called: its integration switched on
 * (integrations/set_active) and every setting it needs set, else a 400 saying what to do.
 * `unneeded` names settings the caller's mode does without (the AI's key with the token protocol).
 */
export async function serviceValues(store: Store, id: ServiceId, unneeded: readonly string[] = []): Promise<ServiceValues> {
  const values = await storedValues(store, id);
  const service = STATE.services[id];
  if (service.integration && values[OPTION.integrationActive(service.integration)] === '0') throw switchedOff(id);
  const missing = Object.keys(service.settings).filter((name) => !unneeded.includes(name) && !values[name]);
  if (missing.length)
    throw new RestError(
      'wpseo_integration_not_configured',
      `The ${service.name} is not configured: set the option${missing.length > 1 ? 's' : ''} ${missing.map((m) => `${m} (${service.settings[m]})`).join(', ')}.`,
      400,
      { settings: missing },
    );
  return values;
}

/** For the routes of a service that call nothing (choices kept on the site): its integration must be on. */
export async function requireIntegration(store: Store, id: ServiceId): Promise<void> {
  const integration = STATE.services[id].integration;
  if (integration && (await store.options.get(OPTION.integrationActive(integration))) === '0') throw switchedOff(id);
}

function switchedOff(id: ServiceId): RestError {
  const service = STATE.services[id];
  return new RestError('wpseo_integration_inactive', `The ${service.name} is switched off; an administrator switches it on with POST seo/v1/integrations/set_active {integration: "${service.integration}", active: true}.`, 400, {
    integration: service.integration,
  });
}

/** The stored settings and options of a service, configured or not. */
export async function storedValues(store: Store, id: ServiceId): Promise<ServiceValues> {
  const service = STATE.services[id];
  const names = [...Object.keys(service.settings), ...Object.keys(service.options)];
  if (service.integration) names.push(OPTION.integrationActive(service.integration));
  const stored = await store.options.getMany(names);
  const values: ServiceValues = {};
  for (const name of Object.keys(service.settings)) values[name] = (stored[name] ?? '').trim();
  for (const [name, o] of Object.entries(service.options)) values[name] = (stored[name] ?? '').trim() || o.default;
  if (service.integration) values[OPTION.integrationActive(service.integration)] = stored[OPTION.integrationActive(service.integration)] ?? '1';
  return values;
}

/** The service's display name ("keyword research service"). */
export const serviceName = (id: ServiceId): string => STATE.services[id].name;

/** A 400 for a service that is configured but not connected to an account yet, saying how to connect it. */
export function notConnected(id: ServiceId, how: string): RestError {
  return new RestError('wpseo_integration_not_connected', `The ${serviceName(id)} is not connected to an account: ${how}`, 400, { service: id });
}
