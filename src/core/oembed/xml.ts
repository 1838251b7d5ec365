/** oEmbed's XML format: `<oembed>` with one child element per field. */

const XML_SPECIAL = /[&<>]/g;
const XML_ENTITY_OF: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const NUMERIC_KEY = /^\d+$/;

function scalarText(v: unknown): string {
  // PHP's string conversion, which _oembed_create_xml relies on
  if (v === true) return '1';
  if (v === false || v === null || v === undefined) return '';
  return String(v);
}

function elements(data: Record<string, unknown> | unknown[]): string {
  let out = '';
  for (const [key, value] of Object.entries(data)) {
    // _oembed_create_xml names list items (numeric keys) `oembed`
    const name = NUMERIC_KEY.test(key) ? 'oembed' : key;
    const inner = value !== null && typeof value === 'object' ? elements(value as Record<string, unknown>) : scalarText(value).replace(XML_SPECIAL, (c) => XML_ENTITY_OF[c]);
    out += `<${name}>${inner}</${name}>`;
  }
  return out;
}

/** _oembed_create_xml: what SimpleXML's asXML() prints for the data (or an error body). */
export function toOEmbedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${elements(data)}</oembed>\n`;
}

const OEMBED_ROOT = /<oembed\b[^>]*>([\s\S]*)<\/oembed>/i;
const CHILD = /<([A-Za-z_][\w.-]*)\b[^>]*?(?:\/>|>([\s\S]*?)<\/\1\s*>)/g;
const CDATA = /^<!\[CDATA\[([\s\S]*)\]\]>$/;
const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g;
const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeText(raw: string): string {
  const text = raw.trim();
  const cdata = CDATA.exec(text);
  if (cdata) return cdata[1];
  return text.replace(ENTITY, (_, dec, hex, name) => (name ? NAMED[name] : String.fromCodePoint(Number.parseInt(dec ?? hex, dec ? 10 : 16))));
}

/**
 * WP_oEmbed::_parse_xml_body for a provider's XML answer: the `<oembed>` root's children as a flat
 * string map. A document type declaration is refused outright, as WordPress disables entity loading:
 * there is nothing in an oEmbed answer that needs one.
 */
export function parseOEmbedXml(text: string): Record<string, string> | null {
  if (DOCTYPE.test(text)) return null;
  const root = OEMBED_ROOT.exec(text);
  if (!root) return null;
  const data: Record<string, string> = {};
  for (const m of root[1].matchAll(CHILD)) data[m[1]] = decodeText(m[2] ?? '');
  return data;
}
