import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { moveFile } from '../core/media.ts';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import { WxrImporter, type AuthorChoice, type ImportNotice, type WxrImportResult } from './wxr-import.ts';
import { scanWxr, type WxrScan } from './wxr-scan.ts';
import { readWxrFile, WxrError } from './wxr-parser.ts';

/**
 * The admin's imports (Tools → Import): a WXR file uploaded into the site's own folder, checked
 * and its authors read, then imported in the background of the server process with the authors'
 * mapping WordPress's importer form asks for. Each import is a folder under the uploads folder's
 * `.imports` (a dot folder, which the site never serves): the file, and `state.json`, what every
 * request (and every worker process sharing the folder) reads of it: its authors, its progress and
 * its report. The file is removed once the import is done, as WordPress's importer deletes its
 * upload, and an upload never run goes a day later (removeUnrun); an import interrupted (the
 * server stopped) is run again and finishes what is missing, as the CLI's does.
 */

export type ImportStatus = 'uploaded' | 'running' | 'interrupted' | 'done' | 'failed';

/** One author of the file, as the mapping form lists them. */
export interface ImportAuthor {
  login: string;
  email: string;
  display_name: string;
  first_name: string;
  last_name: string;
}

export interface ImportRunState {
  id: string;
  status: ImportStatus;
  /** The name the file was uploaded under, and its size in bytes. */
  file: { name: string; size: number };
  uploaded: string;
  /** The user who uploaded it (WordPress's current user: who gets what has no author). */
  user: number;
  /** What the file holds: its WXR version, the old site's address, its authors and its items by kind. */
  wxr: { version: string; base_url: string; authors: ImportAuthor[]; categories: number; tags: number; terms: number; items: Record<string, number>; total: number };
  /** Items done of the total, and the rate in items a second since the run started. */
  progress: { done: number; total: number; rate: number; started: string | null; finished: string | null };
  report: ImportReport | null;
  /** Why the run stopped, when it failed. */
  error: string | null;
  /** The process running it (an import whose process is gone is `interrupted`). */
  pid: number | null;
}

export interface ImportReport {
  users: number;
  terms: number;
  posts: Record<string, number>;
  menu_items: number;
  attachments: number;
  comments: number;
  existing: number;
  failed: number;
  /** The notices, in order: items skipped or failed, warnings (at most NOTICES_KEPT). */
  notices: ImportNotice[];
}

/** Notices kept in the report; a file with more says how many more there were. */
const NOTICES_KEPT = 500;
/** The state file is written at most this often while a run counts its items. */
const PROGRESS_EVERY_MS = 500;
/** An upload never run is removed once it is this old (wp_import_handle_upload schedules importer_scheduled_cleanup for DAY_IN_SECONDS later). */
const UNRUN_KEPT_MS = 24 * 60 * 60 * 1000;
const WXR_FILE = 'wxr.xml';
const STATE_FILE = 'state.json';
const ID = /^[0-9a-f-]{36}$/;

/** A file that is not a WXR the importer reads (malformed, truncated, no known version): the parser's message, naming the file as uploaded. */
export class ImportFileError extends Error {}

/** A run asked of an import that cannot run now: one running already, or one done (its file gone). */
export class ImportRunRefused extends Error {
  constructor(readonly code: 'cms_import_running' | 'cms_import_done') {
    super(code);
  }
}

/** The imports running in this process, by id. */
const running = new Set<string>();

const folderOf = (site: Site) => join(site.media.uploadsDir, '.imports');

/** The import's folder, or undefined for an id that cannot be one. */
function dirOf(site: Site, id: string): string | undefined {
  return ID.test(id) ? join(folderOf(site), id) : undefined;
}

