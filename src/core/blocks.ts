import { compileArgs, type CompiledArgs } from '../engine/args.ts';
import { invalidParams, RestError, type ParamFailure } from '../engine/errors.ts';
import type { Logger } from '../engine/types.ts';
import { preRenderSupports, renderSupports } from './block-library/supports/apply.ts';
import { BlockSupportsState } from './block-library/supports/state.ts';

/**
 * The block registry: WordPress's WP_Block_Type_Registry, WP_Block_Patterns_Registry and
 * WP_Block_Pattern_Categories_Registry as data, and do_blocks. The core's blocks, patterns and
 * pattern categories (src/core/block-library/core-blocks.ts) come first, then each active plugin's (its
 * definition's `blocks`, `patterns`, `patternCategories`), in load order. The site's the_content,
 * the REST `content.rendered` and `block-renderer` all render through `render` / `renderBlock`.
 */

/** One attribute of a block type, as block.json writes it: a JSON Schema with WordPress's sourcing keys. */
export interface BlockAttribute {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  /** Where the editor reads it from the saved markup (`html`, `attribute`, `text`...); the server ignores it. */
  source?: string;
  selector?: string;
  attribute?: string;
  [key: string]: unknown;
}

/** What a dynamic block's render callback gets besides its attributes: the page it renders on. */
/**
 * The page being rendered. Empty here so that this registry imports nothing of the site: core/site.ts
 * merges its PageContext into it (declaration merging, as Fastify's decorators type themselves).
 */
export interface BlockRenderContext {
  /** Set while a rendering that may be kept runs (src/core/kept-renderings.ts); a dynamic block marks it volatile. */
  trace?: RenderTrace;
  /** The posts whose content a post-content block is rendering around this rendering (its recursion guard). */
  contentShown?: ReadonlySet<number>;
  /** The reusable blocks (`wp_block` posts) being rendered around this rendering (core/block's recursion guard). */
  reusableShown?: ReadonlySet<number>;
  /** The template parts (`theme//slug`) being rendered around this rendering (core/template-part's recursion guard). */
  partsShown?: ReadonlySet<string>;
  /**
   * The request's block-supports state: wp_unique_id's counter (`wp-container-N`, a navigation's
   * `modal-N`, a search form's input id...), the styles for the page; a rendering without one starts its own.
   */
  supports?: BlockSupportsState;
}

/** A rendering under way: its block-supports state is settled. */
type Rendering = BlockRenderContext & { supports: BlockSupportsState };

const rendering = (ctx: BlockRenderContext): Rendering => (ctx.supports ? (ctx as Rendering) : { ...ctx, supports: new BlockSupportsState() });

/** What a rendering met that makes it unfit to keep: a dynamic block, the store used. */
export interface RenderTrace {
  volatile: boolean;
}

/** Block context (WP_Block's `context`): `postId`, `postType`, `queryId`, `query`... by name. */
export type BlockContext = Readonly<Record<string, unknown>>;

/** A parsed block with its attributes as prepared for rendering (validated, defaults filled). */
export interface RenderedBlock {
  name: string;
  attributes: Record<string, unknown>;
  /** The attributes as written in the markup, which the block supports read (WP_Block_Supports). */
  parsedAttributes: Record<string, unknown>;
  /** Its type's supports. */
  supports: Readonly<Record<string, unknown>>;
  /** The block's inner content, already rendered (its inner blocks included); empty for a type that skips its inner blocks. */
  content: string;
  /** The context the block uses (its type's `usesContext`), from what its ancestors and the page provide. */
  context: BlockContext;
  /** Its inner blocks as parsed (a navigation groups its items by their names). */
  innerBlocks: readonly ParsedBlock[];
  /**
   * A copy of the block rendered with the context given and no callback, as a loop renders one per
   * item (`( new WP_Block( $copy ) )->render( array( 'dynamic' => false ) )`): its inner content
   * through the supports' render_block filters of the copy, named `name` (the block's own unless
   * given: post-template names its copies `core/null`, a type nobody registers, whose filters
   * still add the elements class of a link colour, as wp_render_elements_support asks no type).
   */
  renderInner(context: BlockContext, name?: string): Promise<string>;
  /** Its inner blocks rendered one by one with the context it gives them, without the text between them (a callback's loop over WP_Block's `inner_blocks`). */
  renderInnerBlocks(): Promise<string[]>;
  /**
   * WP_Block::render( array( 'dynamic' => false ) ) of the block itself: its saved markup with its
   * inner blocks rendered (a type that skips them too), through the block supports' render filters,
   * which run once more on what the callback returns (core/comments' elements class is written twice).
   */
  renderStatic(): Promise<string>;
}

