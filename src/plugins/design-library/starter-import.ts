import type { Ctx } from '../../core/context.ts';
import { importImagesInMarkup, type MarkupImage } from '../../core/image-imports.ts';
import { invalidParam, RestError } from '../../engine/index.ts';
import type { LibraryCall } from './calls.ts';

/**
 * Writing a starter site's content into this one, so that remove-content can take exactly it out
 * again: every object is created through the site's own REST routes in-process (their checks,
 * filters and defaults apply, as when the wizard's browser creates them in the real plugin), and
 * recorded in the plugin's import log with every option changed and its value before.
 */

/** The answer a sub-request's failure becomes: its own WordPress error, passed on. */
function passOn(res: { status: number; data: unknown }): never {
  const body = (res.data ?? {}) as { code?: string; message?: string; data?: Record<string, unknown> };
  const { status: _status, ...data } = body.data ?? {};
  throw new RestError(body.code ?? 'kb_starter_install_failed', body.message ?? 'The import failed.', res.status, data);
}

/** Creates an object at a cms/v2 collection (`pages`, `categories`…) as the caller, records it, and answers it. */
export async function create(call: LibraryCall, collection: string, params: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await call.ctx.dispatch('POST', `/cms/v2/${collection}`, params);
  if (res.status >= 400) passOn(res);
  const made = res.data as Record<string, any>;
  await call.repo.recordImport({ kind: 'rest', ref: `${collection}/${made.id}`, previous: null });
  return made;
}

/** Records an option's value before the first import changed it (the import about to change it), for remove-content to put back. */
export async function recordOption(call: LibraryCall, name: string): Promise<void> {
  const before = await call.ctx.store.options.get(name);
  await call.repo.recordImport({ kind: 'option', ref: name, previous: before ?? null });
}

/** Changes an option, recording its value before the first import changed it. */
export async function setOption(call: LibraryCall, name: string, value: string): Promise<void> {
  await recordOption(call, name);
  await call.ctx.store.options.set(name, value);
}

/** The remote images of a piece of markup imported (the new attachments recorded as imported), the markup rewritten to them. */
export async function withImportedImages(call: LibraryCall, markup: string): Promise<{ markup: string; images: MarkupImage[] }> {
  const out = await importImagesInMarkup(call.target, markup, 'starter:');
  for (const image of out.images) if (image.created) await call.repo.recordImport({ kind: 'rest', ref: `media/${image.id}`, previous: null });
  return out;
}

/** A piece of content a starter sends: a title and its block markup (both strings). */
export interface StarterItem {
  title: string;
  content: string;
  excerpt: string;
  /** A featured image URL, or ''. */
  image: string;
  raw: Record<string, unknown>;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/**
 * The list a request sends under `field` (its JSON body), each entry checked: an empty or missing
 * list is the error `empty` makes (no_pages, no_posts…), an entry without a title a 400 naming it.
 */
export function itemsOf(ctx: Ctx, field: string, empty: () => RestError): StarterItem[] {
  const list = ctx.args[field];
  if (!Array.isArray(list) || !list.length) throw empty();
  return list.map((raw, i) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidParam(field, `${field}[${i}] is not an object.`);
    const o = raw as Record<string, unknown>;
    const title = str(o.title ?? o.post_title).trim();
    if (!title) throw invalidParam(field, `${field}[${i}] has no title.`);
    return { title, content: str(o.content ?? o.post_content), excerpt: str(o.excerpt ?? o.post_excerpt), image: str(o.image), raw: o };
  });
}

/** A featured image by URL: imported once (recorded when new), its attachment id; 0 when there is none or it failed. */
export async function featuredImage(call: LibraryCall, url: string): Promise<number> {
  if (!/^https?:\/\//i.test(url)) return 0;
  const { images } = await withImportedImages(call, `<img src="${url.replace(/"/g, '%22')}">`);
  return images[0]?.id ?? 0;
}

/**
 * Creates each item as a post of the REST collection (`pages`, `posts`, `designkit_product`…),
 * its images imported first, published; answers what was made: {id, title, link, images}.
 */
export async function createItems(call: LibraryCall, collection: string, items: StarterItem[], extra: (item: StarterItem) => Promise<Record<string, unknown>> = async () => ({})) {
  const made = [];
  for (const item of items) {
    const { markup, images } = await withImportedImages(call, item.content);
    const featured = await featuredImage(call, item.image);
    const post = await create(call, collection, {
      title: item.title,
      content: markup,
      ...(item.excerpt ? { excerpt: item.excerpt } : {}),
      status: 'publish',
      ...(featured ? { featured_media: featured } : {}),
      ...(await extra(item)),
    });
    made.push({ id: post.id, title: item.title, link: post.link, featured_media: featured, images: images.map((i) => ({ url: i.url, id: i.id, ...(i.error ? { error: i.error } : {}) })) });
  }
  return made;
}

/**
 * Undoes every import: what was created is deleted for good (latest first), every option changed
 * gets its value before back (or is removed when it had none), and the log is emptied. An object
 * already gone is skipped. Answers how many of each were undone.
 */
export async function undoImports(call: LibraryCall): Promise<{ deleted: number; restored_options: number }> {
  let deleted = 0;
  let restored = 0;
  for (const r of await call.repo.imports()) {
    if (r.kind === 'rest') {
      const res = await call.ctx.dispatch('DELETE', `/cms/v2/${r.ref}`, { force: true });
      if (res.status < 400) deleted++;
      else if (res.status !== 404) passOn(res);
    } else if (r.kind === 'post') {
      if (await call.ctx.store.posts.get(Number(r.ref))) {
        await call.ctx.store.posts.delete(Number(r.ref));
        deleted++;
      }
    } else if (r.kind === 'post_content') {
      if (await call.ctx.store.posts.get(Number(r.ref))) await call.ctx.store.posts.update(Number(r.ref), { content: r.previous ?? '' });
    } else {
      if (r.previous === null) await call.ctx.store.options.delete(r.ref);
      else await call.ctx.store.options.set(r.ref, r.previous);
      restored++;
    }
    await call.repo.forgetImport(r.id);
  }
  if (restored) await call.ctx.site.optionsChanged();
  return { deleted, restored_options: restored };
}
