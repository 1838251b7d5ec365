import { stripAllTags } from '../../../format/format.ts';

/**
 * What the block supports share of WordPress 6.1's style engine (wp-includes/style-engine/): a
 * CSS value checked as safecss_filter_attr checks one, a `var:preset|…` value as its custom
 * property, and the block-supports store of CSS rules with the stylesheet it compiles.
 */

/** A CSS rule as the block supports hand it to the style engine: a selector and its declarations in order. */
export interface CssRule {
  selector: string;
  declarations: readonly (readonly [property: string, value: string])[];
}

/** CSS functions safecss_filter_attr allows around what it would otherwise refuse, parentheses balanced. */
const ALLOWED_FUNCTIONS = /\b(?:var|calc|min|max|minmax|clamp)\(/g;

/** A value without the allowed functions, each with its balanced parentheses (PHP's recursive pattern). */
export function withoutAllowedFunctions(value: string): string {
  let out = '';
  let at = 0;
  for (const m of value.matchAll(ALLOWED_FUNCTIONS)) {
    if (m.index < at) continue;
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < value.length; end++) {
      if (value[end] === '(') depth++;
      else if (value[end] === ')' && --depth === 0) break;
    }
    // an unclosed function is left in, where the check below refuses its parenthesis
    if (end >= value.length) break;
    out += value.slice(at, m.index);
    at = end + 1;
  }
  return out + value.slice(at);
}

/** The characters safecss_filter_attr refuses in a value (`\ ( & } =` or a comment), once allowed functions are taken out. */
export const UNSAFE_CSS = /[\\(&=}]|\/\*/;

/** safecss_filter_attr of a lone value: kept unless it holds what a declaration may not. */
export const safeCssValue = (value: string): string => (UNSAFE_CSS.test(withoutAllowedFunctions(value)) ? '' : value);

/** _wp_to_kebab_case for the ASCII slugs presets use (lodash's kebabCase: words of letters, numbers, capitals). */
export function kebabCase(text: string): string {
  const words = text.replace(/'/g, '').match(/[A-Z]?[a-z]+(?=[^a-zA-Z]|[A-Z]|$)|[A-Z]+(?=[^a-zA-Z]|[A-Z][a-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d+/g);
  return (words ?? []).join('-').toLowerCase();
}

/** `var:preset|spacing|30` as `var(--wp--preset--spacing--30)`: the slug after the last bar, kebab-cased. */
export const presetVariable = (value: string, kind: string): string => `var(--wp--preset--${kind}--${kebabCase(value.slice(value.lastIndexOf('|') + 1))})`;

/**
 * WP_Style_Engine_CSS_Rules_Store of the `block-supports` context: rules by selector in the order
 * first added, a later declaration of a property replacing the earlier one in its place.
 */
export class CssRulesStore {
  private readonly rules = new Map<string, Map<string, string>>();

  add(rules: readonly CssRule[]): void {
    for (const { selector, declarations } of rules) {
      let kept = this.rules.get(selector);
      if (!kept) this.rules.set(selector, (kept = new Map()));
      for (const [property, value] of declarations) {
        const v = value.trim();
        if (v) kept.set(property, v);
      }
    }
  }

  get empty(): boolean {
    return this.rules.size === 0;
  }

  /**
   * wp_style_engine_get_stylesheet_from_context (optimised, not prettified): rules whose
   * declarations are the same are printed once, their selectors joined by commas, after the others.
   */
  stylesheet(): string {
    return compileRules([...this.rules].map(([selector, d]) => ({ selector, declarations: [...d] })));
  }
}

/**
 * One declaration as WP_Style_Engine_CSS_Declarations::filter_declaration prints it: the value
 * without markup (wp_strip_all_tags, so nothing closes the style element), then
 * `property:value`, or '' when safecss_filter_attr refuses the value.
 */
function declaration(property: string, value: string): string {
  const v = stripAllTags(value);
  return v && safeCssValue(v) ? `${property}:${v}` : '';
}

const ruleCss = (rule: CssRule) => {
  const body = rule.declarations.map(([p, v]) => declaration(p, v)).filter(Boolean).map((d) => `${d};`).join('');
  return body ? `${rule.selector}{${body}}` : '';
};

/** WP_Style_Engine_Processor::get_css with `optimize`: combine_rules_selectors, then each rule's CSS. */
export function compileRules(rules: readonly CssRule[]): string {
  const byDeclarations = (r: CssRule) => JSON.stringify([...r.declarations].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const out = new Map<string, CssRule>(rules.map((r) => [r.selector, r]));
  const signatures = new Map(rules.map((r) => [r.selector, byDeclarations(r)]));
  for (const rule of rules) {
    const signature = byDeclarations(rule);
    // PHP walks a copy of the selectors: one already combined is no longer among them
    const same = [...signatures].filter(([, s]) => s === signature).map(([selector]) => selector);
    if (same.length <= 1) continue;
    for (const selector of same) {
      signatures.delete(selector);
      out.delete(selector);
    }
    const combined = same.join(',');
    out.set(combined, { selector: combined, declarations: rule.declarations });
  }
  return [...out.values()].map(ruleCss).join('');
}
