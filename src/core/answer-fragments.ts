import { RequestScoped } from '../engine/request-scoped.ts';
import { observeCaller } from '../engine/caller-reads.ts';
import type { Stamp } from '../engine/response-cache.ts';
import { PrebuiltJson } from '../engine/types.ts';
import { noteRead, readingScope, type ReadsSoFar } from '../store/table-versions.ts';
import { SiteDependencies } from './answer-dependencies.ts';
import { requestSupports, type SupportsEffects } from './block-library/supports/state.ts';
import type { Ctx } from './context.ts';
import type { Site } from './site.ts';

/** The memory fragments may take per site, as counted below; the least recently used go first past it. */
const KEPT_BYTES = 48 * 1024 * 1024;

/** A fragment's object, kept beside its JSON (for `_fields`, `_embed`, a handler's own reading), takes about twice the JSON's bytes. */
const OBJECT_AND_JSON = 3;

/** Fragments kept under one key, one per kind of caller that asked (anonymous, an editor, an administrator...). */
const VARIANTS_PER_KEY = 4;

/** What a key's bytes and a fragment's bookkeeping cost besides its JSON. */
const FRAGMENT_OVERHEAD = 512;

/** A part of an answer kept: its JSON, what it was made from, and for which callers it is the same. */
interface Fragment {
  readonly json: PrebuiltJson;
  readonly stamp: Stamp;
  /** Each capability its making asked, with the answer: another caller gets it only with the same answers. */
  readonly caps: readonly (readonly [string, boolean])[];
  /** The caller's id when its making read who the caller is (null: anonymous); undefined when it did not. */
  readonly caller: number | null | undefined;
  /** Where the request's block-supports numbering stood when it was made, and what it added to it. */
  readonly position: number;
  readonly supports: SupportsEffects;
  readonly bytes: number;
  /** The snapshot of the versions it was last found current at (the same object until a version moves). */
  currentAt: ReadonlyMap<string, number> | undefined;
}

/** A request being answered: the versions when it began, and what it has read since. */
interface RequestReads {
  readonly before: ReadonlyMap<string, number>;
  readonly reads: ReadsSoFar;
}

/**
 * Parts of answers kept (issue 41): a post's, a term's, a comment's or a user's object as their
 * routes answer it, for one context, kept as its JSON and used again by any request, anonymous or
 * not, for as long as nothing it depends on has moved, so a list of ten posts joins ten kept
 * fragments instead of making ten posts again. What a fragment depends on:
 * - the tables its request had read when it was made (all of them, from the request's start: the
 *   post's row may have been read by the permission check before the handler ran), at the
 *   versions of the request's start, and the site's other shared-state topics, as the response
 *   cache stamps whole answers (answer-dependencies.ts); nothing is kept from a request that read
 *   something unrepeatable (the clock);
 * - the request's address and query (its `_fields`, `context`, `password`, the links' root);
 * - its caller, as far as its making asked: each capability checked must get the same answer, and
 *   if it read who the caller is (an edit context's own-post checks), only the same caller gets it;
 * - the request's block-supports numbering (`wp-container-N`), when the fragment took ids.
 * A hit counts the fragment's tables as read by the request, so an answer made of fragments is
 * stamped by the response cache as if it had read them itself.
 */
export class AnswerFragments {
  private readonly kept = new Map<string, Fragment[]>();
  private bytes = 0;
  private readonly dependencies: SiteDependencies;
  private readonly requests = new RequestScoped<RequestReads>();

  constructor(private readonly site: Site) {
    this.dependencies = new SiteDependencies(site.shared);
  }

  /** Runs the making of a request's answer, noting what it reads from its start, so that fragments made in it can be kept. */
  scope<T>(compute: () => Promise<T>): Promise<T> {
    const before = this.site.shared.snapshot();
    return readingScope((reads) => this.requests.run({ before, reads }, compute));
  }

  /** The JSON of `make`'s answer for the part `what` of this request's answer: a kept fragment when one fits the caller, else made (and kept when it may be). */
  fragment(ctx: Ctx, what: string, make: () => Promise<unknown>): Promise<PrebuiltJson> {
    return this.part(ctx, requestKey(ctx), what, make);
  }

