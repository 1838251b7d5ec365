import type { Ctx } from '../../../core/context.ts';
import { invalidParam } from '../../../engine/index.ts';
import { STATE } from '../settings.ts';

/**
 * What the plugin keeps per user, in user meta: dismissed alerts (alerts/dismiss), seen
 * introductions (introductions/{id}/seen) and the video embed permission.
 */

const META = { alerts: 'seo_dismissed_alerts', introductions: 'seo_introductions_seen', video: 'seo_video_embed_permission' };

async function userJson<T>(ctx: Ctx, key: string, fallback: T): Promise<T> {
  const raw = await ctx.store.users.meta.get(ctx.user!.id, key);
  try {
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

/** POST alerts/dismiss {key}: the key must be one of the dismissable alerts (state.json); kept for the user. */
export async function dismissAlert(ctx: Ctx<'seo:user-state.dismissAlert'>) {
  const key = ctx.args.key;
  if (typeof key !== 'string' || !STATE.dismissableAlerts.includes(key))
    throw invalidParam('key', `key is not one of ${STATE.dismissableAlerts.join(', ')}.`, { code: 'rest_not_in_enum' });
  const dismissed = await userJson<string[]>(ctx, META.alerts, []);
  if (!dismissed.includes(key)) await ctx.store.users.meta.set(ctx.user!.id, META.alerts, JSON.stringify([...dismissed, key]));
  return { success: true, status: 200 };
}

/** POST introductions/{id}/seen {is_seen}: marks a known introduction seen (or unseen) for the user. */
export async function introductionSeen(ctx: Ctx<'seo:user-state.introductionSeen'>) {
  const id = String(ctx.args.introduction_id);
  if (!STATE.introductions.includes(id)) throw ctx.fail('wpseo_unknown_introduction', { id }, { known: STATE.introductions });
  const seen = await userJson<Record<string, boolean>>(ctx, META.introductions, {});
  seen[id] = ctx.args.is_seen !== false;
  await ctx.store.users.meta.set(ctx.user!.id, META.introductions, JSON.stringify(seen));
  return { json: { success: true } };
}

/** GET video_embed_permission: whether the user allowed embedded videos (off until they say so). */
export async function getVideoEmbedPermission(ctx: Ctx<'seo:user-state.getVideoEmbedPermission'>) {
  return { json: { value: (await ctx.store.users.meta.get(ctx.user!.id, META.video)) === '1' } };
}

export async function setVideoEmbedPermission(ctx: Ctx<'seo:user-state.setVideoEmbedPermission'>) {
  await ctx.store.users.meta.set(ctx.user!.id, META.video, ctx.args.value === false ? '0' : '1');
  return { json: { success: true } };
}