/** A block type (register_block_type with block.json's fields). Without `render` it is static: its saved markup is its output. */
export interface BlockTypeDefinition {
  /** `namespace/name`. */
  name: string;
  title: string;
  description?: string;
  category?: string;
  /** A dashicon name or an SVG. */
  icon?: string;
  keywords?: readonly string[];
  parent?: readonly string[];
  ancestor?: readonly string[];
  /** block.json's apiVersion (1 when unset, as WordPress). */
  apiVersion?: number;
  textdomain?: string;
  attributes?: Readonly<Record<string, BlockAttribute>>;
  providesContext?: Readonly<Record<string, string>>;
  usesContext?: readonly string[];
  supports?: Readonly<Record<string, unknown>>;
  styles?: readonly { name: string; label: string; isDefault?: boolean }[];
  example?: Readonly<Record<string, unknown>>;
  variations?: readonly Readonly<Record<string, unknown>>[];
  /** The variations WordPress builds at init from the site's state, after `variations` (the template part's: one per part of the theme). */
  siteVariations?(ctx: Pick<BlockRenderContext, 'store' | 'site'>): Promise<readonly Readonly<Record<string, unknown>>[]>;
  editorScriptHandles?: readonly string[];
  scriptHandles?: readonly string[];
  viewScriptHandles?: readonly string[];
  editorStyleHandles?: readonly string[];
  styleHandles?: readonly string[];
  /** skip_inner_blocks: its inner blocks are not rendered before its callback, which renders them itself (a loop). */
  skipInnerBlocks?: boolean;
  /** The render callback of a dynamic block: its HTML from its attributes and rendered inner content. */
  render?(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> | string;
  /** Whether `render` reads nothing but the block (and the request's supports state), so its output may be kept. */
  pure?: boolean;
  /** A render_block_data filter of this block: its parsed block changed before it renders (core/gallery gives its images a `data-id`). */
  blockData?(block: ParsedBlock): ParsedBlock;
}

/** A block pattern (register_block_pattern). */
export interface BlockPattern {
  /** `namespace/name`. */
  name: string;
  title: string;
  content: string;
  description?: string;
  viewportWidth?: number;
  blockTypes?: readonly string[];
  postTypes?: readonly string[];
  categories?: readonly string[];
  keywords?: readonly string[];
  inserter?: boolean;
}

/** A block pattern category (register_block_pattern_category). */
export interface BlockPatternCategory {
  name: string;
  label: string;
}

/** What the core or one plugin registers. */
export interface BlockSet {
  /** Who registered it, for failure reports (`core` or the plugin's name). */
  owner: string;
  blocks?: readonly BlockTypeDefinition[];
  patterns?: readonly BlockPattern[];
  patternCategories?: readonly BlockPatternCategory[];
}

// --- parse_blocks ---

/** has_blocks: whether the content holds block markup (then the_content does not wpautop it). */
export const hasBlocks = (content: string): boolean => content.includes('<!-- wp:');

/** A block as parse_blocks finds it: its name, its attributes as written, and its inner parts (text and blocks, in order). */
export interface ParsedBlock {
  name: string;
  attrs: Record<string, unknown>;
  inner: (string | ParsedBlock)[];
}

/**
 * The inside of a block delimiter comment, as WordPress's block parser reads them: `wp:name {json}`,
 * the closer `/wp:name` and the void `wp:name {json} /`, with an optional namespace (`core/` when
 * none is written). Block attributes are serialised with `--` escaped, so a delimiter ends at the
 * first `-->`.
 */
const DELIMITER_BODY = /^\s+(\/)?wp:([a-z][a-z0-9_-]*\/)?([a-z][a-z0-9_-]*)\s+(\{[^]*\}\s+)?(\/)?$/;

const attrsOf = (json: string | undefined): Record<string, unknown> => {
  if (!json) return {};
  try {
    const value = JSON.parse(json) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * parse_blocks: the document as text and blocks, in one pass over its comments (linear in its
 * length). A closer ends the innermost open block (as WordPress's parser does, whatever name it
 * carries); a closer with nothing open is dropped; blocks left open at the end are closed there.
 * The text around delimiters is kept whole, newlines included: WordPress renders a serialised
 * paragraph as `\n<p>…</p>\n` and the blank line between two blocks as `\n\n`.
 */
export function parseBlocks(document: string): (string | ParsedBlock)[] {
  const root: (string | ParsedBlock)[] = [];
  const stack: ParsedBlock[] = [];
  const into = () => (stack.length ? stack[stack.length - 1].inner : root);
  let at = 0;
  for (let open = document.indexOf('<!--'); open >= 0; ) {
    const close = document.indexOf('-->', open + 4);
    if (close < 0) break;
    const m = DELIMITER_BODY.exec(document.slice(open + 4, close));
    const end = close + 3;
    if (m) {
      if (open > at) into().push(document.slice(at, open));
      at = end;
      const [, closer, namespace, name, json, isVoid] = m;
      if (closer) {
        const done = stack.pop();
        if (done) into().push(done);
      } else {
        const block: ParsedBlock = { name: `${namespace ?? 'core/'}${name}`, attrs: attrsOf(json?.trim()), inner: [] };
        if (isVoid) into().push(block);
        else stack.push(block);
      }
    }
    open = document.indexOf('<!--', end);
  }
  if (at < document.length) into().push(document.slice(at));
  while (stack.length) {
    const done = stack.pop()!;
    into().push(done);
  }
  return root;
}

// --- attributes ---

/** The attribute every block has (WP_Block_Type::GLOBAL_ATTRIBUTES). */
const GLOBAL_ATTRIBUTES: Readonly<Record<string, BlockAttribute>> = { lock: { type: 'object' } };

const supported = (supports: Readonly<Record<string, unknown>>, key: string, fallback = false): boolean => {
  const v = supports[key];
  return v === undefined ? fallback : v !== false;
};

const feature = (value: unknown, key: string, fallback: boolean): boolean => {
  if (value === true) return fallback;
  if (value && typeof value === 'object') {
    const v = (value as Record<string, unknown>)[key];
    return v === undefined ? fallback : v !== false;
  }
  return false;
};

/** The typography features wp_register_typography_support looks for. */
const TYPOGRAPHY_FEATURES = ['__experimentalFontFamily', 'fontSize', '__experimentalFontStyle', '__experimentalFontWeight', '__experimentalLetterSpacing', 'lineHeight', '__experimentalTextDecoration', '__experimentalTextTransform'];

/**
 * The attributes the block supports add (WP_Block_Supports::register_attributes), in the order
 * WordPress registers the supports: alignment, border, colors, the custom class name, duotone,
 * layout, spacing, typography, each adding what it stores.
 */
function supportAttributes(supports: Readonly<Record<string, unknown>>): Record<string, BlockAttribute> {
  const out: Record<string, BlockAttribute> = {};
  const style = () => (out.style ??= { type: 'object' });
  if (supported(supports, 'align')) out.align = { type: 'string', enum: ['left', 'center', 'right', 'wide', 'full', ''] };
  const border = supports.__experimentalBorder;
  if (border) {
    style();
    if (feature(border, 'color', false)) out.borderColor = { type: 'string' };
  }
  const color = supports.color;
  const background = feature(color, 'background', true);
  const text = feature(color, 'text', true);
  const gradients = feature(color, 'gradients', false);
  // the colors add `style` for any color they support: duotone alone (the site logo's) adds it after the class name
  if (background || text || gradients || feature(color, 'link', false)) style();
  if (background) out.backgroundColor = { type: 'string' };
  if (text) out.textColor = { type: 'string' };
  if (gradients) out.gradient = { type: 'string' };
  if (supported(supports, 'customClassName', true)) out.className = { type: 'string' };
  if (color && feature(color, '__experimentalDuotone', false)) style();
  if (supported(supports, '__experimentalLayout') || supported(supports, 'layout')) out.layout = { type: 'object' };
  if (supports.spacing) style();
  const typography = supports.typography;
  if (typography && typeof typography === 'object') {
    const t = typography as Record<string, unknown>;
    // `style` for any typography feature on: `typography: { fontSize: false }` (loginout's) adds nothing
    if (TYPOGRAPHY_FEATURES.some((f) => t[f])) style();
    if (t.fontSize) out.fontSize = { type: 'string' };
    if (t.__experimentalFontFamily) out.fontFamily = { type: 'string' };
  }
  return out;
}

const typeMatches = (type: string, v: unknown): boolean => {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'null':
      return v === null;
    default:
      return true;
  }
};

/** Whether a stored value fits its attribute's type and enum (what prepare_attributes_for_render checks). */
function fits(schema: BlockAttribute, v: unknown): boolean {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length && !types.some((t) => typeMatches(t, v))) return false;
  return !schema.enum || schema.enum.some((e) => e === v);
}

// --- the registry ---

/** excerpt_remove_blocks' lists: the blocks whose text an excerpt keeps, and the wrappers it looks into. */
const EXCERPT_INNER_BLOCKS = new Set(['core/freeform', 'core/heading', 'core/html', 'core/list', 'core/media-text', 'core/paragraph', 'core/preformatted', 'core/pullquote', 'core/quote', 'core/table', 'core/verse']);
const EXCERPT_WRAPPER_BLOCKS = new Set(['core/columns', 'core/column', 'core/group']);

interface Registered {
  def: BlockTypeDefinition;
  owner: string;
  attributes: Record<string, BlockAttribute>;
  /** The validator of block-renderer's `attributes` for this block, compiled at first use. */
  args?: CompiledArgs;
}

export class BlockRegistry {
  private readonly types = new Map<string, Registered>();
  readonly patterns: readonly BlockPattern[];
  readonly patternCategories: readonly BlockPatternCategory[];

