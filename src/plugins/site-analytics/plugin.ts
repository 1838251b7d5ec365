import type { Kysely } from 'kysely';
import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { migrations } from './migrations.ts';
import { ViewsRepo, type SiteAnalyticsTables } from './repo.ts';
import { isPageView, referrerClass } from './traffic.ts';

/**
 * Page-view counts of the rendered site, served at site-analytics/v1
 * (spec/namespaces/site-analytics.yaml): each page a browser is answered adds one to a counter of
 * its day, path and referrer class (organic search, social, direct, internal, other), without
 * cookies or any visitor identifier; `report` sums them by day, path or referrer class over a
 * range of days.
 */
export const siteAnalytics: PluginDefinition<ViewsRepo> = definePlugin({
  name: 'site-analytics',
  title: 'Site Analytics',
  version: '1.0.0',
  description: 'Counts the site’s page views per day, page and source (search engines, social networks, direct, other) without cookies, and reports them.',
  author: 'cms-spec',
  namespaces: ['site-analytics/v1'],
  migrations,
  repo: (db) => new ViewsRepo(db as Kysely<SiteAnalyticsTables>),
  capabilities: { administrator: ['view_site_analytics'], editor: ['view_site_analytics'] },
  site: {
    async pageView(view) {
      if (!isPageView(view)) return;
      const host = new URL(view.site.home).hostname.toLowerCase();
      await view.store.plugin(siteAnalytics).count(view.site.localDate(), view.path, referrerClass(view.referrer, host));
    },
  },
});

export default siteAnalytics;
