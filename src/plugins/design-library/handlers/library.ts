import type { Ctx } from '../../../core/context.ts';
import { importImagesInMarkup } from '../../../core/image-imports.ts';
import { RestError } from '../../../engine/index.ts';
import { cachedAnswer, expectObject, libraryCall, type LibraryCall } from '../calls.ts';
import { cacheKey } from '../repo.ts';
import { domainOf } from '../services.ts';

/** Kadence's own libraries, whose requests carry the license (a custom Kadence Cloud library gets only its key). */
const FIRST_PARTY = new Set(['templates', 'section', 'pages', 'template']);

/** How long a custom library's answers are kept, by the refresh period its connection announced. */
const REFRESH_SECONDS: Record<string, number> = { day: 86400, week: 7 * 86400, month: 30 * 86400 };

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/** The Kadence Cloud API of a custom library at `library_url` (a site root, e.g. https://cloud.example.com). */
function customBase(ctx: Ctx, libraryUrl: string): string {
  let url: URL;
  try {
    url = new URL(libraryUrl);
  } catch {
    throw ctx.fail('kb_design_library_invalid_library_url', { url: libraryUrl }, { params: ['library_url'] });
  }
  // kb_design_library_invalid_library_url's other wording
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RestError('kb_design_library_invalid_library_url', 'A library URL must be http or https.', 400, { params: ['library_url'] });
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/wp-json/kadence-cloud/v1/`;
}

/** The query every catalogue request sends: the library's key, the site, and for Kadence's own libraries the license. */
function catalogueQuery(call: LibraryCall, library: string, key: string): Record<string, string> {
  const { args } = call.ctx;
  const query: Record<string, string> = { key, site: domainOf(call.ctx.site) };
  if (FIRST_PARTY.has(library)) {
    query.api_email = text(args.api_email) || call.settings.licenseEmail;
    query.api_key = text(args.api_key) || call.settings.licenseKey;
    query.product_id = text(args.product_id);
  }
  if (library === 'templates') query.request = 'blocks';
  return query;
}

/** Where a catalogue question goes: a custom library's API, or the patterns service (its pages catalogue for `library=pages`). */
function catalogueSource(call: LibraryCall, which: 'items' | 'categories') {
  const { args } = call.ctx;
  const library = text(args.library);
  const libraryUrl = text(args.library_url);
  const meta = text(args.meta);
  let key = text(args.key);
  const paths = { items: ['get/', 'pages/'], categories: ['categories/', 'pages-categories/'] }[which];
  if (libraryUrl) return { library, libraryUrl, meta, key, base: customBase(call.ctx, libraryUrl), path: meta === 'pages' ? (which === 'items' ? 'pages/' : 'page-categories/') : paths[0] };
  if (library === 'pages') key = 'new-pages';
  return { library, libraryUrl, meta, key, base: call.settings.patternsUrl, path: library === 'pages' ? paths[1] : paths[0] };
}

/** Seconds a custom library's answers are kept: its connection's refresh period, when it announced one. */
async function customSeconds(call: LibraryCall, libraryUrl: string): Promise<number | undefined> {
  if (!libraryUrl) return undefined;
  const info = await call.repo.answers.get<{ refresh?: unknown }>(cacheKey('connection', libraryUrl));
  const refresh = info ? text(info.refresh) : '';
  return REFRESH_SECONDS[refresh];
}

async function catalogue(ctx: Ctx, which: 'items' | 'categories') {
  const call = await libraryCall(ctx);
  const src = catalogueSource(call, which);
  const service = call.service('library', src.base);
  const query = catalogueQuery(call, src.library, src.key);
  if (which === 'items' && src.meta) query.meta = src.meta;
  const seconds = await customSeconds(call, src.libraryUrl);
  return cachedAnswer(call, `library-${which}`, [src.base, src.path, query], { reload: ctx.args.force_reload, seconds }, async () =>
    expectObject(service, src.path, await service.json({ path: src.path, query })),
  );
}

/**
 * GET get_library: the catalogue of patterns (or of pages with `library=pages`, or of a custom
 * Kadence Cloud library at `library_url` with its `key`, `meta=pages` for its pages), kept in the
 * store; decoded.
 */
export const getLibrary = (ctx: Ctx<'design-library:library.getLibrary'>) => catalogue(ctx, 'items');

/** GET get_library_categories: the same library's categories, kept in the store. */
export const getLibraryCategories = (ctx: Ctx<'design-library:library.getLibraryCategories'>) => catalogue(ctx, 'categories');

/**
 * GET get_connection: connects a custom Kadence Cloud library (`library_url`, `key`): asks its
 * `info/` and answers {name, slug, refresh, expires, pages}; remembered, so the library's
 * catalogues are kept for its `refresh` period (day, week or month).
 */
export async function getConnection(ctx: Ctx<'design-library:library.getConnection'>) {
  const libraryUrl = text(ctx.args.library_url);
  const key = text(ctx.args.key);
  const missing = [...(libraryUrl ? [] : ['library_url']), ...(key ? [] : ['key'])];
  // kb_design_library_missing_params's other wording
  if (missing.length) throw new RestError('kb_design_library_missing_params', `A library connection needs ${missing.join(' and ')}.`, 400, { params: missing });
  const call = await libraryCall(ctx);
  const service = call.service('library', customBase(ctx, libraryUrl));
  const info = expectObject(service, 'info/', await service.json({ path: 'info/', query: { key, site: domainOf(ctx.site) } }));
  if ((info as { error?: unknown }).error) throw ctx.fail('kb_design_library_connection_refused', { url: libraryUrl });
  const field = (name: string) => text((info as Record<string, unknown>)[name]) || (typeof (info as Record<string, unknown>)[name] === 'number' ? String((info as Record<string, unknown>)[name]) : '');
  const connection = { name: field('name'), slug: field('slug'), refresh: field('refresh'), expires: field('expires'), pages: field('pages') };
  await call.repo.answers.set(cacheKey('connection', libraryUrl), connection, 365 * 86400, { kind: 'connection' });
  return connection;
}

/**
 * GET get_pattern_content: one pattern (`pattern_id`; `pattern_type=page` for a page of a custom
 * library) with its content, from the patterns service or the custom library; `pattern_style`
 * passes through. Not kept: a pattern is fetched when it is inserted.
 */
export async function getPatternContent(ctx: Ctx<'design-library:library.getPatternContent'>) {
  const library = text(ctx.args.library);
  const patternId = text(ctx.args.pattern_id);
  const missing = [...(library ? [] : ['library']), ...(patternId ? [] : ['pattern_id'])];
  if (missing.length) throw ctx.fail('kb_design_library_missing_params', { params: missing }, { params: missing });
  const call = await libraryCall(ctx);
  const libraryUrl = text(ctx.args.library_url);
  const type = text(ctx.args.pattern_type) || 'pattern';
  const page = libraryUrl !== '' && type === 'page';
  const base = libraryUrl ? customBase(ctx, libraryUrl) : call.settings.patternsUrl;
  const path = page ? 'page/' : 'single/';
  const query: Record<string, string> = { ...catalogueQuery(call, library, text(ctx.args.key)), type, [page ? 'page-item' : 'id']: patternId };
  delete query.request;
  const style = text(ctx.args.pattern_style);
  if (style) query.style = style;
  if (!['templates', 'pages', 'template'].includes(library)) query.data = 'true';
  const service = call.service('library', base);
  const answer = await service.json({ path, query });
  if (answer === null || answer === '') throw service.invalidAnswer(path, 'no content');
  return answer;
}

/** The block comment of an image block and what it wraps, to give it its imported attachment's id. */
const IMAGE_BLOCK = /<!-- wp:(kadence|core)\/image (\{[^]*?\}) -->([^]*?)<!-- \/wp:\1\/image -->/g;

/**
 * POST process_pattern: the pattern's markup (`content`) with every remote image it shows imported
 * into the media library (once per URL) and its references rewritten, escaped or not; an image
 * block whose picture was imported also gets the attachment's id (`"id":` and `wp-image-`).
 * Answers {content, images: [{url, id, to, error?}]}. No content is a 400.
 */
export async function processPattern(ctx: Ctx<'design-library:library.processPattern'>) {
  const content = ctx.args.content;
  if (typeof content !== 'string' || !content.trim()) throw ctx.fail('kb_design_library_no_content', {}, { params: ['content'] });
  const call = await libraryCall(ctx);
  const { markup, images } = await importImagesInMarkup(call.target, content, 'design-library:');
  const idOf = new Map(images.filter((i) => i.id).map((i) => [i.to, i.id]));
  const rewritten = markup.replace(IMAGE_BLOCK, (block, _name: string, attrs: string, inner: string) => {
    const src = /<img [^>]*?src="([^"]+)"/.exec(inner)?.[1];
    const id = src ? idOf.get(src) : undefined;
    if (!id) return block;
    const old = /"id":(\d+)/.exec(attrs)?.[1];
    const withId = old ? block.replace(`"id":${old}`, `"id":${id}`).split(`wp-image-${old}`).join(`wp-image-${id}`) : block;
    return withId;
  });
  return { content: rewritten, images };
}

/** GET reset: forgets every kept answer and every AI job, so the next questions go to the services. */
export async function reset(ctx: Ctx<'design-library:library.reset'>) {
  const call = await libraryCall(ctx);
  const cached = await call.repo.answers.clear();
  const jobs = await call.repo.clearJobs();
  return { success: true, cleared: { cached_answers: cached, ai_jobs: jobs } };
}
