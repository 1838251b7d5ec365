import type { Ctx } from './context.ts';
import type { RestFieldObject } from './site.ts';

/**
 * REST fields a plugin computes for the core's objects (register_rest_field with a get_callback
 * and no schema): added after the object's own fields, in every context, as WordPress's
 * add_additional_fields_to_object adds a field no schema restricts to some contexts. The groups
 * (RestFieldGroup) are declared in site.ts, beside the other hooks the site keeps of its plugins.
 */

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

/** Tells the active plugins' REST field groups of the objects a request is about to show together (RestFieldGroup.prepare). */
export function prepareRestFields(ctx: Ctx, objects: readonly RestFieldObject[]): void {
  for (const group of ctx.site.restFields) {
    if (!group.prepare || !group.names.some((name) => fieldRequested(ctx, name))) continue;
    const registered = objects.filter((o) => group.registeredFor(o));
    if (registered.length) group.prepare(ctx, registered);
  }
}

/** Adds the active plugins' REST fields registered for `object` to `out`, each only when asked for. */
export async function addRestFields(ctx: Ctx, object: RestFieldObject, out: Record<string, unknown>): Promise<void> {
  for (const group of ctx.site.restFields) {
    if (!group.registeredFor(object)) continue;
    const wanted = group.names.filter((name) => fieldRequested(ctx, name));
    if (wanted.length) Object.assign(out, await group.get(ctx, object, wanted));
  }
}
