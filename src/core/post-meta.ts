import { RestError, authStatus } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import type { CompiledMeta, PostTypeInfo } from './content-types.ts';
import type { Ctx } from './context.ts';

/**
 * Registered post meta through the REST API (WP_REST_Meta_Fields): values stored as WordPress
 * stores them (a string as is, anything else as JSON), shown typed by their schema, with the
 * schema's default (or the type's empty value) when unset.
 */

const EMPTY: Record<string, unknown> = { string: '', integer: 0, number: 0, boolean: false, array: [], object: {} };

function emptyValue(m: CompiledMeta): unknown {
  if (m.schema.default !== undefined) return structuredClone(m.schema.default);
  const type = Array.isArray(m.schema.type) ? m.schema.type[0] : m.schema.type;
  return structuredClone(EMPTY[String(type)] ?? null);
}

const isStringType = (m: CompiledMeta) => m.schema.type === 'string';

function decode(m: CompiledMeta, stored: string | undefined): unknown {
  if (stored === undefined) return emptyValue(m);
  if (isStringType(m)) return stored;
  try {
    return JSON.parse(stored);
  } catch {
    return emptyValue(m);
  }
}

type Posts = readonly { id: number; type: string }[];
type Registered = (postType: string) => readonly CompiledMeta[];
type Stored = Map<number, Record<string, string>>;

/** The stored values of these keys of the posts, in one query (none for no keys). */
const storedOf = async (store: Store, posts: Posts, keys: readonly string[]): Promise<Stored> =>
  keys.length ? store.posts.meta.ofMany(posts.map((p) => p.id), [...new Set(keys)]) : new Map();

const keysOf = (registered: Registered, posts: Posts) => posts.flatMap((p) => registered(p.type).map((m) => m.key));

/** Every registered key's value of each post that has any, keyed by post id then by key. */
function valuesOfPosts(registered: Registered, posts: Posts, stored: Stored): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  for (const p of posts) {
    const keys = registered(p.type);
    if (!keys.length) continue;
    const values = stored.get(p.id) ?? {};
    out.set(p.id, Object.fromEntries(keys.map((m) => [m.key, decode(m, values[m.key])])));
  }
  return out;
}

/**
 * The `meta` object of posts, keyed by post id: every key registered for `meta` of each post's
 * type. A post whose type has none is left out: its `meta` is WordPress's empty array.
 */
export async function metaOfPosts(store: Store, registered: Registered, posts: Posts): Promise<Map<number, Record<string, unknown>>> {
  return valuesOfPosts(registered, posts, await storedOf(store, posts, keysOf(registered, posts)));
}

/**
 * What a post controller shows of its posts' meta, from one query: the `meta` objects (as
 * metaOfPosts) and the stored values of `otherKeys` (the featured image's).
 */
export async function shownMetaOfPosts(store: Store, registered: Registered, posts: Posts, otherKeys: readonly string[]) {
  const stored = await storedOf(store, posts, [...otherKeys, ...keysOf(registered, posts)]);
  return { meta: valuesOfPosts(registered, posts, stored), stored };
}

/**
 * The writes a request's `meta` asks of these keys, each checked: others are ignored, as WordPress ignores unregistered meta; null deletes a key.
 */
function checkedWrites(keys: readonly CompiledMeta[], input: unknown, can: (cap: string) => boolean, loggedIn: boolean): [CompiledMeta, unknown][] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const given = input as Record<string, unknown>;
  const writes: [CompiledMeta, unknown][] = [];
  for (const m of keys) {
    if (!(m.key in given)) continue;
    const cap = m.writeCap ?? (m.key.startsWith('_') ? 'edit_others_posts' : undefined);
    if (cap && !can(cap)) throw new RestError('rest_cannot_update', `Sorry, you are not allowed to edit the ${m.key} custom field.`, authStatus(loggedIn), { key: m.key });
    const value = given[m.key];
    if (value !== null) {
      const name = `meta.${m.key}`;
      const params = { [name]: value };
      m.args.apply(params);
      writes.push([m, params[name]]);
    } else writes.push([m, null]);
  }
  return writes;
}

/**
 * Writes the registered keys a request's `meta` carries. Every value is checked before any is
 * written.
 */
export async function writePostMeta(store: Store, registered: readonly CompiledMeta[], postId: number, args: Record<string, unknown>, can: (cap: string) => boolean, loggedIn: boolean): Promise<void> {
  const writes = checkedWrites(registered, args.meta, can, loggedIn);
  for (const [m, value] of writes) {
    if (value === null) await store.posts.meta.delete(postId, m.key);
    else await store.posts.meta.set(postId, m.key, isStringType(m) ? String(value) : JSON.stringify(value));
  }
}

/** The request's `meta`, for the keys registered for the post's type: what every post controller's write does. */
export const writeRequestMeta = (ctx: Ctx, type: PostTypeInfo, store: Store, postId: number) =>
  writePostMeta(store, ctx.site.types.postMeta(type.slug), postId, ctx.args, (c) => ctx.can(c), ctx.user !== null);
