import type { Ctx } from '../../../core/context.ts';
import { invalidParam, RestResponse, sanitizeUrl } from '../../../engine/index.ts';
import { jsonOption, OPTION } from '../settings.ts';

/**
 * configuration/* (Yoast's First_Time_Configuration_Route): the site representation, social
 * profiles, tracking consent and the configuration's finished steps, kept in the plugin's options.
 */

const ok = { success: true, status: 200 };

/** A URL argument: '' clears it; anything else must be a web address. */
function urlArg(name: string, value: unknown): string {
  const v = String(value ?? '').trim();
  if (!v) return '';
  const url = sanitizeUrl(v);
  if (!/^https?:\/\//i.test(url)) throw invalidParam(name, `${name} is not a valid URL.`);
  return url;
}

/** POST configuration/site_representation: company or person, its name and logo, and the site's tagline. */
export async function siteRepresentation(ctx: Ctx<'seo:configuration.siteRepresentation'>) {
  const a = ctx.args;
  const values: Record<string, string> = { [OPTION.companyOrPerson]: String(a.company_or_person) };
  if (a.company_name !== undefined) values[OPTION.companyName] = String(a.company_name).trim();
  if (a.company_logo !== undefined) values[OPTION.companyLogo] = urlArg('company_logo', a.company_logo);
  if (a.company_logo_id !== undefined) values[OPTION.companyLogoId] = String(a.company_logo_id);
  if (a.person_logo !== undefined) values[OPTION.personLogo] = urlArg('person_logo', a.person_logo);
  if (a.person_logo_id !== undefined) values[OPTION.personLogoId] = String(a.person_logo_id);
  if (a.company_or_person_user_id !== undefined) {
    const id = Number(a.company_or_person_user_id);
    if (id !== 0 && !(await ctx.store.users.get(id))) throw ctx.fail('rest_user_invalid_id', {}, { status: 400, params: { company_or_person_user_id: 'No user has this ID.' } });
    values[OPTION.personUserId] = String(id);
  }
  if (a.company_or_person === 'person' && values[OPTION.personUserId] === undefined && !Number(await ctx.store.options.get(OPTION.personUserId)))
    throw invalidParam('company_or_person_user_id', 'A person representing the site needs company_or_person_user_id.');
  for (const [name, value] of Object.entries(values)) await ctx.store.options.set(name, value);
  if (a.description !== undefined) {
    await ctx.store.options.set('blogdescription', String(a.description));
    // the tagline is in the index and every page header, of every instance sharing the database
    await ctx.site.optionsChanged();
  }
  return ok;
}

const HANDLE = /^@?([A-Za-z0-9_]{1,15})$/;
const X_PROFILE = /^https?:\/\/(?:www\.)?(?:twitter|x)\.com\/@?([A-Za-z0-9_]{1,15})\/?$/i;

/**
 * POST configuration/social_profiles: the first social site's profile URL, the second's handle (a
 * URL of it is reduced to the handle, as the plugin stores it) and other profile URLs. Nothing is
 * stored when any value is invalid; `data.failures` names them.
 */
export async function socialProfiles(ctx: Ctx<'seo:configuration.socialProfiles'>) {
  const a = ctx.args;
  const failures: string[] = [];
  const values: Record<string, string> = {};
  // a JSON null is passed through unvalidated, as WordPress does: it leaves the profile as it is
  if (a.social_site_a != null) {
    const v = String(a.social_site_a).trim();
    const url = v ? sanitizeUrl(v) : '';
    if (v && !/^https?:\/\//i.test(url)) failures.push('social_site_a');
    else values[OPTION.socialSiteA] = url;
  }
  if (a.social_site_b != null) {
    const v = String(a.social_site_b).trim();
    const handle = v ? (HANDLE.exec(v) ?? X_PROFILE.exec(v))?.[1] : '';
    if (handle === undefined) failures.push('social_site_b');
    else values[OPTION.socialSiteB] = handle;
  }
  if (a.other_social_urls != null) {
    const urls: string[] = [];
    (a.other_social_urls as unknown[]).forEach((raw, i) => {
      const v = typeof raw === 'string' ? raw.trim() : '';
      const url = v ? sanitizeUrl(v) : '';
      if (!/^https?:\/\//i.test(url)) failures.push(`other_social_urls-${i}`);
      else urls.push(url);
    });
    values[OPTION.otherSocialUrls] = JSON.stringify(urls);
  }
  if (failures.length) throw ctx.fail('wpseo_invalid_social_profiles', { profiles: failures }, { failures });
  for (const [name, value] of Object.entries(values)) await ctx.store.options.set(name, value);
  return { json: ok };
}

/** GET configuration/check_capability?user_id=: whether the current user may edit that user's profile (to make them the site's person). */
export async function checkCapability(ctx: Ctx<'seo:configuration.checkCapability'>) {
  const raw = String(ctx.args.user_id);
  if (!/^\d+$/.test(raw)) throw invalidParam('user_id', 'user_id is not of type integer.', { code: 'rest_invalid_type', data: { param: 'user_id' } });
  const user = await ctx.store.users.get(Number(raw));
  if (!user) throw ctx.fail('rest_user_invalid_id');
  const can = user.id === ctx.user!.id || ctx.can('edit_users');
  return new RestResponse({ success: can, status: can ? 200 : 403 }, can ? 200 : 403);
}

export async function enableTracking(ctx: Ctx<'seo:configuration.enableTracking'>) {
  await ctx.store.options.set(OPTION.tracking, ctx.args.tracking ? '1' : '0');
  return ok;
}

export async function saveConfigurationState(ctx: Ctx<'seo:configuration.saveConfigurationState'>) {
  const steps = ctx.args.finishedSteps;
  const bad = steps.findIndex((s) => typeof s !== 'string' || s === '');
  if (bad >= 0) throw invalidParam('finishedSteps', `finishedSteps[${bad}] is not a step name.`);
  await ctx.store.options.set(OPTION.finishedSteps, JSON.stringify([...new Set(steps as string[])]));
  return ok;
}

export async function getConfigurationState(ctx: Ctx<'seo:configuration.getConfigurationState'>) {
  return { ...ok, data: await jsonOption<string[]>(ctx.store, OPTION.finishedSteps, []) };
}
