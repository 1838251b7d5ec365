import { CssRulesStore, type CssRule } from './style-engine.ts';

/**
 * What rendering blocks leaves for the page besides their markup, for one request, as WordPress
 * keeps it in a PHP request's globals: wp_unique_id's counter (the `wp-container-N` and duotone
 * ids, numbered in rendering order across everything the request renders), the style engine's
 * block-supports store, the duotone filters' inline styles and their SVGs for wp_footer.
 */

/** Something a rendering added to the page, kept so that a kept rendering adds it again. */
type Effect = { kind: 'rules'; rules: readonly CssRule[] } | { kind: 'inline-style'; id: string; css: string } | { kind: 'footer'; html: string; priority: number };

/** What a rendering did to the request's state: how many ids it took and what it added. */
export interface SupportsEffects {
  ids: number;
  effects: readonly Effect[];
}

export class BlockSupportsState {
  private counter = 0;
  private readonly store = new CssRulesStore();
  private readonly inlineStyles: { id: string; css: string }[] = [];
  private readonly footer: { html: string; priority: number }[] = [];
  /** Every effect in order, so that what one rendering added can be told apart (`since`). */
  private readonly journal: Effect[] = [];

  /** wp_unique_id: the prefix and the request's next number. */
  uniqueId(prefix: string): string {
    return `${prefix}${++this.counter}`;
  }

  private readonly counters = new Map<string, number>();

  /** A render callback's own counter (a PHP `static $block_id` in it, such as the categories dropdown's), per request. */
  staticCounter(name: string): number {
    const n = (this.counters.get(name) ?? 0) + 1;
    this.counters.set(name, n);
    return n;
  }

  /** The next id wp_unique_id will give: a rendering that takes ids depends on it. */
  get position(): number {
    return this.counter;
  }

  /** Rules added to the block-supports store (wp_style_engine_get_stylesheet_from_css_rules with its context). */
  addRules(rules: readonly CssRule[]): void {
    if (rules.length) this.apply({ kind: 'rules', rules });
  }

  /** A style registered and enqueued with its inline CSS (wp_add_inline_style), printed with the late styles. */
  addInlineStyle(id: string, css: string): void {
    this.apply({ kind: 'inline-style', id, css });
  }

  /** HTML printed in wp_footer at a priority (a duotone filter's SVG at 10, wp_enqueue_block_support_styles' `<style>` at its own). */
  addFooter(html: string, priority = 10): void {
    this.apply({ kind: 'footer', html, priority });
  }

  private apply(effect: Effect): void {
    this.journal.push(effect);
    if (effect.kind === 'rules') this.store.add(effect.rules);
    else if (effect.kind === 'inline-style') this.inlineStyles.push({ id: effect.id, css: effect.css });
    else this.footer.push({ html: effect.html, priority: effect.priority });
  }

  /** A point to measure a rendering's effects from. */
  mark(): { ids: number; at: number } {
    return { ids: this.counter, at: this.journal.length };
  }

  since(mark: { ids: number; at: number }): SupportsEffects {
    return { ids: this.counter - mark.ids, effects: this.journal.slice(mark.at) };
  }

  /** A kept rendering's effects made again, as if it had just rendered. */
  replay(done: SupportsEffects): void {
    this.counter += done.ids;
    for (const effect of done.effects) this.apply(effect);
  }

  /**
   * What wp_footer prints of it on a classic theme's page, in WordPress 6.1's order: the actions
   * added while rendering by priority, then in the order added (the duotone SVGs at 10, the
   * gallery gaps at 11), then the late styles (print_late_styles at 20): each duotone style, then
   * the block-supports stylesheet wp_enqueue_stored_styles enqueued (at 1) as `core-block-supports`.
   */
  footerHtml(): string {
    const style = (id: string, css: string) => `<style id='${id}-inline-css'>\n${css}\n</style>\n`;
    let html = [...this.footer].sort((a, b) => a.priority - b.priority).map((f) => f.html).join('');
    for (const s of this.inlineStyles) html += style(s.id, s.css);
    if (!this.store.empty) {
      const css = this.store.stylesheet();
      if (css) html += style('core-block-supports', css);
    }
    return html;
  }
}

const byRequest = new WeakMap<object, BlockSupportsState>();

/**
 * The state of the request `request` stands for (a REST handler's context), made at its first
 * use: the posts of one answer are numbered on from each other, as in one PHP request.
 */
export function requestSupports(request: object): BlockSupportsState {
  let state = byRequest.get(request);
  if (!state) byRequest.set(request, (state = new BlockSupportsState()));
  return state;
}
