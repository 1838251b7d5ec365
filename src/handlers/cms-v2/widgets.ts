import { parseQueryString, RestError, RestResponse } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { contextOf, CURIES, nsUrl, type Context } from '../../core/rest.ts';
import {
  assignWidget,
  decodeInstance,
  findWidgetSidebar,
  INACTIVE_SIDEBAR,
  nextWidgetNumber,
  parseWidgetId,
  changeWidgets,
  type Instance,
  type WidgetState,
} from '../../core/widgets.ts';
import type { Store } from '../../store/index.ts';
import { fieldNamer, newEnv, renderWidget, restInstance, siteWidgets, WIDGET_ID_BASES, widgetType, type WidgetType } from '../../site/widgets.ts';

// WP_REST_Widgets_Controller: the widgets of every sidebar, the inactive ones included, each
// rendered as its sidebar shows it; written as WordPress's widget update callbacks write them.

const invalid = (message: string) => new RestError('rest_invalid_widget', message, 400);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The widget as the API shows it, or undefined when its type or instance is gone (WordPress skips those). */
async function prepareWidget(ctx: Ctx, state: WidgetState, widgetId: string, sidebarId: string, context: Context): Promise<Record<string, unknown> | undefined> {
  const { idBase, number } = parseWidgetId(widgetId);
  const type = widgetType(idBase);
  const instance = number === undefined ? undefined : state.instances[idBase]?.[number];
  if (!type || !instance) return undefined;
  const data: Record<string, unknown> = { id: widgetId, id_base: idBase, sidebar: sidebarId, rendered: '' };
  if (sidebarId !== INACTIVE_SIDEBAR) data.rendered = (await renderWidget(newEnv(ctx.store, ctx.site), state, widgetId, sidebarId)).trim();
  if (context === 'edit') {
    data.rendered_form = type.form(instance, fieldNamer(idBase, number!)).trim();
    data.instance = await restInstance(ctx.store, type, instance);
  }
  data._links = {
    self: [{ href: nsUrl(ctx, `widgets/${widgetId}`) }],
    collection: [{ href: nsUrl(ctx, 'widgets') }],
    about: [{ embeddable: true, href: nsUrl(ctx, `widget-types/${idBase}`) }],
    'wp:sidebar': [{ href: nsUrl(ctx, `sidebars/${sidebarId}/`) }],
    curies: CURIES,
  };
  return data;
}

async function preparedOrGone(ctx: Ctx, state: WidgetState, widgetId: string, sidebarId: string, context: Context) {
  const data = await prepareWidget(ctx, state, widgetId, sidebarId, context);
  if (!data) throw ctx.fail('rest_widget_not_found');
  return data;
}

/** The instance a request sends: `raw` where the type allows it, or an encoded one this site signed. */
async function sentInstance(store: Store, type: WidgetType, given: Record<string, unknown>): Promise<Instance> {
  if (given.raw !== undefined && given.raw !== null) {
    if (!type.rawInRest) throw invalid('Widget type does not support raw instances.');
    return isObject(given.raw) ? given.raw : {};
  }
  if (typeof given.encoded === 'string' && typeof given.hash === 'string') {
    const decoded = await decodeInstance(store, given.encoded, given.hash);
    if (!decoded) throw invalid('The provided instance is malformed.');
    return decoded;
  }
  throw invalid('The provided instance is invalid. Must contain raw OR encoded and hash.');
}

/**
 * The admin form's fields for this widget (`widget-search[2][title]=…`): the entry of its number,
 * else the form's first one, as a form for a widget not saved yet is numbered by the browser.
 */
function formInstance(formData: string, idBase: string, number: number): Instance | undefined {
  const fields = parseQueryString(formData)[`widget-${idBase}`];
  const entries: Record<string, unknown> | undefined = isObject(fields) ? fields : Array.isArray(fields) ? { ...fields } : undefined;
  if (!entries) return undefined;
  const own = entries[String(number)] ?? Object.values(entries)[0];
  return isObject(own) ? own : undefined;
}

/**
 * save_widget: a new widget (from `id_base`, numbered after the type's highest) or the one `id`
 * names gets the instance sent, through its type's update; answers the widget's id.
 */
