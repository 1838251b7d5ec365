import { RemoteService } from '../../../net/service.ts';
import type { ServiceId } from '../settings.ts';
import { serviceName } from './services.ts';

/**
 * One of the SEO plugin's remote services (the AI, keyword research, rank tracking, search
 * console) at its base URL: its failures are `wpseo_remote_*` errors naming it, with `service` in
 * their data; the secrets it is given never come back out of it.
 */
export function seoService(id: ServiceId, baseUrl: string, secrets: readonly string[] = []): RemoteService {
  return new RemoteService(
    { name: `the ${serviceName(id)}`, codes: 'wpseo_remote', data: { service: id }, credentials: "this site's credentials", fix: { credentials: 'Check its settings.', baseUrl: 'Set it again.' } },
    baseUrl,
    { secrets },
  );
}
