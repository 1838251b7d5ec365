import { THEME_JSON } from '../../active-theme.ts';
import { compileRules, presetVariable, safeCssValue, UNSAFE_CSS, type CssRule } from './style-engine.ts';
import type { BlockSupportsState } from './state.ts';
import { truthy } from '../../../format/php-values.ts';
import { addClasses, blockDefaultClassName, type SupportedBlock } from './wrapper.ts';

/**
 * The layout block support (wp-includes/block-supports/layout.php, WordPress 6.1): a block whose
 * type supports `__experimentalLayout` gets its layout's class (`is-layout-flow`,
 * `is-layout-constrained`, `is-layout-flex`), the classes of its orientation, justification and
 * wrapping, and, when its layout asks for CSS of its own, a `wp-container-N` class with that CSS
 * in the page's block-supports stylesheet.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The class of each layout type: settings.layout.definitions of WordPress 6.1's own theme.json
 * (wp-includes/theme.json), which every theme inherits and this theme does not change.
 */
const LAYOUT_CLASS: Readonly<Record<string, string>> = { default: 'is-layout-flow', constrained: 'is-layout-constrained', flex: 'is-layout-flex' };

/**
 * What the layout support reads of the global settings (wp_get_global_settings): this theme's
 * theme.json sets neither `spacing.blockGap` nor `useRootPaddingAwareAlignments`, so WordPress's
 * own defaults hold (null and false: no gap CSS, no `has-global-padding`). twentytwentythree
 * sets both (appearanceTools, blockGap 1.5rem), so on it WordPress also prints the gap rules and
 * `has-global-padding` on constrained layouts.
 */
const settings = isObject(THEME_JSON.settings) ? THEME_JSON.settings : {};
const hasBlockGapSupport = isObject(settings.spacing) && settings.spacing.blockGap !== undefined && settings.spacing.blockGap !== null;
const rootPaddingAware = settings.useRootPaddingAwareAlignments === true;

/** The gap value of `var:preset|spacing|30`, or the value as it is. */
const gapCss = (v: unknown) => (typeof v === 'string' && v.includes('var:preset|spacing|') ? presetVariable(v, 'spacing') : v);

/** sanitize_title of the short ASCII words layout attributes hold (`vertical`, `space-between`). */
const sanitizeTitle = (v: string) => v.toLowerCase().replace(/[^a-z0-9 _-]/g, '').trim().replace(/[\s_]+/g, '-').replace(/-+/g, '-');

/** wp_style_engine_get_styles' padding sides, for the negative margins of full-width children. */
function paddingSides(spacing: unknown): { left?: string; right?: string } {
  const padding = isObject(spacing) ? spacing.padding : undefined;
  if (!isObject(padding)) return {};
  const side = (v: unknown) => (typeof v === 'string' && v.trim() ? (v.startsWith('var:') ? presetVariable(v, 'spacing') : v) : undefined);
  return { left: side(padding.left), right: side(padding.right) };
}

/** The gap declarations of flow and constrained layouts when the theme supports block gap and the block sets one. */
function flowGapRules(selector: string, gap: unknown, skip: boolean): CssRule[] {
  const value = isObject(gap) ? gap.top : gap;
  if (!hasBlockGapSupport || value === undefined || value === null || skip) return [];
  return [
    { selector: `${selector} > *`, declarations: [['margin-block-start', '0'], ['margin-block-end', '0']] },
    { selector: `${selector}${selector} > * + *`, declarations: [['margin-block-start', String(gapCss(value))], ['margin-block-end', '0']] },
  ];
}