async function saveWidget(ctx: Ctx, store: Store, state: WidgetState): Promise<string> {
  let id: string;
  let idBase: string;
  let number: number | undefined;
  const creating = typeof ctx.args.id !== 'string' || ctx.args.id === '';
  if (!creating) {
    id = ctx.args.id;
    ({ idBase, number } = parseWidgetId(id));
  } else if (typeof ctx.args.id_base === 'string' && ctx.args.id_base !== '') {
    idBase = ctx.args.id_base;
    number = widgetType(idBase) ? nextWidgetNumber(state, idBase) : undefined;
    id = number === undefined ? idBase : `${idBase}-${number}`;
  } else throw invalid('Widget type (id_base) is required.');
  const type = widgetType(idBase);
  if (!type || number === undefined) throw invalid('The provided widget type (id_base) cannot be updated.');
  let sent: Instance | undefined;
  if (isObject(ctx.args.instance)) sent = await sentInstance(store, type, ctx.args.instance);
  else if (typeof ctx.args.form_data === 'string') sent = formInstance(ctx.args.form_data, idBase, number);
  const old = state.instances[idBase][number];
  // a new widget sent nothing starts from its type's defaults
  if (sent !== undefined || old === undefined) state.instances[idBase][number] = await type.update(sent ?? {}, old ?? {}, ctx.can('unfiltered_html'));
  return id;
}

export async function listWidgets(ctx: Ctx<'cms-v2:widgets.listWidgets'>) {
  if (ctx.request.head) return [];
  const state = await siteWidgets(ctx.store);
  const context = contextOf(ctx);
  const only = typeof ctx.args.sidebar === 'string' ? ctx.args.sidebar : undefined;
  const out: Record<string, unknown>[] = [];
  for (const [sidebarId, widgets] of Object.entries(state.sidebars)) {
    if (only !== undefined && sidebarId !== only) continue;
    for (const widgetId of widgets) {
      const data = await prepareWidget(ctx, state, widgetId, sidebarId, context);
      if (data) out.push(data);
    }
  }
  return out;
}

export async function getWidget(ctx: Ctx<'cms-v2:widgets.getWidget'>) {
  const state = await siteWidgets(ctx.store);
  const widgetId = String(ctx.args.id);
  const sidebarId = findWidgetSidebar(state, widgetId);
  if (sidebarId === undefined) throw ctx.fail('rest_widget_not_found');
  return preparedOrGone(ctx, state, widgetId, sidebarId, contextOf(ctx));
}

export async function createWidget(ctx: Ctx<'cms-v2:widgets.createWidget'>) {
  const sidebarId = String(ctx.args.sidebar);
  const { state, result: id } = await changeWidgets(ctx.store, WIDGET_ID_BASES, async (state, store) => {
    const id = await saveWidget(ctx, store, state);
    assignWidget(state, id, sidebarId);
    return id;
  });
  return new RestResponse(await preparedOrGone(ctx, state, id, sidebarId, 'edit'), 201);
}

/** Changes a widget's instance, or moves it to another sidebar (at its end), or both. */
export async function updateWidget(ctx: Ctx<'cms-v2:widgets.updateWidget'>) {
  const widgetId = String(ctx.args.id);
  const writes = ctx.args.instance !== undefined || ctx.args.form_data !== undefined;
  if (!widgetType(parseWidgetId(widgetId).idBase)) throw writes ? invalid('The provided widget type (id_base) cannot be updated.') : ctx.fail('rest_widget_not_found');
  const { state, result: sidebarId } = await changeWidgets(ctx.store, WIDGET_ID_BASES, async (state, store) => {
    const current = findWidgetSidebar(state, widgetId);
    if (current === undefined) throw ctx.fail('rest_widget_not_found');
    if (writes) await saveWidget(ctx, store, state);
    if (typeof ctx.args.sidebar !== 'string' || ctx.args.sidebar === current) return current;
    assignWidget(state, widgetId, ctx.args.sidebar);
    return ctx.args.sidebar;
  });
  return preparedOrGone(ctx, state, widgetId, sidebarId, 'edit');
}

/** With `force` the widget and its instance are gone; without, it moves to the inactive widgets, as WordPress keeps it. */
export async function deleteWidget(ctx: Ctx<'cms-v2:widgets.deleteWidget'>) {
  const widgetId = String(ctx.args.id);
  const found = await siteWidgets(ctx.store);
  const sidebarId = findWidgetSidebar(found, widgetId);
  if (sidebarId === undefined) throw ctx.fail('rest_widget_not_found');
  if (ctx.args.force === true) {
    const previous = await preparedOrGone(ctx, found, widgetId, sidebarId, 'edit');
    await changeWidgets(ctx.store, WIDGET_ID_BASES, (state) => {
      if (findWidgetSidebar(state, widgetId) === undefined) throw ctx.fail('rest_widget_not_found');
      const { idBase, number } = parseWidgetId(widgetId);
      delete state.instances[idBase][number!];
      assignWidget(state, widgetId, '');
    });
    return { deleted: true, previous };
  }
  const { state } = await changeWidgets(ctx.store, WIDGET_ID_BASES, (state) => {
    if (findWidgetSidebar(state, widgetId) === undefined) throw ctx.fail('rest_widget_not_found');
    assignWidget(state, widgetId, INACTIVE_SIDEBAR);
  });
  return preparedOrGone(ctx, state, widgetId, INACTIVE_SIDEBAR, 'edit');
}
