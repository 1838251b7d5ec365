import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { migrations } from './migrations.ts';
import type { ExpiringCache } from '../../store/expiring-cache.ts';
import { urlDetailsCache } from './repo.ts';

/** WordPress's limit on a page read for its details (`limit_response_size`, 150 KB): the head is at the start. */
export const URL_DETAILS_MAX_BYTES = 150 * 1024;

/**
 * The block editor's helpers (WordPress core's wp-block-editor/v1, served at cms-block-editor/v1):
 * a page's title, icon, description and image for link previews, cached for a day; the site's
 * fallback navigation menu; its templates as a downloadable zip.
 */
export const blockEditor: PluginDefinition<ExpiringCache> = definePlugin({
  name: 'block-editor',
  title: 'Block Editor',
  version: '1.0.0',
  description: 'Link previews for any URL, the fallback navigation menu and the export of the site’s templates, for block editors.',
  author: 'cms-spec',
  namespaces: ['cms-block-editor/v1'],
  migrations,
  repo: urlDetailsCache,
  caches: [{ entry: 'cached link preview', flush: (store) => store.plugin(blockEditor).clear() }],
  // url-details fetches any URL an editor names: no fixed hosts, and only the head of the page
  outbound: { maxBytes: URL_DETAILS_MAX_BYTES },
});

export default blockEditor;
