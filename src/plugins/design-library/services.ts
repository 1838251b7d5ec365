import { RemoteService } from '../../net/service.ts';
import type { Site } from '../../core/site.ts';
import type { Settings } from './settings.ts';

/** The remote services the design and starter libraries call, each at its configured base URL. */
export type ServiceId = 'library' | 'ai' | 'credits' | 'starter';

const NAMES: Record<ServiceId, string> = {
  library: 'the design library service',
  ai: 'the AI content service',
  credits: 'the AI credits service',
  starter: 'the starter template service',
};

/** The version this plugin announces to the services (Kadence's KADENCE_BLOCKS_VERSION). */
export const PRODUCT_VERSION = '3.5.0';

/** The site's domain as the services identify it (Kadence's get_original_domain: host, no scheme). */
export const domainOf = (site: Site): string => new URL(site.home).host;

/** A WordPress slug of a title (sanitize_title, as far as the services need it). */
const slug = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The `X-Prophecy-Token` header the AI services identify a site by: base64 of JSON {domain, key,
 * site_name, product_slug, product_version}.
 */
export function prophecyToken(site: Site, s: Settings): string {
  const token = { domain: domainOf(site), key: s.licenseKey, site_name: slug(site.info.name), product_slug: s.product === 'kadence-blocks-pro' ? 'kadence-blocks-pro' : 'kadence-blocks', product_version: PRODUCT_VERSION };
  return Buffer.from(JSON.stringify(token)).toString('base64');
}

/**
 * One service at a base URL: its failures are `kb_design_library_*` errors naming it, with
 * `service` in their data; the license key (and the token carrying it) never come back out.
 */
export function libraryService(id: ServiceId, baseUrl: string, site: Site, s: Settings, o: { token?: boolean } = {}): RemoteService {
  const token = o.token ? prophecyToken(site, s) : '';
  return new RemoteService(
    {
      name: NAMES[id],
      codes: 'kb_design_library',
      data: { service: id },
      credentials: 'the license key',
      fix: { credentials: 'Check design_library_license_key.', baseUrl: 'Check the design_library_*_url settings or the library URL given.' },
    },
    baseUrl,
    { secrets: [s.licenseKey, token].filter(Boolean), headers: token ? { 'X-Prophecy-Token': token } : {} },
  );
}
