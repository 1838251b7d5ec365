import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeLocation } from '../store/db.ts';
import { WxrError } from '../import/wxr-parser.ts';
import { WxrImporter, type AuthorsChoice, type WxrImportOptions, type WxrImportResult } from '../import/wxr-import.ts';
import type { WxrRecord } from '../import/wxr-parser.ts';
import type { Store } from '../store/index.ts';
import { CliError } from './errors.ts';
import { Progress } from './progress.ts';
import { actingUser, openInstalled, startInstalled } from './site-store.ts';
import { plural } from './output.ts';

/** `cms-spec import FILE.xml`: a WordPress export (WXR) brought into an installed site. */

export interface WxrImportCommandOptions {
  db: string;
  spec: string;
  authors?: string;
  dryRun?: boolean;
  uploads?: string;
  attachments?: boolean;
  user?: string;
  /** A live WordPress to read over its REST API instead of a file. */
  from?: string;
  /** `user:application-password` for --from. */
  auth?: string;
  /** Let --from reach a non-public address (a site on this machine or network). */
  allowPrivate?: boolean;
}

/** Whether the file is XML (a WXR) rather than JSON Lines: its first character that is not a byte order mark or white space is `<`. */
export async function isXmlFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    // the JSON Lines import tells what is wrong with the file
    return false;
  }
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').replace(/^\uFEFF/, '').trimStart().startsWith('<');
  } finally {
    await handle.close();
  }
}

/** `--authors create|skip|FILE.csv`: a CSV maps with lines `old_login,new_login` (a header line naming them is allowed). */
async function authorsChoice(given: string | undefined): Promise<AuthorsChoice> {
  if (!given || given === 'create') return { mode: 'create' };
  if (given === 'skip') return { mode: 'skip' };
  let text: string;
  try {
    text = await readFile(given, 'utf8');
  } catch (e) {
    throw new CliError(`--authors takes create, skip or a CSV file of old_login,new_login lines; cannot read "${given}": ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (e as Error).message}.`);
  }
  const map = new Map<string, string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    const cells = line.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (cells.length !== 2 || !cells[0] || !cells[1]) throw new CliError(`${given}:${i + 1}: a line of the authors' mapping is old_login,new_login, not "${line}".`);
    if (i === 0 && cells[0] === 'old_login' && cells[1] === 'new_login') return;
    map.set(cells[0], cells[1]);
  });
  return { mode: 'map', map };
}

function summary(r: WxrImportResult, dryRun: boolean): string {
  const s = r.scan;
  const items = Object.entries(s.items).map(([type, n]) => `${n} ${type}`).join(', ') || 'no items';
  const found = `WXR ${s.version} from ${s.baseUrl || 'an unnamed site'}: ${plural(s.authors.length, 'author')}, ${plural(s.categories, 'category', 'categories')}, ${plural(s.tags, 'tag')}, ${plural(s.terms, 'other term')}, ${items}.`;
  if (dryRun) return `${found}\nDry run: nothing was written.`;
  const posts = Object.entries(r.posts).map(([type, n]) => `${n} ${type}`).join(', ') || 'no posts';
  return `${found}\nImported ${plural(r.users, 'user')}, ${plural(r.terms, 'term')}, ${posts}, ${plural(r.menuItems, 'menu item')}, ${plural(r.attachments, 'attachment')}, ${plural(r.comments, 'comment')}; ${r.existing} already there, ${r.failed} failed.`;
}

/** Runs the importer over `source` (a WXR file, or a live site's spooled records) with the command's options, printing its notices, progress and report. */
async function runImport(source: { file: string; read?: () => AsyncGenerator<WxrRecord>; allowHosts?: string[] }, o: WxrImportCommandOptions, prepare?: (store: Store) => Promise<void>): Promise<void> {
  const authors = await authorsChoice(o.authors);
  const store = await openInstalled(o.db);
  try {
    const { site } = await startInstalled(store, o);
    const user = await actingUser(store, o.user);
    await prepare?.(store);
    let bar: Progress | undefined;
    const started = Date.now();
    const options: WxrImportOptions = {
      ...source,
      authors,
      importingUser: user.id,
      dryRun: o.dryRun,
      uploadsDir: o.uploads,
      fetchAttachments: o.attachments !== false,
      notice: (n) => {
        // a notice goes on its own line, under the bar
        if (bar && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
        console.error(n.message);
      },
      progress: (done, total) => (bar ??= new Progress(total, 'imported', 'items')).update(done),
    };
    let result: WxrImportResult;
    try {
      result = await new WxrImporter(store, site, site.media, options).run();
    } catch (e) {
      if (e instanceof WxrError) throw new CliError(`${e.message}; nothing was imported.`);
      throw e;
    } finally {
      bar?.finish();
    }
    console.log(summary(result, Boolean(o.dryRun)));
    if (!o.dryRun) console.log(`Into ${describeLocation(o.db)} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } finally {
    await store.close();
  }
}

export async function wxrImportCommand(file: string, o: WxrImportCommandOptions): Promise<void> {
  await runImport({ file }, o);
}

/** `user:application-password`, split at the first colon (an application password shown with spaces keeps them). */
function credentials(given: string | undefined): { user: string; password: string } | undefined {
  if (given === undefined) return undefined;
  const at = given.indexOf(':');
  if (at <= 0 || at === given.length - 1) throw new CliError('--auth takes user:application-password (made in the old site\'s profile, Application Passwords).');
  return { user: given.slice(0, at), password: given.slice(at + 1) };
}

/**
 * `cms-spec import --from URL`: a live WordPress read over its REST API into a spool of records
 * (see src/import/rest-source.ts), then imported as a WXR file is. Each run reads the site again
 * and imports what is missing, so an interrupted import is finished by running it again.
 */
export async function restImportCommand(o: WxrImportCommandOptions): Promise<void> {
  const auth = credentials(o.auth);
  const { spoolRestSite, RestSourceError } = await import('../import/rest-source.ts');
  const { readSpool } = await import('../import/record-spool.ts');
  let host: string;
  try {
    host = new URL(o.from!).hostname;
  } catch {
    throw new CliError(`--from takes the old site's address (https://old.example), not "${o.from}".`);
  }
  const allowHosts = o.allowPrivate ? [host] : undefined;
  const dir = await mkdtemp(join(tmpdir(), 'cms-spec-rest-import-'));
  const spool = join(dir, 'records.jsonl');
  try {
    await runImport({ file: o.from!, read: () => readSpool(spool), allowHosts }, o, async () => {
      const bars = new Map<string, Progress>();
      try {
        const read = await spoolRestSite({
          url: o.from!,
          auth,
          allowHosts,
          spool,
          progress: (collection, done, total) => {
            let bar = bars.get(collection);
            if (!bar) bars.set(collection, (bar = new Progress(Math.max(total, 1), 'read', collection)));
            bar.update(done);
            if (done >= total) bar.finish();
          },
        });
        console.error(`Read ${plural(read.records - 1, 'record')} from ${read.baseUrl}.`);
      } catch (e) {
        if (e instanceof RestSourceError) throw new CliError(`${e.message}; nothing was imported.`);
        throw e;
      }
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
