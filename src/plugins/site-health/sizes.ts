import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { HealthRun } from './result.ts';

const UNITS: [string, number][] = [
  ['PB', 1024 ** 5],
  ['TB', 1024 ** 4],
  ['GB', 1024 ** 3],
  ['MB', 1024 ** 2],
  ['KB', 1024],
  ['B', 1],
];

/** size_format(): bytes in the largest unit that fits, with `decimals` places (number_format_i18n in English). */
export function sizeFormat(bytes: number, decimals = 0): string {
  const [unit, magnitude] = UNITS.find(([, m]) => bytes >= m) ?? ['B', 1];
  return `${(bytes / magnitude).toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })} ${unit}`;
}

/** The bytes of the files under a folder (links are not followed); null when it does not exist. */
async function directorySize(dir: string): Promise<number | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += (await directorySize(path)) ?? 0;
    else if (entry.isFile()) total += (await lstat(path)).size;
  }
  return total;
}

/** One size as WP_Debug_Data::get_sizes reports it: formatted, with bytes for debugging, and raw. */
export interface SizeEntry {
  size: string;
  debug: string;
  raw?: number;
}

function entry(bytes: number | null, missing: string): SizeEntry {
  if (bytes === null) return { size: missing, debug: 'not available' };
  const size = sizeFormat(bytes, 2);
  return bytes ? { size, debug: `${size} (${bytes} bytes)`, raw: bytes } : { size, debug: `${size} (${bytes} bytes)` };
}

/**
 * GET directory-sizes (WP_REST_Site_Health_Controller::get_directory_sizes): this site's parts
 * instead of WordPress's folders. The database, the media library's uploads folder (there is none
 * until something is uploaded),
 * the spec folder, and their total.
 */
export async function directorySizes(run: HealthRun): Promise<Record<string, unknown>> {
  const database = await run.store.database.sizeBytes();
  const uploads = await directorySize(run.site.media.settings.uploadsDir);
  const spec = await directorySize(run.site.spec.dir);
  const total = database + (uploads ?? 0) + (spec ?? 0);
  return {
    raw: 0,
    database_size: entry(database, ''),
    uploads_size: entry(uploads, 'There is no uploads folder yet.'),
    spec_size: entry(spec, 'The spec folder cannot be found.'),
    total_size: entry(total, ''),
  };
}