  /** The sets in order (the core's first); a later block, pattern or category of a name already registered is ignored, as WordPress refuses it. */
  constructor(
    sets: readonly BlockSet[] = [],
    /** Where a failing render callback is reported (a registry made without one, the empty one a site starts with, reports nowhere). */
    readonly log: Logger = { error() {}, info() {} },
  ) {
    for (const set of sets)
      for (const def of set.blocks ?? []) {
        if (this.types.has(def.name)) continue;
        const attributes: Record<string, BlockAttribute> = { ...def.attributes };
        for (const [k, v] of Object.entries({ ...GLOBAL_ATTRIBUTES, ...supportAttributes(def.supports ?? {}) })) if (!(k in attributes)) attributes[k] = v;
        this.types.set(def.name, { def, owner: set.owner, attributes });
      }
    const unique = <T extends { name: string }>(items: T[]) => {
      const seen = new Set<string>();
      return items.filter((i) => !seen.has(i.name) && seen.add(i.name));
    };
    this.patterns = unique(sets.flatMap((s) => [...(s.patterns ?? [])]));
    this.patternCategories = unique(sets.flatMap((s) => [...(s.patternCategories ?? [])]));
  }

  /** Every registered block type, in registration order. */
  all(): BlockTypeDefinition[] {
    return [...this.types.values()].map((r) => r.def);
  }

