import { GENERATOR, WxrWriter } from '../import/wxr-export.ts';
import { describeLocation } from '../store/db.ts';
import { CliError } from './errors.ts';
import { openInstalled, startInstalled, userNamed } from './site-store.ts';
import { plural } from './output.ts';

/** `cms-spec export --format wxr`: the site as WordPress's Tools → Export writes it (WXR 1.2). */

export interface WxrExportCommandOptions {
  db: string;
  spec: string;
  out: string;
  postType?: string;
  author?: string;
  startDate?: string;
  endDate?: string;
  status?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function checkDate(flag: string, given: string | undefined): void {
  if (given !== undefined && (!DAY.test(given) || Number.isNaN(Date.parse(`${given}T00:00:00Z`)))) throw new CliError(`${flag} takes a date as YYYY-MM-DD, not "${given}".`);
}

/** Writes the export through `write` (a file or standard output, chosen by the caller); returns the summary line. */
export async function wxrExportCommand(o: WxrExportCommandOptions, write: (chunk: string) => Promise<void>): Promise<string> {
  checkDate('--start-date', o.startDate);
  checkDate('--end-date', o.endDate);
  const store = await openInstalled(o.db);
  try {
    const { site } = await startInstalled(store, o);
    if (o.postType !== undefined && o.postType !== 'all') {
      const { exportedTypes } = await import('../import/wxr-export.ts');
      if (exportedTypes(site, o.postType).length !== 1) throw new CliError(`--post-type: the site has no post type "${o.postType}" that can be exported (all, or one of ${exportedTypes(site).join(', ')}).`);
    }
    const author = o.author === undefined ? undefined : (await userNamed(store, o.author)).id;
    const started = Date.now();
    const posts = await new WxrWriter(store, site, { postType: o.postType, author, startDate: o.startDate, endDate: o.endDate, status: o.status, generator: GENERATOR }, write).run();
    return `Exported ${plural(posts, 'post')} from ${describeLocation(o.db)} as WXR 1.2${o.out === '-' ? '' : ` to ${o.out}`} in ${((Date.now() - started) / 1000).toFixed(1)} s.`;
  } finally {
    await store.close();
  }
}
