import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Store } from '../../store/index.ts';

/** Where each kind of template goes in the archive, as wp_generate_block_templates_export_file lays a block theme out. */
const FOLDERS: Record<string, string> = { cms_template: 'templates', cms_template_part: 'parts' };

/** A stored 'YYYY-MM-DD HH:MM:SS' UTC date as the file's time in the archive. */
const mtimeOf = (gmt: string) => new Date(`${gmt.replace(' ', 'T')}Z`);

/**
 * The site's published templates and template parts as a zip (`templates/<slug>.html`,
 * `parts/<slug>.html`, both folders present as WordPress adds them), or null when it has none.
 */
export async function templatesZip(store: Store): Promise<Buffer | null> {
  const { rows } = await store.posts.query({ types: Object.keys(FOLDERS), statuses: ['publish'], orderby: 'slug', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  if (!rows.length) return null;
  const files: Zippable = { 'templates/': new Uint8Array(0), 'parts/': new Uint8Array(0) };
  for (const t of rows) files[`${FOLDERS[t.type]}/${t.slug || t.id}.html`] = [strToU8(t.content), { mtime: mtimeOf(t.modified_gmt) }];
  return Buffer.from(zipSync(files));
}