/** wp_get_layout_style: the rules of one container's layout. */
function layoutRules(selector: string, layout: Json, gap: unknown, skipGap: boolean, fallbackGap: string, spacing: unknown): CssRule[] {
  const type = typeof layout.type === 'string' ? layout.type : 'default';
  const rules: CssRule[] = [];
  if (type === 'default') return flowGapRules(selector, gap, skipGap);
  if (type === 'constrained') {
    const contentSize = typeof layout.contentSize === 'string' ? layout.contentSize : '';
    const wideSize = typeof layout.wideSize === 'string' ? layout.wideSize : '';
    const justify = typeof layout.justifyContent === 'string' ? layout.justifyContent : 'center';
    const all = safeCssValue((contentSize || wideSize).split(';')[0]);
    const wide = safeCssValue((wideSize || contentSize).split(';')[0]);
    const children = `${selector} > :where(:not(.alignleft):not(.alignright):not(.alignfull))`;
    if (contentSize || wideSize) {
      rules.push(
        { selector: children, declarations: [['max-width', all], ['margin-left', justify === 'left' ? '0 !important' : 'auto !important'], ['margin-right', justify === 'right' ? '0 !important' : 'auto !important']] },
        { selector: `${selector} > .alignwide`, declarations: [['max-width', wide]] },
        { selector: `${selector} .alignfull`, declarations: [['max-width', 'none']] },
      );
      if (spacing !== undefined && spacing !== null) {
        const { left, right } = paddingSides(spacing);
        if (right) rules.push({ selector: `${selector} > .alignfull`, declarations: [['margin-right', `calc(${right} * -1)`]] });
        if (left) rules.push({ selector: `${selector} > .alignfull`, declarations: [['margin-left', `calc(${left} * -1)`]] });
      }
    }
    if (justify === 'left') rules.push({ selector: children, declarations: [['margin-left', '0 !important']] });
    if (justify === 'right') rules.push({ selector: children, declarations: [['margin-right', '0 !important']] });
    rules.push(...flowGapRules(selector, gap, skipGap));
    return rules;
  }
  if (type !== 'flex') return rules;
  const horizontal = (layout.orientation ?? 'horizontal') === 'horizontal';
  const justifyOptions: Record<string, string> = { left: 'flex-start', right: 'flex-end', center: 'center', ...(horizontal ? { 'space-between': 'space-between' } : {}) };
  const verticalOptions: Record<string, string> = { top: 'flex-start', center: 'center', bottom: 'flex-end' };
  const own = (property: string, value: string): CssRule => ({ selector, declarations: [[property, value]] });
  if (layout.flexWrap === 'nowrap') rules.push(own('flex-wrap', 'nowrap'));
  if (hasBlockGapSupport && gap !== undefined && gap !== null) {
    const sides = isObject(gap) ? ['top', 'left'] : ['top'];
    const value = sides.map((side) => String(gapCss(typeof gap === 'string' ? gap : isObject(gap) ? (gap[side] ?? fallbackGap) : fallbackGap))).join(' ');
    if (!skipGap) rules.push(own('gap', value));
  }
  const justify = typeof layout.justifyContent === 'string' ? justifyOptions[layout.justifyContent] : undefined;
  if (horizontal) {
    if (justify) rules.push(own('justify-content', justify));
    const vertical = typeof layout.verticalAlignment === 'string' ? verticalOptions[layout.verticalAlignment] : undefined;
    if (vertical) rules.push(own('align-items', vertical));
  } else {
    rules.push(own('flex-direction', 'column'), own('align-items', justify ?? 'flex-start'));
  }
  return rules;
}

/** A gap value with what safecss_filter_attr refuses in a value (`\ ( & } =`, a comment) is dropped. */
const safeGap = (v: unknown) => (typeof v === 'string' && v && UNSAFE_CSS.test(v) ? null : v);

/** wp_should_skip_block_supports_serialization of spacing's blockGap. */
function skipsGapSerialization(supports: Json): boolean {
  const skip = isObject(supports.spacing) ? supports.spacing.__experimentalSkipSerialization : undefined;
  return skip === true || (Array.isArray(skip) && skip.includes('blockGap'));
}

/** wp_render_layout_support_flag: the block's wrapper with its layout classes, its container's CSS added to the page. */
export function renderLayout(html: string, block: SupportedBlock, supports: Json, state: BlockSupportsState): string {
  // block_has_support: `true` or an object (an empty one too)
  const support = supports.__experimentalLayout;
  if (support !== true && (typeof support !== 'object' || support === null)) return html;
  const attrs = block.attrs;
  // a layout attribute set to anything else than an object is an empty one, as json_decode's `[]` is
  const given = attrs.layout === undefined || attrs.layout === null ? undefined : isObject(attrs.layout) ? attrs.layout : {};
  const used: Json = { ...(given ?? (isObject(support) && isObject(support.default) ? support.default : {})) };
  const container = state.uniqueId('wp-container-');
  if (truthy(used.inherit) || truthy(used.contentSize)) used.type = 'constrained';
  const classes: string[] = [];
  if (rootPaddingAware && used.type === 'constrained') classes.push('has-global-padding');
  if (typeof given?.orientation === 'string' && given.orientation) classes.push(`is-${sanitizeTitle(given.orientation)}`);
  if (typeof given?.justifyContent === 'string' && given.justifyContent) classes.push(`is-content-justification-${sanitizeTitle(given.justifyContent)}`);
  if (given?.flexWrap === 'nowrap') classes.push('is-nowrap');
  const type = typeof used.type === 'string' ? used.type : 'default';
  const layoutClass = LAYOUT_CLASS[type];
  if (layoutClass) classes.push(layoutClass);
  const style = isObject(attrs.style) ? attrs.style : {};
  const spacing = style.spacing;
  const rawGap = isObject(spacing) ? spacing.blockGap : undefined;
  const gap = isObject(rawGap) ? Object.fromEntries(Object.entries(rawGap).map(([k, v]) => [k, safeGap(v)])) : safeGap(rawGap);
  const blockGapSupport = isObject(supports.spacing) ? supports.spacing.blockGap : undefined;
  const fallbackGap = isObject(blockGapSupport) && typeof blockGapSupport.__experimentalDefault === 'string' ? blockGapSupport.__experimentalDefault : '0.5em';
  const rules = layoutRules(`.${blockDefaultClassName(block.name)}.${container}`, used, gap, skipsGapSerialization(supports), fallbackGap, spacing);
  state.addRules(rules);
  // the container's class only when its rules print something (wp_get_layout_style's CSS not empty)
  if (compileRules(rules)) classes.push(container);
  return addClasses(html, classes.join(' '));
}
