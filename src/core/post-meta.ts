import { RestError, authStatus } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import type { CompiledMeta } from './content-types.ts';

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

/** The `meta` object of posts, keyed by post id: every registered key of each post's type. */
export async function metaOfPosts(store: Store, registered: (postType: string) => readonly CompiledMeta[], posts: readonly { id: number; type: string }[]): Promise<Map<number, Record<string, unknown>>> {
  const keys = [...new Set(posts.flatMap((p) => registered(p.type).map((m) => m.key)))];
  const out = new Map<number, Record<string, unknown>>();
  if (!keys.length) return out;
  const stored = await store.posts.meta.ofMany(posts.map((p) => p.id), keys);
  for (const p of posts) {
    const values = stored.get(p.id) ?? {};
    out.set(p.id, Object.fromEntries(registered(p.type).map((m) => [m.key, decode(m, values[m.key])])));
  }
  return out;
}

/**
 * Writes the registered keys present in a request's `meta` (others are ignored, as WordPress
 * ignores unregistered meta); null deletes a key. Every value is checked before any is written.
 */
export async function writePostMeta(store: Store, registered: readonly CompiledMeta[], postId: number, input: unknown, can: (cap: string) => boolean, loggedIn: boolean): Promise<void> {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return;
  const given = input as Record<string, unknown>;
  const writes: [CompiledMeta, unknown][] = [];
  for (const m of registered) {
    if (!(m.key in given)) continue;
    const cap = m.writeCap ?? (m.key.startsWith('_') ? 'edit_others_posts' : undefined);
    if (cap && !can(cap)) throw new RestError('rest_cannot_update', `Sorry, you are not allowed to edit the ${m.key} custom field.`, authStatus(loggedIn), { key: m.key });
    const value = given[m.key];
    if (value !== null) {
      const params = { [`meta.${m.key}`]: value };
      m.args.apply(params);
      writes.push([m, params[`meta.${m.key}`]]);
    } else writes.push([m, null]);
  }
  for (const [m, value] of writes) {
    if (value === null) await store.posts.meta.delete(postId, m.key);
    else await store.posts.meta.set(postId, m.key, isStringType(m) ? String(value) : JSON.stringify(value));
  }
}
