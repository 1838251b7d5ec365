import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { doctorCommand } from './doctor.ts';

/**
 * Site Health (WordPress core's WP_REST_Site_Health_Controller, served at cms-site-health/v1):
 * the site's own tests run for real (a loopback to its own address, the Authorization header's
 * round trip, HTTPS, the hosts its plugins talk to, the database and its disk, a page cache), the
 * sizes of its parts, and `cms-spec doctor` for the same tests in a terminal.
 */
export const siteHealth: PluginDefinition = definePlugin({
  name: 'site-health',
  title: 'Site Health',
  version: '1.0.0',
  description: 'Tests that the site can reach itself and the services its plugins use, that its database is sound, and how big it is.',
  author: 'cms-spec',
  namespaces: ['cms-site-health/v1'],
  // WordPress's map_meta_cap maps view_site_health_checks to install_plugins (administrators)
  metaCapabilities: { view_site_health_checks: 'install_plugins' },
  cli: doctorCommand,
});

export default siteHealth;
