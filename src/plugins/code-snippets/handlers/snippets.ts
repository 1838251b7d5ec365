import { RestError, RestResponse } from '../../../engine/index.ts';
import type { Ctx } from '../../../core/context.ts';
import { codeSnippets } from '../plugin.ts';
import { exportBundle, exportCode as exportSnippetCode, suggestedFilename } from '../export.ts';
import { normaliseCode, typeOfScope } from '../scopes.ts';
import { snippetShape } from '../shape.ts';
import { ACTIVE_SNIPPETS_TOPIC } from '../site.ts';
import { validateCode } from '../validate.ts';
import type { Snippet, SnippetFields, SnippetsRepo } from '../repo.ts';

// rest_cannot_activate's other wording, for an id that is not there (the catalogue has its usual one: failed validation)
const cannotActivateMissing = () => new RestError('rest_cannot_activate', 'The snippet could not be found.', 404);

const snippets = (ctx: Ctx) => ctx.store.plugin(codeSnippets);

/** 'YYYY-MM-DDTHH:MM:SSZ', UTC. */
const now = () => `${new Date().toISOString().slice(0, 19)}Z`;

/** The snippet the URL names; ids start at 1 and are exact integers, so id 0 (or one of 30 digits) is not found either. */
async function snippetOf(ctx: Ctx, missing: () => RestError): Promise<Snippet> {
  const id = Number(ctx.request.urlParams.id);
  const snippet = Number.isSafeInteger(id) && id > 0 ? await snippets(ctx).get(id) : undefined;
  if (!snippet) throw missing();
  return snippet;
}

const present = (ctx: Ctx, snippet: Snippet) => snippetShape(ctx.site.spec).present(snippet);

/**
 * The fields after applying the request's input to `base` the way save_snippet does: PHP open and
 * close tags stripped, tags trimmed, the code validated (an active snippet whose code fails is
 * saved inactive, with `code_error` telling why), `modified` set now.
 */
function edited(base: Omit<SnippetFields, 'modified'>, args: Record<string, any>): SnippetFields {
  const next: SnippetFields = { ...base, modified: now() };
  if (args.name != null) next.name = args.name;
  if (args.desc != null || args.description != null) next.desc = args.desc ?? args.description;
  if (args.code != null) next.code = args.code;
  if (args.tags != null) next.tags = (args.tags as unknown[]).map((t) => String(t).trim()).filter(Boolean);
  if (args.scope != null) next.scope = args.scope;
  if (args.active != null) next.active = args.active;
  if (args.priority != null) next.priority = args.priority;
  if (args.network != null) next.network = args.network;
  if (args.shared_network != null) next.shared_network = args.shared_network;
  // sharing only means something for a network snippet
  if (!next.network) next.shared_network = false;
  next.code = normaliseCode(next.code, next.scope);
  next.code_error = validateCode(next.code, next.scope);
  if (next.code_error) next.active = false;
  return next;
}

/**
 * Every write goes through here so the rendered site sees it, on this instance and any other
 * sharing the database: the write and the version the others watch move in one transaction (one
 * commit, so one flush to disk; inside a batch, the batch's own).
 */
function write<T>(ctx: Ctx, change: (repo: SnippetsRepo) => Promise<T>): Promise<T> {
  return ctx.store.transaction(async (store) => {
    const result = await change(store.plugin(codeSnippets));
    await ctx.site.shared.changed(ACTIVE_SNIPPETS_TOPIC, store);
    return result;
  });
}

export async function list(ctx: Ctx<'code-snippets:snippets.list'>) {
  const { page, per_page: perPage } = ctx.args;
  const { items, total } = await snippets(ctx).page((page - 1) * perPage, perPage);
  return new RestResponse(
    items.map((s) => present(ctx, s)),
    200,
    { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(Math.ceil(total / perPage)) },
  );
}

export async function create(ctx: Ctx<'code-snippets:snippets.create'>) {
  const saved = await write(ctx, (repo) => repo.create(edited(snippetShape(ctx.site.spec).defaults(), ctx.args)));
  return present(ctx, saved);
}

export async function get(ctx: Ctx<'code-snippets:snippets.get'>) {
  return present(ctx, await snippetOf(ctx, () => ctx.fail('rest_cannot_get')));
}

export async function update(ctx: Ctx<'code-snippets:snippets.update'>) {
  const existing = await snippetOf(ctx, () => ctx.fail('rest_cannot_update'));
  const saved = await write(ctx, (repo) => repo.update(existing.id, edited(existing, ctx.args)));
  if (!saved) throw ctx.fail('rest_cannot_update');
  return present(ctx, saved);
}

export async function remove(ctx: Ctx<'code-snippets:snippets.remove'>) {
  const existing = await snippetOf(ctx, () => ctx.fail('rest_cannot_delete'));
  if (!(await write(ctx, (repo) => repo.delete(existing.id)))) throw ctx.fail('rest_cannot_delete');
  return { deleted: true, previous: present(ctx, existing) };
}

export function schema(ctx: Ctx<'code-snippets:snippets.schema'>) {
  return snippetShape(ctx.site.spec).schema;
}

async function setActive(ctx: Ctx, snippet: Snippet, active: boolean) {
  const saved = await write(ctx, (repo) => repo.update(snippet.id, { ...snippet, active, modified: now() }));
  if (!saved) throw cannotActivateMissing();
  return present(ctx, saved);
}

export async function activate(ctx: Ctx<'code-snippets:snippets.activate'>) {
  const snippet = await snippetOf(ctx, cannotActivateMissing);
  const error = validateCode(snippet.code, snippet.scope);
  if (error) throw ctx.fail('rest_cannot_activate', { error: error[0], line: error[1] }, { code_error: error });
  return setActive(ctx, snippet, true);
}

export async function deactivate(ctx: Ctx<'code-snippets:snippets.deactivate'>) {
  return setActive(ctx, await snippetOf(ctx, cannotActivateMissing), false);
}

export async function exportJson(ctx: Ctx<'code-snippets:snippets.exportJson'>) {
  const snippet = await snippetOf(ctx, () => ctx.fail('rest_cannot_get'));
  return new RestResponse(exportBundle(snippet, snippetShape(ctx.site.spec), new Date()), 200, {
    'X-Suggested-Filename': suggestedFilename(snippet, 'json'),
  });
}

export async function exportCode(ctx: Ctx<'code-snippets:snippets.exportCode'>) {
  const snippet = await snippetOf(ctx, () => ctx.fail('rest_cannot_get'));
  const type = typeOfScope(snippet.scope);
  // HTML snippets export as PHP, inside the same file layout as PHP snippets
  const extension = type === 'css' || type === 'js' ? type : 'php';
  return new RestResponse(exportSnippetCode(snippet), 200, { 'X-Suggested-Filename': suggestedFilename(snippet, extension) });
}