  get(name: string): BlockTypeDefinition | undefined {
    return this.types.get(name)?.def;
  }

  /** WP_Block_Type::get_attributes: block.json's, the global `lock`, and those its supports add. */
  attributesOf(name: string): Record<string, BlockAttribute> | undefined {
    return this.types.get(name)?.attributes;
  }

  /**
   * Attributes sent for a block, checked against its attribute schema with no other properties
   * allowed and coerced as WordPress sanitizes them (block-renderer's validate and sanitize
   * callbacks): a WordPress rest_invalid_param when they do not fit.
   */
  checkAttributes(name: string, attributes: Record<string, unknown>): Record<string, unknown> {
    const r = this.types.get(name);
    if (!r) return attributes;
    // the arg's validate_callback checks the value on its own (rest_validate_value_from_schema with no
    // param name), so WordPress's messages name `[showPostCounts]`, not `attributes[showPostCounts]`
    r.args ??= compileArgs({ '': { type: 'object', properties: r.attributes, additionalProperties: false } });
    const params = { '': attributes };
    try {
      r.args.apply(params);
    } catch (e) {
      const failure = e instanceof RestError ? (e.data?.details as Record<string, ParamFailure> | undefined)?.[''] : undefined;
      if (failure) throw invalidParams(new Map([['attributes', failure]]));
      throw e;
    }
    return params[''];
  }

