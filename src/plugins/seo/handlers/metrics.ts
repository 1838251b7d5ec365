import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { dismissConnectorConfiguration, setConnectorConsent, widget, WIDGETS, type Widget } from '../integrations/metrics.ts';

/** The dashboard's search metrics and the analytics connector's state; the sources are in integrations/metrics.ts. */

/** The most rows a widget lists. */
const MAX_LIMIT = 100;

/** GET time_based_seo_metrics?limit=&options[widget]=: the widget's items. */
export function timeBasedSeoMetrics(ctx: Ctx<'seo:metrics.timeBasedSeoMetrics'>) {
  const name = String(ctx.args.options.widget);
  if (!(WIDGETS as readonly string[]).includes(name)) throw invalidParam('options', `options[widget] must be one of ${WIDGETS.join(', ')}.`);
  const limit = Number(ctx.args.limit ?? 5);
  if (limit < 1 || limit > MAX_LIMIT) throw invalidParam('limit', `limit must be between 1 and ${MAX_LIMIT}.`);
  return widget(ctx, name as Widget, limit);
}

/** POST analytics_connector_manage_consent {consent}: `{success}`. */
export const manageConsent = (ctx: Ctx<'seo:metrics.manageConsent'>) => setConnectorConsent(ctx, ctx.args.consent === true);

/** POST analytics_connector_configuration_permanent_dismissal {is_dismissed}: `{success}`. */
export const permanentDismissal = (ctx: Ctx<'seo:metrics.permanentDismissal'>) => dismissConnectorConfiguration(ctx, ctx.args.is_dismissed === true);
