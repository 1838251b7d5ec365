import { readFileSync } from 'node:fs';
import type { Store } from '../../store/index.ts';
import { sanitizeUrl } from '../../engine/index.ts';
import type { SeoRepo } from './repo.ts';
import { META, OPTION } from './settings.ts';

/**
 * Importing another SEO plugin's post data (Yoast's importers, for the plugins of importers.json):
 * its post meta keys are read, converted and written into this plugin's fields, a batch at a
 * time, resuming after the last post done (a cursor kept in an option).
 */

type Field = keyof typeof META;
type ReadAs = 'text' | 'keyphrase' | 'url' | 'flag' | 'robots' | 'noindex';

interface SourcePlugin {
  name: string;
  truthy: string[];
  meta: Record<string, { field: Field; as: ReadAs }>;
  variables: Record<string, string>;
}

export const IMPORTERS = (JSON.parse(readFileSync(new URL('./importers.json', import.meta.url), 'utf8')) as { plugins: Record<string, SourcePlugin> }).plugins;
export const IMPORT_TYPES = ['posts', 'cleanup'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** Posts per call, as the plugin's importers take them. */
export const IMPORT_LIMIT = 25;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** This plugin's stored form of each field (strings as they are, booleans and numbers as JSON), from another plugin's value. */
function convert(source: SourcePlugin, as: ReadAs, value: string): Partial<Record<Field, string>> | string | null {
  const v = value.trim();
  if (!v) return null;
  switch (as) {
    case 'text': {
      let out = v;
      // longest names first, so `%title%` never eats part of a longer variable
      for (const name of Object.keys(source.variables).sort((a, b) => b.length - a.length)) out = out.replace(new RegExp(escapeRegExp(name), 'g'), source.variables[name]);
      return out;
    }
    case 'keyphrase':
      return v.split(',')[0].trim() || null;
    case 'url':
      return sanitizeUrl(v) || null;
    case 'flag':
      return source.truthy.includes(v.toLowerCase()) ? 'true' : null;
    case 'noindex':
      return source.truthy.includes(v.toLowerCase()) ? '1' : null;
    case 'robots': {
      const words = new Set(v.toLowerCase().match(/[a-z-]+/g) ?? []);
      const out: Partial<Record<Field, string>> = {};
      if (words.has('noindex')) out.noindex = '1';
      if (words.has('nofollow')) out.nofollow = 'true';
      return Object.keys(out).length ? out : null;
    }
  }
}

export interface ImportedPost {
  post_id: number;
  /** posts: this plugin's keys written, with their values; cleanup: the other plugin's keys removed. */
  imported?: Record<string, string>;
  removed?: string[];
}

/** Runs one batch of an import; `done` says whether a full batch was processed (more may remain). */
export async function importBatch(store: Store, repo: SeoRepo, pluginSlug: string, type: ImportType): Promise<{ objects: ImportedPost[]; full: boolean }> {
  const source = IMPORTERS[pluginSlug];
  const sourceKeys = Object.keys(source.meta);
  const cursorOption = OPTION.importCursor(pluginSlug.replace(/-/g, '_'), type);
  const after = Number(await store.options.get(cursorOption)) || 0;
  const ids = await repo.postsWithMeta(sourceKeys, after, IMPORT_LIMIT);
  const objects: ImportedPost[] = [];
  const metas = await store.posts.meta.ofMany(ids, [...sourceKeys, ...Object.values(META)]);
  for (const id of ids) {
    const meta = metas.get(id) ?? {};
    if (type === 'cleanup') {
      const removed = sourceKeys.filter((k) => k in meta);
      for (const k of removed) await store.posts.meta.delete(id, k);
      objects.push({ post_id: id, removed });
      continue;
    }
    const imported: Record<string, string> = {};
    for (const [key, { field, as }] of Object.entries(source.meta)) {
      if (meta[key] === undefined) continue;
      const converted = convert(source, as, meta[key]);
      const writes = typeof converted === 'string' ? { [field]: converted } : (converted ?? {});
      for (const [f, value] of Object.entries(writes) as [Field, string][]) {
        const ours = META[f];
        if (meta[ours] || imported[ours] || value === undefined) continue; // what this plugin already has wins
        await store.posts.meta.set(id, ours, value);
        imported[ours] = value;
      }
    }
    if (Object.keys(imported).length) await repo.markStale('post', id);
    objects.push({ post_id: id, imported });
  }
  if (ids.length) await store.options.set(cursorOption, String(ids[ids.length - 1]));
  return { objects, full: ids.length >= IMPORT_LIMIT };
}