  /**
   * WP_Block_Type::prepare_attributes_for_render: a value that does not fit its schema is
   * dropped, a missing one takes its default; attributes the type does not declare are kept.
   */
  prepareAttributes(name: string, given: Record<string, unknown>): Record<string, unknown> {
    const r = this.types.get(name);
    if (!r) return given;
    const out: Record<string, unknown> = { ...given };
    for (const [key, schema] of Object.entries(r.attributes)) {
      if (key in out && !fits(schema, out[key])) delete out[key];
      if (!(key in out) && schema.default !== undefined) out[key] = structuredClone(schema.default);
    }
    return out;
  }

  /**
   * do_blocks: block markup rendered (static blocks as saved, without their delimiters; dynamic
   * ones by their render callback); content without blocks comes back as it is (the_content's
   * wpautop then formats it, see src/core/hooks.ts).
   */
  async render(content: string, ctx: BlockRenderContext): Promise<string> {
    if (!hasBlocks(content)) return content;
    const parts = parseBlocks(content);
    return this.renderParts(parts, await this.pageContext(parts, ctx), rendering(ctx));
  }

  /**
   * excerpt_remove_blocks (WordPress 6.1): the content an excerpt is made from, rendered: the
   * top-level blocks whose text belongs in an excerpt (and classic text), a wrapper block by its
   * allowed inner blocks alone, a block with any other or nested inner block left out.
   */
  async renderForExcerpt(content: string, page: BlockRenderContext): Promise<string> {
    const parts = parseBlocks(content);
    const context = await this.pageContext(parts, page);
    const ctx = rendering(page);
    let html = '';
    for (const part of parts) {
      if (typeof part === 'string') html += part;
      else if (EXCERPT_WRAPPER_BLOCKS.has(part.name) && part.inner.some((p) => typeof p !== 'string')) html += await this.renderExcerptInner(part, context, ctx);
      else if (EXCERPT_INNER_BLOCKS.has(part.name) || EXCERPT_WRAPPER_BLOCKS.has(part.name)) {
        const inner = part.inner.filter((p): p is ParsedBlock => typeof p !== 'string');
        if (inner.every((b) => EXCERPT_INNER_BLOCKS.has(b.name) && !b.inner.some((p) => typeof p !== 'string'))) html += await this.renderParsed(part, context, ctx);
      }
    }
    return html;
  }

  /** _excerpt_render_inner_blocks: a wrapper's allowed inner blocks, wrappers among them by their own. */
  private async renderExcerptInner(block: ParsedBlock, context: BlockContext, ctx: Rendering): Promise<string> {
    let html = '';
    for (const inner of block.inner) {
      if (typeof inner === 'string' || !(EXCERPT_INNER_BLOCKS.has(inner.name) || EXCERPT_WRAPPER_BLOCKS.has(inner.name))) continue;
      html += inner.inner.some((p) => typeof p !== 'string') ? await this.renderExcerptInner(inner, context, ctx) : await this.renderParsed(inner, context, ctx);
    }
    return html;
  }

  /** render_block of one block given by name and attributes, with no inner content (block-renderer). */
  async renderBlock(name: string, attributes: Record<string, unknown>, ctx: BlockRenderContext): Promise<string> {
    const block: ParsedBlock = { name, attrs: attributes, inner: [] };
    return this.renderParsed(block, await this.pageContext([block], ctx), rendering(ctx));
  }

