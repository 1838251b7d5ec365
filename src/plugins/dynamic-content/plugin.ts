import { definePlugin } from '../../core/plugin.ts';
import { fieldMeta } from './fields.ts';

/**
 * Kadence Blocks Pro's dynamic content (`kbp-dynamic/v1`): editor previews of a post's fields,
 * its author, an archive's term, the site or the current user, over typed custom fields and
 * repeater groups declared in `spec/fields/*.yaml` (registered as post meta, so they are edited
 * through cms/v2 posts' `meta`).
 */
export default definePlugin({
  name: 'dynamic-content',
  title: 'Dynamic Content',
  version: '1.0.0',
  description: 'Dynamic content previews over typed custom fields and repeaters declared under spec/fields (kbp-dynamic/v1).',
  namespaces: ['kbp-dynamic/v1'],
  postMeta: fieldMeta,
});