  /** The fragments of a list's items, in order, one after another (the block-supports numbering runs on from item to item). */
  async list<T>(ctx: Ctx, items: readonly T[], what: (item: T) => string, make: (item: T) => Promise<unknown>): Promise<PrebuiltJson[]> {
    const request = requestKey(ctx);
    const out: PrebuiltJson[] = [];
    for (const item of items) out.push(await this.part(ctx, request, what(item), () => make(item)));
    return out;
  }

  /** `what` of the request whose address and query `request` says (requestKey). */
  private async part(ctx: Ctx, request: string, what: string, make: () => Promise<unknown>): Promise<PrebuiltJson> {
    // within a transaction (a batch) what is read may yet be undone, and what was written has moved no version yet
    if (ctx.store !== this.site.store) return PrebuiltJson.of(await make());
    const key = `${what}\n${request}`;
    const supports = requestSupports(ctx);
    const variants = this.kept.get(key);
    if (variants) {
      const found = variants.find((f) => this.fits(ctx, f, supports.position));
      if (found) {
        // most recently used last, so the oldest goes first past the cap
        this.kept.delete(key);
        this.kept.set(key, variants);
        noteRead(found.stamp.deps);
        supports.replay(found.supports);
        return found.json;
      }
    }
    const position = supports.position;
    const mark = supports.mark();
    const { value, reads } = await observeCaller(make);
    const json = PrebuiltJson.of(value);
    const reading = this.requests.getStore();
    if (!reading || reading.reads.unrepeatable) return json;
    const stamp = this.dependencies.stampOf(reading.before, reading.reads.tables);
    // a write moved what it read while it was made: it may be stale already
    if (!this.dependencies.current(stamp)) return json;
    const fragment: Fragment = {
      json,
      stamp,
      caps: [...reads.caps],
      caller: reads.identity ? (ctx.user?.id ?? null) : undefined,
      position,
      supports: supports.since(mark),
      bytes: key.length + OBJECT_AND_JSON * json.json.length + FRAGMENT_OVERHEAD,
      currentAt: this.site.shared.snapshot(),
    };
    this.keep(key, fragment);
    return json;
  }

  /** Whether `f` is what making it again for this caller, now, at this point of the request's numbering, would give. */
  private fits(ctx: Ctx, f: Fragment, position: number): boolean {
    if (f.supports.ids && f.position !== position) return false;
    for (const [cap, answer] of f.caps) if (ctx.can(cap) !== answer) return false;
    if (f.caller !== undefined && (ctx.user?.id ?? null) !== f.caller) return false;
    const now = this.site.shared.snapshot();
    if (f.currentAt === now) return true;
    if (!this.dependencies.current(f.stamp)) return false;
    f.currentAt = now;
    return true;
  }

  private keep(key: string, fragment: Fragment): void {
    const sameCaller = (f: Fragment) => f.caller === fragment.caller && f.caps.length === fragment.caps.length && f.caps.every(([c, a], i) => fragment.caps[i][0] === c && fragment.caps[i][1] === a);
    const variants = (this.kept.get(key) ?? []).filter((f) => {
      // the one it replaces (made for the same kind of caller) and those no longer current go
      const stays = !sameCaller(f) && this.dependencies.current(f.stamp);
      if (!stays) this.bytes -= f.bytes;
      return stays;
    });
    variants.unshift(fragment);
    this.bytes += fragment.bytes;
    while (variants.length > VARIANTS_PER_KEY) this.bytes -= variants.pop()!.bytes;
    this.kept.delete(key);
    this.kept.set(key, variants);
    for (const [oldest, gone] of this.kept) {
      if (this.bytes <= KEPT_BYTES) break;
      this.kept.delete(oldest);
      for (const f of gone) this.bytes -= f.bytes;
    }
  }
}

/** What of a request a fragment depends on besides its caller: the address asked (the links' root) and the whole query (`_fields`, `context`, `password`...). */
const requestKey = (ctx: Ctx) => `${ctx.api.restUrl(ctx.request.path)}\n${JSON.stringify(ctx.request.query)}`;

const bySite = new WeakMap<Site, AnswerFragments>();

/** The fragments kept for a site. */
export function answerFragments(site: Site): AnswerFragments {
  let kept = bySite.get(site);
  if (!kept) bySite.set(site, (kept = new AnswerFragments(site)));
  return kept;
}
