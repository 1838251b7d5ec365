import { createHash } from 'node:crypto';
import type { PageContext, Site } from './site.ts';
import type { RenderTrace } from './blocks.ts';
import type { SupportsEffects } from './block-library/supports/state.ts';
import type { Store } from '../store/index.ts';

/** The bytes of rendered HTML (and keys) kept per site; the least recently used goes first past it. */
const KEPT_BYTES = 8 * 1024 * 1024;

/**
 * The core's shared-state topics a rendering depends on: the options the filters read
 * (`use_smilies`, the home and site URLs, the permalink structure blocks link with...) and the
 * active plugins (their blocks, shortcodes and content filters). Plugins add theirs (`SiteHooks.topics`).
 */
const CORE_TOPICS = ['options', 'plugins'];

/**
 * A store that marks the rendering as volatile when anything of it is used: a rendering that read
 * the database (an attachment's sizes for `srcset`, a dynamic block's posts, a snippet list not
 * loaded yet) depends on more than its inputs and is not kept.
 */
function watched(store: Store, trace: RenderTrace): Store {
  return new Proxy(store, {
    get(target, property) {
      trace.volatile = true;
      return Reflect.get(target, property, target);
    },
  });
}

/** A kept rendering: its HTML and what it added to the request's block-supports state (ids taken, styles). */
interface Kept {
  html: string;
  supports: SupportsEffects;
  /** Its share of KEPT_BYTES, key included. */
  bytes: number;
}

const NO_EFFECTS: SupportsEffects = { ids: 0, effects: [] };

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** A key of strings that cannot run into each other: each is preceded by its length. */
function keyOf(parts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(`${p.length}:`).update(p);
  return hash.digest('base64');
}

/**
 * Rendered HTML kept per site (the_content, the_excerpt), keyed by everything a rendering reads:
 * the markup rendered and the page it is rendered for (its kind, post and URL: a post's own row
 * changed by any writer, this process or another, is other markup, so another key), and, for the
 * whole cache, the state of the site the filters read: the shared-state versions of the options,
 * the active plugins and the topics the plugins' site hooks name (moved by a write here or by
 * another process, the CLI on the same SQLite file, seen at the next request's catch-up), and the
 * objects those are held in (replaced whole when they change in this process). When any of that
 * moved, everything kept is dropped. Block supports number their containers per request
 * (`wp-container-N`), so where the request's numbering stood is part of the key, and a kept
 * rendering takes its ids and adds its styles to the request again when it is reused. A rendering that used the store or ran a dynamic block (whose
 * callback may read anything, the time included) is not kept; nor one during which the state moved.
 */
export class KeptRenderings {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;
  private state: readonly unknown[] = [];

  constructor(private readonly site: Site) {}

  /** What the filters read of the site now; a rendering kept at another state is stale. */
  private stateNow(): unknown[] {
    const { site } = this;
    const state: unknown[] = [site.options, site.info, site.home, site.hooks, site.blocks];
    for (const topic of CORE_TOPICS) state.push(site.shared.version(topic));
    for (const ext of site.hooks) for (const topic of ext.hooks.topics ?? []) state.push(topic, site.shared.version(topic));
    return state;
  }


  /**
   * `render(ctx)`'s HTML, kept under `parts` (what it renders, besides the page) when it read
   * nothing else. Called within another kept rendering, it passes a volatile one on to it.
   */
  async keep(ctx: PageContext, parts: readonly string[], render: (ctx: PageContext) => Promise<string>): Promise<string> {
    const state = this.stateNow();
    if (!same(state, this.state)) {
      this.kept.clear();
      this.bytes = 0;
      this.state = state;
    }
    const supports = ctx.supports;
    const key = keyOf([ctx.kind, String(ctx.postId ?? ''), ctx.url, String(supports?.position ?? ''), ...parts]);
    const found = this.kept.get(key);
    if (found !== undefined) {
      // most recently used last, so the oldest goes first past the cap
      this.kept.delete(key);
      this.kept.set(key, found);
      supports?.replay(found.supports);
      return found.html;
    }
    const trace: RenderTrace = { volatile: false };
    const mark = supports?.mark();
    const html = await render({ ...ctx, store: watched(ctx.store, trace), trace });
    if (trace.volatile) {
      if (ctx.trace) ctx.trace.volatile = true;
      return html;
    }
    // kept only if the site's state is still the one it was rendered at
    if (same(state, this.state) && same(state, this.stateNow()) && !this.kept.has(key)) {
      const effects = supports && mark ? supports.since(mark) : NO_EFFECTS;
      const bytes = key.length + html.length + (effects.effects.length ? JSON.stringify(effects.effects).length : 0);
      this.kept.set(key, { html, supports: effects, bytes });
      this.bytes += bytes;
      for (const [oldest, value] of this.kept) {
        if (this.bytes <= KEPT_BYTES) break;
        this.kept.delete(oldest);
        this.bytes -= value.bytes;
      }
    }
    return html;
  }
}

const bySite = new WeakMap<Site, KeptRenderings>();

/** The renderings kept for a site. */
export function keptRenderings(site: Site): KeptRenderings {
  let kept = bySite.get(site);
  if (!kept) bySite.set(site, (kept = new KeptRenderings(site)));
  return kept;
}
