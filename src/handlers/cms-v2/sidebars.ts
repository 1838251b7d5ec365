import type { Ctx } from '../../core/context.ts';
import { CURIES, nsUrl } from '../../core/rest.ts';
import { changeWidgets, setSidebarWidgets, sidebarById, type WidgetState } from '../../core/widgets.ts';
import { siteWidgets, WIDGET_ID_BASES } from '../../site/widgets.ts';

// WP_REST_Sidebars_Controller: the theme's registered sidebars and the inactive widgets, each with
// the ids of the widgets it shows. Every field is in every context.


function prepareSidebar(ctx: Ctx, state: WidgetState, id: string): Record<string, unknown> {
  const s = sidebarById(id)!;
  const registered = 'before_widget' in s;
  return {
    id,
    name: s.name,
    description: registered ? s.description : '',
    class: registered ? s.class : '',
    // the inactive widgets are no sidebar the theme registered: the schema's defaults
    before_widget: registered ? s.before_widget : '',
    after_widget: registered ? s.after_widget : '',
    before_title: registered ? s.before_title : '',
    after_title: registered ? s.after_title : '',
    status: registered ? 'active' : 'inactive',
    widgets: state.sidebars[id] ?? [],
    _links: {
      collection: [{ href: nsUrl(ctx, 'sidebars') }],
      self: [{ href: nsUrl(ctx, `sidebars/${id}`) }],
      'wp:widget': [{ href: `${nsUrl(ctx, 'widgets')}?sidebar=${encodeURIComponent(id)}`, embeddable: true }],
      curies: CURIES,
    },
  };
}

export async function listSidebars(ctx: Ctx<'cms-v2:sidebars.listSidebars'>) {
  const state = await siteWidgets(ctx.store);
  return Object.keys(state.sidebars).map((id) => prepareSidebar(ctx, state, id));
}

export async function getSidebar(ctx: Ctx<'cms-v2:sidebars.getSidebar'>) {
  const id = String(ctx.args.id);
  if (!sidebarById(id)) throw ctx.fail('rest_sidebar_not_found');
  return prepareSidebar(ctx, await siteWidgets(ctx.store), id);
}

/**
 * Shows exactly the widgets listed, in that order: they leave the sidebars they were in, and the
 * ones this sidebar showed that are not listed move to the inactive widgets. An id that names no
 * widget is kept out, as WordPress never shows one.
 */
export async function updateSidebar(ctx: Ctx<'cms-v2:sidebars.updateSidebar'>) {
  const id = String(ctx.args.id);
  if (!sidebarById(id)) throw ctx.fail('rest_sidebar_not_found');
  const widgets = ctx.args.widgets;
  if (!Array.isArray(widgets)) return prepareSidebar(ctx, await siteWidgets(ctx.store), id);
  const { state } = await changeWidgets(ctx.store, WIDGET_ID_BASES, (state) => {
    const known = new Set(Object.values(state.sidebars).flat());
    setSidebarWidgets(state, id, widgets.filter((w: unknown): w is string => typeof w === 'string' && known.has(w)));
  });
  return prepareSidebar(ctx, state, id);
}