  /**
   * render_block's context: the post being rendered (`postId`, `postType`), as WordPress takes it
   * from the global `$post`. Looked up only when a dynamic block is there to use it, so that
   * static content reads nothing of the store and stays fit to keep.
   */
  private async pageContext(parts: readonly (string | ParsedBlock)[], ctx: BlockRenderContext): Promise<BlockContext> {
    if (ctx.postId === undefined || !this.anyDynamic(parts)) return {};
    const post = await ctx.store.posts.get(ctx.postId);
    return post ? { postId: post.id, postType: post.type } : {};
  }

  private anyDynamic(parts: readonly (string | ParsedBlock)[]): boolean {
    return parts.some((p) => typeof p !== 'string' && (this.types.get(p.name)?.def.render !== undefined || this.anyDynamic(p.inner)));
  }

  /** Blocks rendered one by one with the context given (new WP_Block_List( $blocks, $context ), each rendered): a navigation's items from its menu post. */
  async renderEach(blocks: readonly ParsedBlock[], context: BlockContext, ctx: BlockRenderContext): Promise<string[]> {
    const out: string[] = [];
    const settled = rendering(ctx);
    for (const block of blocks) out.push(await this.renderParsed(block, context, settled));
    return out;
  }

  private async renderParts(parts: readonly (string | ParsedBlock)[], available: BlockContext, ctx: Rendering): Promise<string> {
    let html = '';
    for (const part of parts) html += typeof part === 'string' ? part : await this.renderParsed(part, available, ctx);
    return html;
  }

  /**
   * WP_Block::render: the block's render_block_data filter, then its inner blocks, each given the
   * context available here plus what this block provides from its attributes (`providesContext`),
   * then the render callback of a dynamic block with the context its type uses (`usesContext`);
   * the block supports' filters (layout, elements, duotone) around it all, on every block.
   */
  private async renderParsed(parsed: ParsedBlock, available: BlockContext, ctx: Rendering): Promise<string> {
    const r = this.types.get(parsed.name);
    const block = r?.def.blockData?.(parsed) ?? parsed;
    preRenderSupports(block, r?.def.supports, ctx.supports);
    const supported = (html: string) => renderSupports(html, block, r?.def.supports, ctx.supports);
    const attributes = this.prepareAttributes(block.name, block.attrs);
    const childContext: Record<string, unknown> = { ...available };
    for (const [name, attribute] of Object.entries(r?.def.providesContext ?? {})) if (attribute in attributes) childContext[name] = attributes[attribute];
    const content = r?.def.render && r.def.skipInnerBlocks ? '' : await this.renderParts(block.inner, childContext, ctx);
    if (!r?.def.render) return supported(content);
    // a render callback may read anything (posts, the time): its output is not kept, unless it reads nothing
    if (ctx.trace && !r.def.pure) ctx.trace.volatile = true;
    const context: Record<string, unknown> = {};
    for (const name of r.def.usesContext ?? []) if (name in available) context[name] = available[name];
    const innerBlocks = block.inner.filter((p): p is ParsedBlock => typeof p !== 'string');
    let html = '';
    try {
      const renderInner = async (given: BlockContext, name = block.name) =>
        renderSupports(await this.renderParts(block.inner, given, ctx), { ...block, name }, this.types.get(name)?.def.supports, ctx.supports);
      const renderInnerBlocks = () => this.renderEach(innerBlocks, childContext, ctx);
      const renderStatic = () => renderInner(childContext);
      html = await r.def.render({ name: block.name, attributes, parsedAttributes: block.attrs, supports: r.def.supports ?? {}, content, context, innerBlocks, renderInner, renderInnerBlocks, renderStatic }, ctx);
    } catch (e) {
      // a failing block renders as nothing, so one broken plugin does not take the page down
      this.log.error(`block ${block.name} of ${r.owner} failed to render: ${e instanceof Error ? e.message : String(e)}`);
    }
    return supported(html);
  }
}
