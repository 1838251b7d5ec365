import type { Ctx } from '../../../core/context.ts';
import { collection, pageOf, type Context } from '../../../core/rest.ts';
import { type AbilityCategorySpec, authStatus, RestError, RestResponse } from '../../../engine/index.ts';
import { mayRun, registryOf, runMethodOf, type Ability, type Registry } from '../registry.ts';

const NS = 'cms-abilities/v1';

const registry = (ctx: Ctx): Registry => registryOf(ctx.site.spec, ctx.served);
const contextOf = (ctx: Ctx) => (ctx.args.context ?? 'view') as Context;

/** WP_REST_Abilities_V1_List_Controller::prepare_item_for_response: the fields of the context, then the links. */
function abilityItem(ctx: Ctx, a: Ability): Record<string, unknown> {
  const item: Record<string, unknown> =
    contextOf(ctx) === 'embed'
      ? { name: a.name, label: a.label, category: a.category }
      : { name: a.name, label: a.label, description: a.description, category: a.category, input_schema: a.inputSchema, output_schema: a.outputSchema, meta: { annotations: a.annotations, show_in_rest: true } };
  item._links = {
    self: [{ href: ctx.api.restUrl(`${NS}/abilities/${a.name}`) }],
    collection: [{ href: ctx.api.restUrl(`${NS}/abilities`) }],
    'wp:action-run': [{ href: ctx.api.restUrl(`${NS}/abilities/${a.name}/run`) }],
  };
  return item;
}

/** WP_REST_Abilities_V1_Categories_Controller::prepare_item_for_response */
function categoryItem(ctx: Ctx, c: AbilityCategorySpec): Record<string, unknown> {
  // a category has no meta here: PHP's empty array, as WordPress sends it
  const item: Record<string, unknown> = contextOf(ctx) === 'embed' ? { slug: c.slug, label: c.label } : { slug: c.slug, label: c.label, description: c.description, meta: [] };
  item._links = {
    self: [{ href: ctx.api.restUrl(`${NS}/categories/${c.slug}`) }],
    collection: [{ href: ctx.api.restUrl(`${NS}/categories`) }],
    abilities: [{ href: ctx.api.restUrl(`${NS}/abilities?category=${c.slug}`) }],
  };
  return item;
}

/** A page of a list with WordPress's paging headers; a page past the end is an empty list, as in WordPress. */
function paged<T>(ctx: Ctx, all: readonly T[], shape: (x: T) => unknown): RestResponse {
  const p = pageOf(ctx);
  return collection(ctx, ctx.request.head ? [] : all.slice(p.offset, p.offset + p.perPage).map(shape), all.length, p);
}

/** GET abilities: the served endpoints declared abilities, by `category`, paged. */
export function listAbilities(ctx: Ctx<'abilities:abilities.listAbilities'>) {
  // sanitize_key, as WordPress cleans the category arg
  const category = String(ctx.args.category ?? '').toLowerCase().replace(/[^a-z0-9_-]/g, '');
  const all = registry(ctx).abilities.filter((a) => !category || a.category === category);
  return paged(ctx, all, (a) => abilityItem(ctx, a));
}

/** GET abilities/{name} */
export function getAbility(ctx: Ctx<'abilities:abilities.getAbility'>) {
  const a = registry(ctx).byName.get(String(ctx.args.name));
  if (!a) throw ctx.fail('rest_ability_not_found');
  return abilityItem(ctx, a);
}

/** GET categories */
export function listCategories(ctx: Ctx<'abilities:abilities.listCategories'>) {
  return paged(ctx, registry(ctx).categories, (c) => categoryItem(ctx, c));
}

/** GET categories/{slug} */
export function getCategory(ctx: Ctx<'abilities:abilities.getCategory'>) {
  const c = registry(ctx).categories.find((x) => x.slug === ctx.args.slug);
  if (!c) throw ctx.fail('rest_ability_category_not_found');
  return categoryItem(ctx, c);
}

/** validate_request_method: the method the ability runs with (runMethodOf), else 405. */
function checkMethod(ctx: Ctx, method: string, a: Ability): void {
  const expected = runMethodOf(a);
  if (method === expected) return;
  const abilities = expected === 'GET' ? 'Read-only abilities' : expected === 'DELETE' ? 'Abilities that perform destructive actions' : 'Abilities that perform updates';
  throw ctx.fail('rest_ability_invalid_method', { abilities, method: expected });
}

/** WP_Ability::validate_input, with WordPress's messages: the input checked against the ability's input schema. */
function validInput(ctx: Ctx, a: Ability, raw: unknown): Record<string, unknown> {
  const params: Record<string, unknown> = { input: raw ?? structuredClone(a.inputSchema.default) };
  const invalid = (reason: string) => ctx.fail('ability_invalid_input', { ability: a.name, reason });
  if (params.input === undefined || params.input === null) throw invalid('input is not of type object.');
  try {
    a.input.apply(params);
  } catch (e) {
    if (!(e instanceof RestError)) throw e;
    throw invalid((e.data?.params as Record<string, string> | undefined)?.input ?? e.message);
  }
  return params.input as Record<string, unknown>;
}

/** The endpoint's path with the input's path variables in it, and the rest of the input as its params. */
function requestOf(a: Ability, input: Record<string, unknown>): { path: string; params: Record<string, unknown> } {
  const params = { ...input };
  const path = a.route.fullPath.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = String(params[name]);
    delete params[name];
    // a variable may span segments (a plugin id): its slashes stay path separators
    return value.split('/').map(encodeURIComponent).join('/');
  });
  return { path, params };
}

/**
 * GET|POST|DELETE abilities/{name}/run (WP_REST_Abilities_V1_Run_Controller): checks the method,
 * the input against the ability's schema and the caller's permission for its endpoint, then runs
 * the endpoint in-process as the caller, where its own checks apply too. Its answer is the
 * result; its error is the endpoint's own error.
 */
export async function run(ctx: Ctx<'abilities:abilities.run'>) {
  const a = registry(ctx).byName.get(String(ctx.args.name));
  if (!a) throw ctx.fail('rest_ability_not_found');
  checkMethod(ctx, ctx.request.method === 'HEAD' ? 'GET' : ctx.request.method, a);
  const input = validInput(ctx, a, ctx.args.input);
  if (!mayRun(a, (cap) => ctx.can(cap)))
    throw ctx.fail('rest_ability_cannot_execute', {}, { status: authStatus(ctx.user !== null) });
  const { path, params } = requestOf(a, input);
  const res = await ctx.dispatch(a.method, path, params);
  if (res.status >= 400) return new RestResponse(res.data, res.status);
  if (a.output) {
    const check = { output: structuredClone(res.data) };
    try {
      a.output.apply(check);
    } catch (e) {
      if (!(e instanceof RestError)) throw e;
      throw ctx.fail('ability_invalid_output', { ability: a.name, reason: (e.data?.params as Record<string, string> | undefined)?.output ?? e.message });
    }
  }
  return res.data;
}