/** Whether a process is alive (signal 0 tests without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function writeState(dir: string, state: ImportRunState): Promise<void> {
  // a reader never sees half a file: written beside, then renamed over
  const temp = join(dir, `${STATE_FILE}.${randomUUID()}`);
  await writeFile(temp, JSON.stringify(state));
  await rename(temp, join(dir, STATE_FILE));
}

/** The import's state as a request sees it: a run whose process is gone is interrupted. Undefined when there is no such import. */
export async function importState(site: Site, id: string): Promise<ImportRunState | undefined> {
  const dir = dirOf(site, id);
  if (!dir) return undefined;
  // asked before the file is read: a run that ends while it is read leaves the read with its last progress, still running
  const runningHere = running.has(id);
  let state: ImportRunState;
  try {
    state = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as ImportRunState;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (state.status === 'running' && !runningHere && (state.pid === process.pid || !alive(state.pid ?? 0))) state.status = 'interrupted';
  return state;
}

/**
 * importer_scheduled_cleanup, run as the next upload comes rather than on a timer: the imports
 * uploaded before `before` (ms) and never run go, their files with them.
 */
async function removeUnrun(site: Site, before: number): Promise<void> {
  let ids: string[];
  try {
    ids = await readdir(folderOf(site));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  for (const id of ids) {
    const state = await importState(site, id);
    if (state?.status === 'uploaded' && Date.parse(state.uploaded) < before) await rm(join(folderOf(site), id), { recursive: true, force: true });
  }
}

/**
 * An uploaded file kept as a new import: moved into its folder and read through once (scanWxr:
 * well-formed, a WXR version, its authors and items counted), which writes nothing. A file that
 * is not a WXR is removed and refused with the parser's message (ImportFileError).
 */
export async function addImport(site: Site, upload: { path: string; name: string; size: number }, user: number): Promise<ImportRunState> {
  await removeUnrun(site, Date.now() - UNRUN_KEPT_MS);
  const id = randomUUID();
  const dir = join(folderOf(site), id);
  await mkdir(dir, { recursive: true });
  let scan: WxrScan;
  try {
    await moveFile(upload.path, join(dir, WXR_FILE));
    scan = await scanWxr(upload.name, () => readWxrFile(join(dir, WXR_FILE), upload.name));
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    if (e instanceof WxrError) throw new ImportFileError(e.message);
    throw e;
  }
  const state: ImportRunState = {
    id,
    status: 'uploaded',
    file: { name: upload.name, size: upload.size },
    uploaded: new Date().toISOString(),
    user,
    wxr: {
      version: scan.version,
      base_url: scan.baseUrl,
      authors: scan.authors.map((a) => ({ login: a.author_login, email: a.author_email, display_name: a.author_display_name, first_name: a.author_first_name, last_name: a.author_last_name })),
      categories: scan.categories,
      tags: scan.tags,
      terms: scan.terms,
      items: scan.items,
      total: scan.total,
    },
    progress: { done: 0, total: scan.total, rate: 0, started: null, finished: null },
    report: null,
    error: null,
    pid: null,
  };
  await writeState(dir, state);
  return state;
}

export interface RunOptions {
  /** Each of the file's authors (by login) to an existing user or a new login; an author not named is imported as the file describes them. */
  authors: ReadonlyMap<string, AuthorChoice>;
  /** WordPress's "Download and import file attachments". */
  fetchAttachments: boolean;
  /** Who runs it: what has no author of its own goes to them. */
  user: number;
  log: { error(message: string): void };
}

/**
 * Starts the import in the background of this process and answers its state, `running`. The run
 * writes its progress to the state file as it goes, and its report at the end; it runs on the
 * site's own store, not the request's.
 */
export async function startImport(site: Site, store: Store, id: string, o: RunOptions): Promise<ImportRunState> {
  const state = await importState(site, id);
  const dir = dirOf(site, id);
  if (!state || !dir) throw new Error(`no import ${id}`);
  if (state.status === 'running' || running.has(id)) throw new ImportRunRefused('cms_import_running');
  if (state.status === 'done') throw new ImportRunRefused('cms_import_done');
  // taken before anything is awaited: a second request for the same run finds it running
  running.add(id);
  const started = Date.now();
  Object.assign(state, { status: 'running', pid: process.pid, error: null, report: null });
  state.progress = { done: 0, total: state.wxr.total, rate: 0, started: new Date(started).toISOString(), finished: null };
  try {
    await writeState(dir, state);
  } catch (e) {
    running.delete(id);
    throw e;
  }

  const notices: ImportNotice[] = [];
  let noticesLeft = 0;
  let lastWrite = 0;
  let writing: Promise<void> = Promise.resolve();
  const importer = new WxrImporter(store, site, site.media, {
    file: state.file.name,
    path: join(dir, WXR_FILE),
    authors: { mode: 'each', authors: o.authors },
    importingUser: o.user,
    fetchAttachments: o.fetchAttachments,
    notice: (n) => (notices.length < NOTICES_KEPT ? notices.push(n) : noticesLeft++),
    progress: (done, total) => {
      state.progress = { ...state.progress, done, total, rate: rate(done, started) };
      const now = Date.now();
      if (now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      // a write that fails is logged and the run goes on: the next one, or the last, tells where it is
      writing = writing.then(() => writeState(dir, state)).catch((e) => o.log.error(`the import ${id} could not write its progress: ${e instanceof Error ? e.message : String(e)}`));
    },
  });
  void (async () => {
    try {
      const result = await importer.run();
      if (noticesLeft) notices.push({ kind: 'warning', line: 0, message: `${noticesLeft} more notices are not shown.` });
      state.report = reportOf(result, notices);
      state.status = 'done';
      // the file is not needed any more, as WordPress's importer deletes its upload
      await rm(join(dir, WXR_FILE), { force: true });
    } catch (e) {
      state.status = 'failed';
      state.error = e instanceof Error ? e.message : String(e);
      if (!(e instanceof WxrError)) o.log.error(`the import ${id} of ${state.file.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
    state.progress = { ...state.progress, rate: rate(state.progress.done, started), finished: new Date().toISOString() };
    state.pid = null;
    await writing;
    await writeState(dir, state);
  })()
    .catch((e) => o.log.error(`the import ${id} could not record its end: ${e instanceof Error ? e.message : String(e)}`))
    .finally(() => running.delete(id));
  return { ...state };
}

/** Items a second since the run started. */
const rate = (done: number, started: number) => Math.round((done / Math.max((Date.now() - started) / 1000, 0.001)) * 10) / 10;

function reportOf(r: WxrImportResult, notices: ImportNotice[]): ImportReport {
  return { users: r.users, terms: r.terms, posts: r.posts, menu_items: r.menuItems, attachments: r.attachments, comments: r.comments, existing: r.existing, failed: r.failed, notices };
}

