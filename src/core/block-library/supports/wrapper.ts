/**
 * What the block supports' render_block filters share: the block as parsed (its name, attributes
 * as written, inner parts) and the one way they all change its markup, classes put in front of
 * the first `class="` (they assume a block has one wrapper, as WordPress 6.1 does).
 */

/** A parsed block, as the supports read it: the render_block filters' `$block`. */
export interface SupportedBlock {
  name: string;
  attrs: Record<string, unknown>;
  inner: readonly (string | SupportedBlock)[];
}

/** wp_get_block_default_classname: `wp-block-` and the name, its slashes hyphens, a `core-` prefix (`core/`, the old `core-embed/`) left out. */
export const blockDefaultClassName = (name: string) => `wp-block-${name.replaceAll('/', '-').replace(/^core-/, '')}`;

/** The supports' preg_replace of the first `class="` by `class="<classes> `: nothing happens to markup without one. */
export function addClasses(html: string, classes: string): string {
  const at = html.indexOf('class="');
  return at < 0 ? html : `${html.slice(0, at)}class="${classes} ${html.slice(at + 'class="'.length)}`;
}

