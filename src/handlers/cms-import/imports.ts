import { parse as parseDisposition } from 'content-disposition';
import { invalidParam, RestResponse, type UploadedFile } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';
import { addImport, ImportFileError, ImportRunRefused, importState, startImport, type ImportRunState } from '../../import/import-runs.ts';
import type { AuthorChoice } from '../../import/wxr-import.ts';

/** The name a file was uploaded under: the multipart part's, or a raw body's Content-Disposition filename. */
function uploadName(ctx: Ctx, file: UploadedFile): string {
  if (file.filename) return file.filename;
  try {
    return parseDisposition(ctx.request.headers['content-disposition'] ?? '').parameters.filename?.trim() || 'import.xml';
  } catch {
    return 'import.xml';
  }
}

const stateOf = async (ctx: Ctx): Promise<ImportRunState> => (await importState(ctx.site, String(ctx.args.id))) ?? Promise.reject(ctx.fail('cms_import_not_found'));

/** POST imports: the WXR file kept and read through once; its authors and counts, or the parser's refusal. */
export async function uploadImport(ctx: Ctx<'cms-import:imports.uploadImport'>) {
  const files = ctx.request.files;
  const file = files.find((f) => f.field === 'file') ?? files[0];
  if (!file || file.size === 0) throw ctx.fail('rest_upload_no_data');
  try {
    const state = await addImport(ctx.site, { path: file.path, name: uploadName(ctx, file), size: file.size }, ctx.user!.id);
    return new RestResponse(state, 201, { Location: ctx.api.restUrl(`cms-import/v1/imports/${state.id}`) });
  } catch (e) {
    if (e instanceof ImportFileError) throw ctx.fail('cms_import_invalid_file', { reason: e.message });
    throw e;
  }
}

/** GET imports/{id}: the import's authors, status, progress and, once done, report. */
export async function getImport(ctx: Ctx<'cms-import:imports.getImport'>) {
  return stateOf(ctx);
}

/**
 * POST imports/{id}/run: the import started in the background with the authors' mapping (each
 * login one of the file's authors, each user_id an existing user); 202 with its state.
 */
export async function runImport(ctx: Ctx<'cms-import:imports.runImport'>) {
  const state = await stateOf(ctx);
  const logins = new Set(state.wxr.authors.map((a) => a.login));
  const authors = new Map<string, AuthorChoice>();
  for (const a of ctx.args.authors ?? []) {
    if (!logins.has(a.login)) throw invalidParam('authors', `The file has no author "${a.login}".`);
    if (a.user_id !== undefined && !(await ctx.store.users.get(a.user_id))) throw invalidParam('authors', `There is no user with the ID ${a.user_id} to assign ${a.login}'s posts to.`);
    const newLogin = a.new_login?.trim();
    authors.set(a.login, { userId: a.user_id, newLogin: newLogin || undefined });
  }
  try {
    const started = await startImport(ctx.site, ctx.site.store, state.id, { authors, fetchAttachments: ctx.args.fetch_attachments === true, user: ctx.user!.id, log: ctx.log });
    return new RestResponse(started, 202);
  } catch (e) {
    if (e instanceof ImportRunRefused) throw e.code === 'cms_import_running' ? ctx.fail('cms_import_running') : ctx.fail('cms_import_done');
    throw e;
  }
}
