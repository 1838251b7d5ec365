import { missingObject, parseQueryString } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { nsUrl } from '../../core/rest.ts';
import { decodeInstance, type Instance } from '../../core/widgets.ts';
import { stylesheetUrl } from '../../site/theme.ts';
import { fieldNamer, newEnv, previewWidget, restInstance, widgetPreviewDocument, WIDGET_TYPES, widgetType, type WidgetType } from '../../site/widgets.ts';

// WP_REST_Widget_Types_Controller: the widget types the site renders, and the two RPC routes the
// widgets editor uses: encode (admin form data → signed instance, form and preview) and render
// (a widget type's preview page).

function prepareType(ctx: Ctx, t: WidgetType): Record<string, unknown> {
  return {
    id: t.idBase,
    name: t.name,
    description: t.description,
    is_multi: true,
    classname: t.classname,
    _links: { collection: [{ href: nsUrl(ctx, 'widget-types') }], self: [{ href: nsUrl(ctx, `widget-types/${t.idBase}`) }] },
  };
}

/** The type the path names; an unknown one is refused as WordPress's permission callback refuses it. */
function typeOf(ctx: Ctx): WidgetType {
  const t = widgetType(String(ctx.args.id));
  if (!t) throw missingObject(ctx.fail('rest_widget_type_invalid'));
  return t;
}

export function listWidgetTypes(ctx: Ctx<'cms-v2:widget-types.listWidgetTypes'>) {
  return WIDGET_TYPES.map((t) => prepareType(ctx, t));
}

export function getWidgetType(ctx: Ctx<'cms-v2:widget-types.getWidgetType'>) {
  return prepareType(ctx, typeOf(ctx));
}

/** The signed instance sent, or an empty one when none is. */
function signedInstance(ctx: Ctx): Promise<Instance | undefined> | Instance {
  const given = ctx.args.instance as Record<string, unknown> | undefined;
  if (typeof given?.encoded === 'string' && typeof given.hash === 'string') return decodeInstance(ctx.store, given.encoded, given.hash);
  return {};
}

/**
 * Applies the admin form's values (`form_data`, as the form posts them) to the instance sent,
 * through the type's update, and answers the new instance signed, its form and its preview.
 */
export async function encodeWidgetForm(ctx: Ctx<'cms-v2:widget-types.encodeWidgetForm'>) {
  const type = typeOf(ctx);
  const number = typeof ctx.args.number === 'number' || (typeof ctx.args.number === 'string' && /^-?\d+$/.test(ctx.args.number)) ? Math.trunc(Number(ctx.args.number)) : -1;
  let instance = await signedInstance(ctx);
  if (!instance) throw ctx.fail('rest_invalid_widget');
  const fields = typeof ctx.args.form_data === 'string' ? parseQueryString(ctx.args.form_data)[`widget-${type.idBase}`] : undefined;
  if (fields !== null && typeof fields === 'object') {
    const sent = Object.values(fields)[0];
    instance = await type.update(sent !== null && typeof sent === 'object' && !Array.isArray(sent) ? (sent as Instance) : {}, instance, ctx.can('unfiltered_html'));
  }
  return {
    form: type.form(instance, fieldNamer(type.idBase, number)).trim(),
    preview: (await previewWidget(newEnv(ctx.store, ctx.site), type, instance)).trim(),
    instance: await restInstance(ctx.store, type, instance),
  };
}

/** The legacy widget block's preview page: the type with the instance sent, or nothing when its signature is wrong. */
export async function renderWidgetType(ctx: Ctx<'cms-v2:widget-types.renderWidgetType'>) {
  const type = typeOf(ctx);
  const instance = await signedInstance(ctx);
  const html = instance ? await previewWidget(newEnv(ctx.store, ctx.site), type, instance) : '';
  return { preview: widgetPreviewDocument(stylesheetUrl(ctx.site), html) };
}
