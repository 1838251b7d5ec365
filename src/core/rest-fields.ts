import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import type { UserRow } from '../store/users.ts';
import type { PostTypeInfo, TaxonomyInfo } from './content-types.ts';
import type { Ctx } from './context.ts';

/**
 * REST fields a plugin computes for the core's objects (register_rest_field with a get_callback
 * and no schema): added after the object's own fields, in every context, as WordPress's
 * add_additional_fields_to_object adds a field no schema restricts to some contexts.
 */

/** The object a field is computed for: a post of a post type, a term, a user, or a post type (the `types` route). */
export type RestFieldObject =
  | { kind: 'post'; post: PostRow; type: PostTypeInfo }
  | { kind: 'term'; term: TermRow; taxonomy: TaxonomyInfo }
  | { kind: 'user'; user: UserRow }
  | { kind: 'type'; type: PostTypeInfo };

/** Fields computed together (one plugin's `yoast_head` and `yoast_head_json` share one head). */
export interface RestFieldGroup {
  /** The fields' names, in the order they are added. */
  names: readonly string[];
  /** Whether the fields are registered for this object (register_rest_field's object types). */
  registeredFor(object: RestFieldObject): boolean;
  /** The values of `wanted` (the group's fields the request asks for, never none) for one object. */
  get(ctx: Ctx, object: RestFieldObject, wanted: readonly string[]): Promise<Record<string, unknown>>;
}

/**
 * rest_is_field_included: whether the request's `_fields` asks for `field` (itself, one of its
 * subfields, or no `_fields` at all), so a field nobody asked for is never computed.
 */
export function fieldRequested(ctx: Ctx, field: string): boolean {
  const raw = ctx.request.query._fields;
  const list = Array.isArray(raw) ? raw.join(',') : typeof raw === 'string' ? raw : undefined;
  if (list === undefined) return true;
  return list.split(/[\s,]+/).some((f) => f === field || f.startsWith(`${field}.`));
}

/** Adds the active plugins' REST fields registered for `object` to `out`, each only when asked for. */
export async function addRestFields(ctx: Ctx, object: RestFieldObject, out: Record<string, unknown>): Promise<void> {
  for (const group of ctx.site.restFields) {
    if (!group.registeredFor(object)) continue;
    const wanted = group.names.filter((name) => fieldRequested(ctx, name));
    if (wanted.length) Object.assign(out, await group.get(ctx, object, wanted));
  }
}
