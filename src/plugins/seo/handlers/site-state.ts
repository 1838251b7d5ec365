import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { jsonOption, OPTION, STATE } from '../settings.ts';

/** What the plugin keeps for the whole site: integrations switched on or off, workouts, seen content types, the setup widget's steps. */

/** POST integrations/set_active {integration, active}: sets `seo_<integration>_integration_active`. */
export async function setIntegrationActive(ctx: Ctx<'seo:site-state.setIntegrationActive'>) {
  const integration = String(ctx.args.integration);
  if (!STATE.integrations.includes(integration)) throw invalidParam('integration', `integration is not one of ${STATE.integrations.join(', ')}.`, { code: 'rest_not_in_enum' });
  await ctx.store.options.set(OPTION.integrationActive(integration), ctx.args.active ? '1' : '0');
  return { json: { success: true, status: 200 } };
}

export async function getWorkouts(ctx: Ctx<'seo:site-state.getWorkouts'>) {
  return { json: await jsonOption<Record<string, unknown>>(ctx.store, OPTION.workouts, { configuration: { finishedSteps: [] } }) };
}

/** POST workouts: the body's workouts (each an object, e.g. `{configuration: {finishedSteps: [...]}}`) replace the stored ones of the same name. */
export async function saveWorkouts(ctx: Ctx<'seo:site-state.saveWorkouts'>) {
  const given = Object.entries(ctx.args).filter(([k]) => !k.startsWith('_'));
  if (!given.length) throw ctx.fail('rest_missing_callback_param', { params: 'a workout, e.g. configuration' }, { params: ['configuration'] });
  for (const [name, value] of given) if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalidParam(name, `${name} is not of type object.`, { code: 'rest_invalid_type', data: { param: name } });
  const workouts = { ...(await jsonOption<Record<string, unknown>>(ctx.store, OPTION.workouts, {})), ...Object.fromEntries(given) };
  await ctx.store.options.set(OPTION.workouts, JSON.stringify(workouts));
  return { json: workouts };
}

/** The post types (or taxonomies) the site shows that nobody has dismissed as new yet; the first look records what exists as known. */
async function seenContentTypes(ctx: Ctx, kind: 'post_type' | 'taxonomy'): Promise<{ all: string[]; seen: string[]; option: string }> {
  const option = kind === 'post_type' ? OPTION.seenPostTypes : OPTION.seenTaxonomies;
  const all = kind === 'post_type' ? ctx.site.types.postTypes.filter((t) => t.viewable).map((t) => t.slug) : ctx.site.types.taxonomies.filter((t) => t.viewable).map((t) => t.slug);
  const stored = await ctx.store.options.get(option);
  if (stored === undefined || stored === '') {
    await ctx.store.options.set(option, JSON.stringify(all));
    return { all, seen: all, option };
  }
  return { all, seen: await jsonOption<string[]>(ctx.store, option, []), option };
}

/**
 * POST new-content-type-visibility/dismiss-post-type {postTypeName} and dismiss-taxonomy
 * {taxonomyName}: a new content type stops being announced as new.
 */
export async function dismissNewContentType(ctx: Ctx) {
  const kind = ctx.config.kind as 'post_type' | 'taxonomy';
  const [declared, snake, label] = kind === 'post_type' ? ['postTypeName', 'post_type_name', 'Post type'] : ['taxonomyName', 'taxonomy_name', 'Taxonomy'];
  const raw = ctx.args[declared] ?? ctx.args[snake];
  const { all, seen, option } = await seenContentTypes(ctx, kind);
  if (raw !== undefined && (typeof raw !== 'string' || !all.includes(raw))) throw invalidParam(declared, `${declared} is not a registered ${label.toLowerCase()}.`);
  if (raw === undefined || seen.includes(raw)) return { message: `${label} is not new.`, success: true, status: 200 };
  await ctx.store.options.set(option, JSON.stringify([...seen, raw]));
  return { message: `New ${label.toLowerCase()} dismissed.`, success: true, status: 200 };
}

const STEPS: Record<string, { camel: string; values: string[] }> = {
  setup_widget_loaded: { camel: 'setupWidgetLoaded', values: ['yes', 'no'] },
  first_interaction_stage: { camel: 'firstInteractionStage', values: ['install', 'activate', 'setup', 'grantConsent', 'successfullyConnected'] },
  last_interaction_stage: { camel: 'lastInteractionStage', values: ['install', 'activate', 'setup', 'grantConsent', 'successfullyConnected'] },
  setup_widget_temporarily_dismissed: { camel: 'setupWidgetTemporarilyDismissed', values: ['yes', 'no'] },
  setup_widget_permanently_dismissed: { camel: 'setupWidgetPermanentlyDismissed', values: ['yes', 'no'] },
};

/** POST setup_steps_tracking: records the setup widget's state; at least one step must be given. */
export async function setupStepsTracking(ctx: Ctx) {
  const given: Record<string, string> = {};
  for (const [name, { camel, values }] of Object.entries(STEPS)) {
    const v = ctx.args[name] ?? ctx.args[camel];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !values.includes(v)) throw invalidParam(name, `${name} is not one of ${values.join(', ')}.`, { code: 'rest_not_in_enum' });
    given[name] = v;
  }
  if (!Object.keys(given).length) throw ctx.fail('wpseo_setup_steps_tracking_no_data', { steps: Object.keys(STEPS) });
  const steps = { ...(await jsonOption<Record<string, string>>(ctx.store, OPTION.setupSteps, {})), ...given };
  await ctx.store.options.set(OPTION.setupSteps, JSON.stringify(steps));
  return { success: true };
}
