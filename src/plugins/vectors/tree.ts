/**
 * Kadence Blocks Pro's JSON form of a custom SVG: `{vB: viewBox, cD: [{nE: element, aBs: {its
 * attributes}, children: [...]}]}`, made from the sanitised SVG's element tree (text nodes are not
 * part of the form).
 */
export interface SvgNode {
  nE: string;
  aBs: Record<string, string>;
  children: SvgNode[];
}

export interface SvgTree {
  vB: string;
  cD: SvgNode[];
}

function node(el: Element): SvgNode {
  const aBs: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) if (a.name !== 'xmlns' && !a.name.startsWith('xmlns:')) aBs[a.name] = a.value;
  return { nE: el.localName, aBs, children: Array.from(el.children).map(node) };
}

/** The tree of an `<svg>` root; its viewBox, or one made from its width and height. */
export function svgTree(root: Element): SvgTree {
  const width = parseFloat(root.getAttribute('width') ?? '');
  const height = parseFloat(root.getAttribute('height') ?? '');
  const vB = root.getAttribute('viewBox') ?? (width > 0 && height > 0 ? `0 0 ${width} ${height}` : '');
  return { vB, cD: Array.from(root.children).map(node) };
}
