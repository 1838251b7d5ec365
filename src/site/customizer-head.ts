import { customCss } from '../core/custom-css.ts';
import { siteIconTags } from '../core/site-icon.ts';
import type { Store } from '../store/index.ts';
import { escapeAttr, stripTagMarkup } from '../format/format.ts';

/**
 * What the Customizer's site identity and Additional CSS put at the end of every page's `<head>`:
 * wp_site_icon's tags (wp_head, priority 99), then wp_custom_css_cb's style element (101).
 */

/** strip_tags: markup out, and an unclosed tag with everything after it, as PHP drops it. */
function stripTags(text: string): string {
  const stripped = stripTagMarkup(text);
  const open = stripped.indexOf('<');
  return open === -1 ? stripped : stripped.slice(0, open);
}

/**
 * wp_custom_css_cb: the active theme's Additional CSS in a style element (no type attribute: the
 * theme supports html5 styles), byte for byte as WordPress prints it; '' when there is none.
 */
export async function customCssHtml(store: Store): Promise<string> {
  const css = await customCss(store);
  return css ? `\t\t<style id="wp-custom-css">\n\t\t\t${stripTags(css)}\t\t</style>\n\t\t` : '';
}

/** The site icon's tags and the Additional CSS, in wp_head's order. */
export async function customizerHead(store: Store): Promise<string> {
  const [icon, css] = await Promise.all([siteIconTags(store, escapeAttr), customCssHtml(store)]);
  return icon + css;
}
