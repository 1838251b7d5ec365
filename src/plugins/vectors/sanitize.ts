import type { DOMPurify, WindowLike } from 'dompurify';

/**
 * SVG sanitising with DOMPurify (Cure53's XSS sanitiser for HTML, MathML and SVG) over a jsdom
 * window, as DOMPurify's documentation prescribes for servers. Its SVG profile already drops
 * scripts and event handlers; on top of that, as Kadence's enshrined sanitiser with remote
 * references removed: no foreignObject (HTML inside SVG), no style elements, no animate or set
 * (they can change an attribute after it was checked), and no reference
 * leaving the document: href/xlink:href only to `#fragment`s, url() only to `#fragment`s.
 */

/** A url() whose target is not a fragment of the same document. */
const EXTERNAL_URL = /url\((?!\s*['"]?\s*#)/i;
const LINK_ATTRIBUTES = new Set(['href', 'xlink:href', 'src']);

interface Sanitizer {
  purify: DOMPurify;
  window: WindowLike & { XMLSerializer: typeof XMLSerializer };
}

let sanitizer: Promise<Sanitizer> | undefined;

/** jsdom and DOMPurify load on the first SVG, once: they are large, and most requests never need them. */
function load(): Promise<Sanitizer> {
  return (sanitizer ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const window = new JSDOM('').window as unknown as Sanitizer['window'];
    const purify = createDOMPurify(window);
    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      const value = data.attrValue.trim();
      if (LINK_ATTRIBUTES.has(name) && !value.startsWith('#')) data.keepAttr = false;
      if (EXTERNAL_URL.test(value)) data.keepAttr = false;
    });
    return { purify, window };
  })());
}

/**
 * The SVG markup made safe, as a standalone XML document's root element, or null when nothing
 * usable is left (not SVG at all, or nothing but what was removed).
 */
export async function sanitizeSvg(markup: string): Promise<Element | null> {
  const { purify } = await load();
  const fragment = purify.sanitize(markup, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // animate and set can rewrite an href after sanitising (attributeName="href" to="javascript:...")
    FORBID_TAGS: ['foreignObject', 'style', 'script', 'animate', 'set'],
    RETURN_DOM_FRAGMENT: true,
  }) as unknown as DocumentFragment;
  const root = fragment.firstElementChild;
  return root && root.localName === 'svg' ? root : null;
}

/** The sanitised SVG as XML text (xmlns kept, empty elements self-closed). */
export async function sanitizedSvgText(markup: string): Promise<string | null> {
  const root = await sanitizeSvg(markup);
  if (!root) return null;
  const { window } = await load();
  return new window.XMLSerializer().serializeToString(root);
}
