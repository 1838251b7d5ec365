import type { Site } from '../core/site.ts';
import { storedPart } from '../core/templates.ts';
import type { Store } from '../store/index.ts';
import type { BlockSupportsState } from '../core/block-library/supports/state.ts';

/**
 * The site's own template parts on the rendered pages: a published part stored for the active
 * theme (edited over `cms/v2/template-parts`) replaces the theme's built-in markup for that area,
 * as the template-part block renders the stored one in WordPress, its blocks rendered by the
 * site's block renderer (do_blocks).
 */

/** The stored footer part of the page at `url`, rendered (its containers numbered after the page's); null while the theme's own footer is in use. */
export async function footerPartHtml(store: Store, site: Site, url: string, supports?: BlockSupportsState): Promise<string | null> {
  const part = await storedPart(store, site, 'footer');
  return part ? site.blocks.render(part.content, { store, site, kind: 'template-part', url, supports }) : null;
}
