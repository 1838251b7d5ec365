import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import type { Site } from '../core/site.ts';
import type { Store } from '../store/index.ts';
import type { NewPost } from '../store/posts.ts';
import { ImportRepo, type ImportedComment } from '../store/imports.ts';
import { fillDates, siteClock, type SiteClock } from '../store/site-clock.ts';
import { MENU_ITEM_TYPE, MENU_TAXONOMY, saveMenuItem } from '../core/menus.ts';
import { IMPORT_SOURCE, type MediaLibrary } from '../core/media.ts';
import { TEMPLATE_META } from '../core/templates.ts';
import { filterComment } from '../core/comments.ts';
import { targetedLinkRel } from '../format/link-rel.ts';
import { generatePassword, hashPassword } from '../auth/passwords.ts';
import { sanitizeUserStrict } from '../auth/users.ts';
import { readWxrFile, TYPE_NAMES, WxrError, type WxrAuthor, type WxrComment, type WxrMeta, type WxrPost, type WxrRecord } from './wxr-parser.ts';
import { maybeUnserialize, storedMetaValue } from './php-serialized.ts';
import { readSpool, RecordSpool } from './record-spool.ts';
import { scanWxr, type WxrScan } from './wxr-scan.ts';
import { attachmentFile } from './attachment-files.ts';
import { IdMap, remapIds, rewriteBaseUrl } from './references.ts';

/**
 * WordPress's importer (the wordpress-importer plugin, WP_Import) over a WXR file, with its
 * rules: authors created or mapped, terms kept when their slug exists (term_exists), posts kept
 * with their ids when free (import_id) and skipped when they exist (post_exists), parents,
 * featured images and menu items' objects remapped once everything is in, attachment files
 * fetched (or taken from a local uploads folder) with failures reported and the import going on.
 *
 * The file is parsed once, as a stream: checked whole (well-formed XML, a WXR version) and its
 * items counted, which writes nothing, while its records are spooled to a temporary file of JSON
 * lines; the import then reads the spool, which costs a small part of parsing the XML again
 * (about 0.3 s against 1.5 s for 47 MB). Items are written in batches, one
 * transaction each: the batch's posts with their meta, terms and comments in a few multi-row
 * statements, and should any of it fail, the batch again item by item, each in a savepoint, so a
 * post is stored with its meta, terms and comments or not at all, and only an item that fails
 * alone is reported. An interrupted import run again skips what is in and adds what is missing.
 */

/**
 * How the file's authors become users here: `create` (each becomes a user, or the account they
 * already have), `skip` (everything to the importing user), `map` (a CSV's old login → new login,
 * created when missing), or `each` as WordPress's importer form asks it for every author (by the
 * file's login): assign to an existing user, create a user with another login, or, with neither,
 * import them as `create` does.
 */
export type AuthorsChoice =
  | { mode: 'create' }
  | { mode: 'skip' }
  | { mode: 'map'; map: ReadonlyMap<string, string> }
  | { mode: 'each'; authors: ReadonlyMap<string, AuthorChoice> };

/** One author's line of WordPress's importer form: `user_map` (an existing user's id) wins over `user_new` (a login to create). */
export interface AuthorChoice {
  userId?: number;
  newLogin?: string;
}

export interface WxrImportOptions {
  /** The file, or what names the source in messages. */
  file: string;
  /** Where the WXR file is, when not at `file` (an upload kept under a name of the site's). */
  path?: string;
  /** Records already spooled (a live site's), read instead of a WXR file: once to scan, once to import. */
  read?: () => AsyncGenerator<WxrRecord>;
  authors: AuthorsChoice;
  /** Who gets what has no author of its own (WordPress's current user). */
  importingUser: number;
  /** Parse and report; write nothing. */
  dryRun?: boolean;
  /** A copy of the old site's wp-content/uploads: attachments' files are taken from it instead of fetched. */
  uploadsDir?: string;
  /** Fetch attachments that no uploads folder provides (WordPress's "Download and import file attachments"). */
  fetchAttachments?: boolean;
  /** Hosts and addresses the attachment fetches may reach although non-public (tests' local servers). */
  allowHosts?: string[];
  notice?: (n: ImportNotice) => void;
  progress?: (done: number, total: number) => void;
}

/** One line of the report: an item skipped or failed, or a warning about one, with where it is in the file. */
export interface ImportNotice {
  kind: 'exists' | 'failed' | 'warning';
  line: number;
  message: string;
}

export interface WxrImportResult {
  scan: WxrScan;
  users: number;
  terms: number;
  posts: Record<string, number>;
  menuItems: number;
  comments: number;
  attachments: number;
  existing: number;
  failed: number;
}

/** Meta keys WordPress's importer never copies (is_valid_meta_key): the file's own place and sizes are the new site's, and a lock is the old site's. */
const SKIPPED_META = new Set(['_wp_attached_file', '_wp_attachment_metadata', '_edit_lock']);
const PAGE_TEMPLATE = '_wp_page_template';
const templateOf = (post: WxrPost) => {
  const given = post.postmeta.find((m) => m.key === PAGE_TEMPLATE)?.value ?? '';
  return given === 'default' ? '' : given;
};
/** Items written per transaction. */
const BATCH_ITEMS = 500;
/** A batch is written early once its items' text passes this size. */
const BATCH_BYTES = 8 * 1024 * 1024;
/** The planner's statistics are refreshed once the import has written this many posts, and again each time it has written twice as many (see refreshStatistics). */
const FIRST_ANALYZE_POSTS = 200;

/** The old site's ids and what they became here. */
interface Processed {
  authors: Map<number, number>;
  authorLogins: Map<string, number>;
  terms: IdMap;
  posts: IdMap;
  menuItems: IdMap;
}

interface Pending {
  /** Child post (new id) → parent's old id, for posts whose parent came later (post_orphans). */
  postParents: Map<number, number>;
  /** Menu items whose object came later (missing_menu_items), retried at the end. */
  menuItems: { post: WxrPost; line: number }[];
  /** Menu item (old id) → parent item's old id (menu_item_orphans). */
  menuItemParents: Map<number, number>;
  /** Post (new id) → the old id its _thumbnail_id names (featured_images). */
  featured: Map<number, number>;
  /** Old attachment URL (without its extension for images) → the new one (url_remap). */
  urls: Map<string, string>;
  /** The posts written by this run, whose text may hold old ids and URLs. */
  written: number[];
}

/** What the checks of a batch's items ask about the posts already here, read once as the batch starts and kept up to date as its items are written. */
interface BatchPosts {
  /** Posts by type and date, oldest first: what post_exists looks among. */
  onDate: Map<string, { id: number; title: string }[]>;
  /** The ids among the batch's items' old ids that posts here have (import_id is honoured only when free). */
  takenIds: Set<number>;
}

const typeAndDate = (type: string, date: string) => `${type}\u0000${date}`;

/** What a post brings besides its row (process_post_terms, process_post_comments, process_post_metas), ready to write. */
interface PostDetails {
  id: number;
  terms: { postId: number; termId: number }[];
  /** Its comments, oldest first, each with its meta (whose owner is the comment's new id, known once written). */
  comments: { comment: WxrComment; meta: { key: string; value: string }[] }[];
  meta: { owner: number; key: string; value: string }[];
}

/** The posts of a batch that keep their old ids, held to be written together (see writeTogether). */
interface StagedPosts {
  rows: NewPost[];
  ids: Set<number>;
  details: PostDetails[];
}

export class WxrImporter {
  private readonly processed: Processed = { authors: new Map(), authorLogins: new Map(), terms: new Map(), posts: new Map(), menuItems: new Map() };
  private readonly pending: Pending = { postParents: new Map(), menuItems: [], menuItemParents: new Map(), featured: new Map(), urls: new Map(), written: [] };
  /** The old ids of the menu items this run added (a file may hold an item twice). */
  private readonly menuItemsImported = new Set<number>();
  /** authorOf's answers by the items' author. */
  private readonly creators = new Map<string, number | undefined>();
  /** term_exists' answers by taxonomy and slug (see termId). */
  private readonly termIds = new Map<string, number>();
  /** Terms whose posts changed and posts whose comments did: counted once at the end, as WordPress defers counting while it imports. */
  private readonly touchedTerms = new Set<number>();
  private readonly commentedPosts = new Set<number>();
  /** Inside an item's savepoint: how to undo what it did to the maps (see note). */
  private undo: (() => void)[] | null = null;
  /** Inside a batch's transaction: how to undo what its items did to the maps, should the whole transaction run again (see writeBatch). */
  private batchUndo: (() => void)[] | null = null;
  /** Inside a batch's transaction: the posts its checks look among (see loadBatchPosts). */
  private batchPosts: BatchPosts | null = null;
  /** Inside a batch written together: the posts not written yet, and the notices told once it commits. */
  private staged: StagedPosts | null = null;
  private heldNotices: ImportNotice[] | null = null;
  private clock!: SiteClock;
  /** The category wp_insert_post gives a post of type post that has none (the option default_category), when it is a category. */
  private defaultCategory: number | undefined;
  private result!: WxrImportResult;
  private baseUrl = '';
  private done = 0;
  /** Posts written when the planner's statistics are next refreshed. */
  private analyzeAt = FIRST_ANALYZE_POSTS;

  constructor(
    private readonly store: Store,
    private readonly site: Site,
    private readonly media: MediaLibrary,
    private readonly o: WxrImportOptions,
  ) {}

  private notice(kind: ImportNotice['kind'], line: number, message: string): void {
    if (kind === 'failed') this.result.failed++;
    if (kind === 'exists') this.result.existing++;
    const notice = { kind, line, message: `${this.o.file}:${line}: ${message}` };
    if (this.heldNotices) this.heldNotices.push(notice);
    else this.o.notice?.(notice);
  }

  /**
   * Sets an entry of one of the import's maps; inside an item's savepoint the change is undone
   * if the item is rolled back, so the maps only ever name what is stored.
   */
  private note<K, V>(map: Map<K, V>, key: K, value: V): void {
    if (this.undo || this.batchUndo) {
      const had = map.has(key);
      const old = map.get(key);
      this.onUndo(() => (had ? map.set(key, old as V) : map.delete(key)));
    }
    map.set(key, value);
  }

  private onUndo(undo: () => void): void {
    this.undo?.push(undo);
    this.batchUndo?.push(undo);
  }

  private noteWritten(id: number): void {
    this.pending.written.push(id);
    this.onUndo(() => this.pending.written.pop());
  }

  /** The user an item's author (its dc:creator) is here, matched on the sanitized login as the authors were mapped; remembered, as every item asks. */
  private authorOf(creator: string): number | undefined {
    if (!this.creators.has(creator)) this.creators.set(creator, this.processed.authorLogins.get(sanitizeUserStrict(creator)));
    return this.creators.get(creator);
  }

  /** term_exists, remembered: the terms an import asks about are few and asked about for every post. */
  private async termId(repo: ImportRepo, value: string, taxonomy: string): Promise<number | undefined> {
    const key = `${taxonomy}\u0000${value}`;
    let id = this.termIds.get(key);
    if (id === undefined) {
      id = await repo.termExists(value, taxonomy);
      if (id !== undefined) this.note(this.termIds, key, id);
    }
    return id;
  }

  private tick(): void {
    this.o.progress?.(++this.done, this.result.scan.total);
  }

  async run(): Promise<WxrImportResult> {
    if (this.o.read) return this.runOver(this.o.read);
    const parse = () => readWxrFile(this.o.path ?? this.o.file, this.o.file);
    if (this.o.dryRun) return this.runOver(parse);
    const dir = await mkdtemp(join(tmpdir(), 'cms-spec-import-'));
    try {
      const spool = new RecordSpool(join(dir, 'records.jsonl'));
      return await this.runOver(() => readSpool(spool.path), async () => {
        try {
          return await scanWxr(this.o.file, parse, spool);
        } finally {
          await spool.close();
        }
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The import of `records`, scanned first by `scan` (by default, a read of them). */
  private async runOver(records: () => AsyncGenerator<WxrRecord>, scanned = () => scanWxr(this.o.file, records)): Promise<WxrImportResult> {
    const scan = await scanned();
    this.result = { scan, users: 0, terms: 0, posts: {}, menuItems: 0, comments: 0, attachments: 0, existing: 0, failed: 0 };
    this.baseUrl = scan.baseUrl.replace(/\/+$/, '');
    if (this.o.dryRun) return this.result;
    this.clock = await siteClock(this.store.db);
    const fallback = await this.store.terms.get(Number((await this.store.options.get('default_category')) ?? 1));
    this.defaultCategory = fallback?.taxonomy === 'category' ? fallback.id : undefined;
    await this.mapAuthors(scan);

    let batch: WxrRecord[] = [];
    let bytes = 0;
    const flush = async () => {
      const records = batch;
      batch = [];
      bytes = 0;
      if (records.length) await this.writeBatch(records);
      await this.refreshStatistics();
    };
    for await (const r of records()) {
      if (r.kind === 'header') continue;
      if (r.kind === 'author') {
        this.tick();
        continue;
      }
      if (r.kind === 'post' && r.post.post_type === 'attachment') {
        await flush();
        await this.importAttachment(r.post, r.line);
        this.tick();
        continue;
      }
      batch.push(r);
      if (r.kind === 'post') bytes += r.post.post_content.length + r.post.post_excerpt.length;
      if (batch.length >= BATCH_ITEMS || bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    await this.finish();
    return this.result;
  }

  /**
   * ANALYZE as the site grows under the import: statistics of a site with a few posts (a new
   * site's) let SQLite pick a table scan, or the type's index, for the slug check of every new
   * post, so each post cost more than the one before it (10,000 posts took 7 minutes). Refreshed
   * each time the posts written double, the statistics cost about twice the last refresh in all.
   */
  private async refreshStatistics(): Promise<void> {
    if (this.pending.written.length < this.analyzeAt) return;
    this.analyzeAt = 2 * this.pending.written.length;
    await this.store.analyze();
  }

  /** get_author_mapping: each of the file's authors becomes a user here (create), the user a CSV names (map), or the importing user. */
  private async mapAuthors(scan: WxrScan): Promise<void> {
    const choice = this.o.authors;
    for (const a of scan.authors) {
      const login = sanitizeUserStrict(a.author_login);
      let userId: number | undefined;
      if (choice.mode === 'map') {
        const target = choice.map.get(a.author_login);
        if (target) userId = (await this.store.users.byLoginOrEmail(target))?.id ?? (await this.createUser({ ...a, author_login: target }));
      } else if (choice.mode === 'each') {
        userId = await this.chosenUser(a, choice.authors.get(a.author_login) ?? {}, scan.version);
      } else if (choice.mode === 'create' && scan.version !== '1.0') {
        userId = (await this.existingAccount(a)) ?? (await this.createUser(a));
      }
      userId ??= this.o.importingUser;
      if (a.author_id) this.processed.authors.set(a.author_id, userId);
      this.processed.authorLogins.set(login, userId);
    }
  }

  /**
   * get_author_mapping for one author of WordPress's form: the existing user chosen (when there is
   * one), else a new user with the login given (wp_create_user: the login and a password, nothing
   * else), else, but for a WXR 1.0 file, the author as the file describes them (or their account
   * here already, as `create` finds it).
   */
  private async chosenUser(a: WxrAuthor, chosen: AuthorChoice, version: string): Promise<number | undefined> {
    if (chosen.userId && (await this.store.users.get(chosen.userId))) return chosen.userId;
    if (chosen.newLogin) return (await this.store.users.byLoginOrEmail(chosen.newLogin))?.id ?? (await this.createUser({ author_id: 0, author_login: chosen.newLogin, author_email: '', author_display_name: '', author_first_name: '', author_last_name: '' }));
    if (version === '1.0') return undefined;
    return (await this.existingAccount(a)) ?? (await this.createUser(a));
  }

  /**
   * The account an author already has here, as `wp import --authors=create` finds it: by login, or
   * by email address (the same person under another login, as the two theme test data files name
   * their reviewer), so that a second file's posts go to the account the first one created.
   */
  private async existingAccount(a: WxrAuthor): Promise<number | undefined> {
    const byLogin = await this.store.users.byLoginOrEmail(a.author_login);
    if (byLogin) return byLogin.id;
    return a.author_email ? (await this.store.users.byEmail(a.author_email))?.id : undefined;
  }

  /**
   * wp_insert_user with the file's fields and a random password: the user resets it to log in. An
   * account the store refuses is reported with WordPress's importer's words, and its posts go to
   * the importing user.
   */
  private async createUser(a: WxrAuthor): Promise<number | undefined> {
    try {
      return await this.insertUser(a);
    } catch (e) {
      this.notice('failed', 0, `Failed to create new user for ${a.author_display_name || a.author_login}. Their posts will be attributed to the current user. (${e instanceof Error ? e.message : String(e)})`);
      return undefined;
    }
  }

  private async insertUser(a: WxrAuthor): Promise<number> {
    const role = (await this.store.options.get('default_role')) || 'subscriber';
    const id = await this.store.transaction(async (s) => {
      const userId = await s.users.insert({
        login: a.author_login,
        email: a.author_email,
        display_name: a.author_display_name || a.author_login,
        role,
        password_hash: await hashPassword(generatePassword(24)),
      });
      await new ImportRepo(s.db).addMeta('user_meta', [
        { owner: userId, key: 'first_name', value: a.author_first_name },
        { owner: userId, key: 'last_name', value: a.author_last_name },
        { owner: userId, key: 'nickname', value: a.author_login },
      ]);
      return userId;
    });
    this.result.users++;
    return id;
  }

  /** A batch of terms and items: together (writeTogether), or when that fails item by item (writeItemByItem). */
  private async writeBatch(records: WxrRecord[]): Promise<void> {
    if (!(await this.writeTogether(records))) await this.writeItemByItem(records);
  }

  /** What a batch changes of the import's counts and progress, to put back when it is undone. */
  private countsBefore() {
    const before = { result: { ...this.result, posts: { ...this.result.posts } }, done: this.done };
    return () => {
      Object.assign(this.result, { ...before.result, posts: { ...before.result.posts } });
      this.done = before.done;
    };
  }

  /**
   * A batch in one transaction with its posts held (see stage) and written together at the end,
   * or before anything that reads or numbers posts: false, with the transaction and everything
   * the items noted undone and nothing told, if anything of it fails.
   */
  private async writeTogether(records: WxrRecord[]): Promise<boolean> {
    const restore = this.countsBefore();
    const undo = () => {
      for (const u of this.batchUndo!.splice(0).reverse()) u();
      restore();
      this.heldNotices = [];
    };
    this.batchUndo = [];
    this.heldNotices = [];
    try {
      await this.store.transaction(async (s) => {
        // PostgreSQL undid the transaction (a conflict with another): the store runs it again
        undo();
        this.batchPosts = await this.loadBatchPosts(s, records);
        this.staged = { rows: [], ids: new Set(), details: [] };
        for (const r of records) await this.importRecord(s, r);
        await this.writeStaged(s);
      });
    } catch {
      undo();
      this.heldNotices = null;
      return false;
    } finally {
      this.batchUndo = null;
      this.batchPosts = null;
      this.staged = null;
    }
    const held = this.heldNotices;
    this.heldNotices = null;
    for (const n of held) this.o.notice?.(n);
    for (let i = 0; i < records.length; i++) this.tick();
    return true;
  }

  /**
   * A batch in one transaction, each item in a savepoint: one that fails is reported and leaves
   * nothing behind. PostgreSQL may undo the whole transaction (a deadlock, a lost race: the store
   * runs it again), and then what its items noted is undone first, so the maps only ever name what
   * is stored.
   */
  private async writeItemByItem(records: WxrRecord[]): Promise<void> {
    const restore = this.countsBefore();
    this.batchUndo = [];
    let runs = 0;
    try {
      await this.store.steps(records.length, async (s, i) => {
        if (i === 0 && runs++ > 0) {
          for (const undo of this.batchUndo!.splice(0).reverse()) undo();
          restore();
          this.notice('warning', records[0].line, 'the database undid the batch of items from here on (a conflict with another transaction); it is written again.');
        }
        // read in the transaction, so a batch run again reads again
        if (i === 0) this.batchPosts = await this.loadBatchPosts(s, records);
        return this.writeStep(s, records[i]);
      });
    } finally {
      this.batchUndo = null;
      this.batchPosts = null;
    }
  }

  /** post_exists and the free-id check for every item of a batch in two queries, instead of two per item. */
  private async loadBatchPosts(s: Store, records: WxrRecord[]): Promise<BatchPosts> {
    const posts = records.flatMap((r) => (r.kind === 'post' ? [r.post] : []));
    const repo = new ImportRepo(s.db);
    const onDate = new Map<string, { id: number; title: string }[]>();
    for (const p of await repo.postsOnDates(posts.map((p) => this.typeOf(p)), posts.map((p) => p.post_date))) {
      const key = typeAndDate(p.type, p.date);
      onDate.set(key, [...(onDate.get(key) ?? []), { id: p.id, title: p.title }]);
    }
    return { onDate, takenIds: await repo.takenPostIds(posts.flatMap((p) => (p.post_id > 0 ? [p.post_id] : []))) };
  }

  /** post_exists($title, '', $date, $type) among the batch's posts: the oldest of the type at the date with that title (any, for an empty title). */
  private existingPost(title: string, date: string, type: string): number | undefined {
    const onDate = this.batchPosts!.onDate.get(typeAndDate(type, date));
    return (title ? onDate?.find((p) => p.title === title) : onDate?.[0])?.id;
  }

  /** A post this batch wrote, for the checks of the items after it (undone with the item). */
  private notePostWritten(row: { id: number; type: string; date: string; title: string }): void {
    const { onDate } = this.batchPosts!;
    const key = typeAndDate(row.type, row.date);
    const before = onDate.get(key);
    onDate.set(key, [...(before ?? []), { id: row.id, title: row.title }].sort((a, b) => a.id - b.id));
    this.onUndo(() => (before ? onDate.set(key, before) : onDate.delete(key)));
    this.noteIdTaken(row.id);
  }

  /** An id a post of this batch took: no later item keeps it as its own. */
  private noteIdTaken(id: number): void {
    const { takenIds } = this.batchPosts!;
    if (takenIds.has(id)) return;
    takenIds.add(id);
    this.onUndo(() => takenIds.delete(id));
  }


  private async writeStep(s: Store, r: WxrRecord): Promise<{ value: undefined; keep: boolean }> {
    const counts = { ...this.result, posts: { ...this.result.posts } };
    const mark = this.batchUndo?.length ?? 0;
    this.undo = [];
    try {
      const keep = await this.importRecord(s, r);
      return { value: undefined, keep };
    } catch (e) {
      if (e instanceof WxrError) throw e;
      for (const undo of this.undo.reverse()) undo();
      // undone already: not again should the batch run again
      this.batchUndo?.splice(mark);
      Object.assign(this.result, counts);
      this.notice('failed', r.line, `${describe(r)} could not be imported: ${e instanceof Error ? e.message : String(e)}`);
      return { value: undefined, keep: false };
    } finally {
      this.undo = null;
      this.tick();
    }
  }

  private async importRecord(s: Store, r: WxrRecord): Promise<boolean> {
    switch (r.kind) {
      case 'category':
        return this.importTerm(s, r.line, r.category.term_id, 'category', r.category.category_nicename, r.category.cat_name, r.category.category_description, r.category.category_parent, r.category.termmeta);
      case 'tag':
        return this.importTerm(s, r.line, r.tag.term_id, 'post_tag', r.tag.tag_slug, r.tag.tag_name, r.tag.tag_description, '', r.tag.termmeta);
      case 'term':
        return this.importTerm(s, r.line, r.term.term_id, r.term.term_taxonomy, r.term.slug, r.term.term_name, r.term.term_description, r.term.term_parent, r.term.termmeta);
      case 'post':
        return this.importPost(s, r.post, r.line);
      default:
        return false;
    }
  }

  /** process_category / process_tag / process_term: an existing slug is kept (its meta untouched); a new term gets its parent by slug, its description and its meta. */
  private async importTerm(s: Store, line: number, oldId: number, taxonomy: string, slug: string, name: string, description: string, parentSlug: string, meta: WxrMeta[]): Promise<boolean> {
    const repo = new ImportRepo(s.db);
    const existing = await this.termId(repo, slug, taxonomy);
    if (existing) {
      if (oldId) this.note(this.processed.terms, oldId, existing);
      return false;
    }
    let parent = 0;
    if (parentSlug) {
      parent = (await this.termId(repo, parentSlug, taxonomy)) ?? 0;
      if (!parent) this.notice('warning', line, `${taxonomy} “${name}”: its parent “${parentSlug}” is not in the file or the site; imported at the top level.`);
    }
    const id = await s.terms.insert({ taxonomy, name, slug, description, parent });
    this.note(this.termIds, `${taxonomy}\u0000${slug}`, id);
    await repo.addMeta('term_meta', this.metaRows(id, meta, line, `${taxonomy} “${name}”`));
    if (oldId) this.note(this.processed.terms, oldId, id);
    this.result.terms++;
    return true;
  }

  /** Meta as WordPress adds it: serialized values read as data, what cannot be read kept as it is and reported. */
  private metaRows(owner: number, meta: WxrMeta[], line: number, item: string): { owner: number; key: string; value: string }[] {
    return meta
      .filter((m) => m.key)
      .map((m) => {
        const read = maybeUnserialize(m.value);
        if (!read.ok) this.notice('warning', line, `${item}: the value of meta “${m.key}” is PHP serialized data that cannot be read (${read.reason}); kept as it is.`);
        return { owner, key: m.key, value: read.ok ? storedMetaValue(read.value) : m.value };
      });
  }

  private typeOf(post: WxrPost): string {
    return TYPE_NAMES[post.post_type] ?? post.post_type;
  }

  /** process_posts for one item: checks, then the post with its terms, comments and meta. */
  private async importPost(s: Store, post: WxrPost, line: number): Promise<boolean> {
    const type = this.typeOf(post);
    const info = this.site.types.postType(type);
    if (!info) {
      this.notice('failed', line, `Failed to import “${post.post_title}”: Invalid post type ${post.post_type}`);
      return false;
    }
    if (post.post_id && this.processed.posts.has(post.post_id)) return false;
    if (post.status === 'auto-draft') return false;
    if (type === MENU_ITEM_TYPE) return this.importMenuItem(s, post, line);
    const repo = new ImportRepo(s.db);

    const existing = this.existingPost(post.post_title, post.post_date, type);
    if (existing) {
      this.notice('exists', line, `${info.singular} “${post.post_title}” already exists.`);
      if (post.post_id) this.note(this.processed.posts, post.post_id, existing);
      // a run interrupted before its fix-ups left these to do
      if (post.post_parent && this.staged?.ids.has(existing)) await this.writeStaged(s);
      if (post.post_parent && !(await s.posts.get(existing))?.parent) this.note(this.pending.postParents, existing, post.post_parent);
      const thumbnail = post.postmeta.find((m) => m.key === '_thumbnail_id');
      if (thumbnail) this.note(this.pending.featured, existing, Number(thumbnail.value));
      // counting is left to the end of a run: one that was interrupted left these uncounted
      for (const t of post.terms) {
        const termId = await this.termId(repo, t.slug, t.domain === 'tag' ? 'post_tag' : t.domain);
        if (termId) this.touchedTerms.add(termId);
      }
      if (post.comments.length) this.commentedPosts.add(existing);
      return false;
    }

    let parent = 0;
    if (post.post_parent) {
      const known = this.processed.posts.get(post.post_parent);
      if (known) parent = known;
    }
    const id = await this.insertPost(s, post, type, parent, line);
    if (post.post_parent && !parent) this.note(this.pending.postParents, id, post.post_parent);
    await this.postDetails(s, id, post, line, info.singular);
    this.result.posts[type] = (this.result.posts[type] ?? 0) + 1;
    return true;
  }

  /** wp_insert_post with the file's fields: its old id when free, its author mapped, the old site's address in its text made this site's. */
  private async insertPost(s: Store, post: WxrPost, type: string, parent: number, line: number): Promise<number> {
    const author = this.authorOf(post.post_author);
    if (author === undefined && post.post_author) this.notice('warning', line, `${post.post_type} “${post.post_title}”: its author “${post.post_author}” is not one of the file's authors; it goes to the importing user.`);
    const keepId = post.post_id > 0 && !this.batchPosts!.takenIds.has(post.post_id);
    const gmt = (v: string) => (v && !v.startsWith('0000-00-00') ? v : undefined);
    const fields: NewPost = {
      ...(keepId ? { id: post.post_id } : {}),
      type,
      author: author ?? this.o.importingUser,
      date: gmt(post.post_date),
      date_gmt: gmt(post.post_date_gmt),
      modified: gmt(post.post_modified) ?? gmt(post.post_date),
      modified_gmt: gmt(post.post_modified_gmt) ?? gmt(post.post_date_gmt),
      // wp_insert_post's title_save_pre, content_save_pre and excerpt_save_pre as the importing
      // administrator runs them: wp_targeted_link_rel (no kses, with unfiltered_html)
      title: targetedLinkRel(post.post_title),
      content: targetedLinkRel(rewriteBaseUrl(post.post_content, this.baseUrl, this.site.home)),
      excerpt: targetedLinkRel(rewriteBaseUrl(post.post_excerpt, this.baseUrl, this.site.home)),
      status: post.status || 'publish',
      slug: post.post_name,
      comment_status: post.comment_status || 'open',
      ping_status: post.ping_status || 'open',
      guid: post.guid,
      parent,
      menu_order: post.menu_order,
      password: post.post_password,
      sticky: post.is_sticky === 1 ? 1 : 0,
      // the post_format term is the format column here (and kept as a term, as WordPress keeps it)
      format: post.terms.find((t) => t.domain === 'post_format')?.slug.replace(/^post-format-/, '') ?? 'standard',
      // the page template WordPress keeps in _wp_page_template meta is a column here ('default' is none)
      template: templateOf(post),
    };
    const row = keepId && this.staged ? this.stage(fields, post.post_id) : await this.insertNow(s, fields);
    this.notePostWritten(row);
    if (post.post_id) this.note(this.processed.posts, post.post_id, row.id);
    this.noteWritten(row.id);
    return row.id;
  }

  /** A post written at once: the batch's held posts first, as the slug check and the numbering must see them. */
  private async insertNow(s: Store, fields: NewPost): Promise<{ id: number; type: string; date: string; title: string }> {
    await this.writeStaged(s);
    // the site's clock read once for the import: the options it is made of are not the import's to change
    const row = await s.posts.insertRow(fields, undefined, this.clock);
    if (fields.id !== undefined) await new ImportRepo(s.db).movePostIdsPastLargest();
    return row;
  }

  /** A post that keeps its old id, held to be written with the batch's others (writeStaged); its dates filled now as insertRow fills them, as post_exists of the items after it compares them. */
  private stage(fields: NewPost, id: number): { id: number; type: string; date: string; title: string } {
    const now = new Date();
    const dates = fillDates(this.clock, fields.date, fields.date_gmt, now);
    const modified = fillDates(this.clock, fields.modified, fields.modified_gmt, now);
    const staged = this.staged!;
    staged.rows.push({ ...fields, date: dates.local, date_gmt: dates.gmt, modified: modified.local, modified_gmt: modified.gmt });
    staged.ids.add(id);
    return { id, type: fields.type!, date: dates.local, title: fields.title ?? '' };
  }

  /** The held posts of the batch in one statement, then their terms, comments and meta (see writeDetails). */
  private async writeStaged(s: Store): Promise<void> {
    const staged = this.staged;
    if (!staged?.rows.length) return;
    this.staged = { rows: [], ids: new Set(), details: [] };
    await s.posts.insertMany(staged.rows, this.clock);
    await new ImportRepo(s.db).movePostIdsPastLargest();
    await this.writeDetails(s, staged.details);
  }

  /** The post's terms, comments and meta (process_post_terms, process_post_comments, process_post_metas): written with the post when it is held (see stage), else now. */
  private async postDetails(s: Store, id: number, post: WxrPost, line: number, singular: string): Promise<void> {
    const repo = new ImportRepo(s.db);
    const item = `${singular} “${post.post_title}”`;
    const details: PostDetails = { id, terms: [], comments: [], meta: [] };
    for (const t of post.terms) {
      // WXR 1.0 calls tags `tag`
      const taxonomy = t.domain === 'tag' ? 'post_tag' : t.domain;
      // the site editor's taxonomies are post meta here
      if (taxonomy === 'wp_theme') details.meta.push({ owner: id, key: TEMPLATE_META.theme, value: t.slug });
      else if (taxonomy === 'wp_template_part_area') details.meta.push({ owner: id, key: TEMPLATE_META.area, value: t.slug });
      let termId = await this.termId(repo, t.slug, taxonomy);
      if (!termId) {
        termId = await s.terms.insert({ taxonomy, name: t.name, slug: t.slug });
        this.note(this.termIds, `${taxonomy}\u0000${t.slug}`, termId);
        this.result.terms++;
      }
      details.terms.push({ postId: id, termId });
      this.touchedTerms.add(termId);
    }
    // wp_insert_post files a post of type post in the default category, and the item's categories,
    // when it names any, replace it (wp_set_post_terms): an item naming none stays there
    if (post.post_type === 'post' && post.status !== 'auto-draft' && this.defaultCategory !== undefined && !post.terms.some((t) => t.domain === 'category')) {
      details.terms.push({ postId: id, termId: this.defaultCategory });
      this.touchedTerms.add(this.defaultCategory);
    }
    if (post.comments.length) this.commentedPosts.add(id);
    for (const c of [...post.comments].sort((a, b) => a.comment_id - b.comment_id)) {
      details.comments.push({ comment: c, meta: this.metaRows(0, c.commentmeta, line, `${item}'s comment ${c.comment_id}`) });
    }
    this.result.comments += post.comments.length;

    const meta: WxrMeta[] = [];
    for (const m of post.postmeta) {
      if (SKIPPED_META.has(m.key) || !m.key || m.key === PAGE_TEMPLATE) continue;
      if (m.key === '_edit_last') {
        const user = this.processed.authors.get(Number(m.value));
        if (user) meta.push({ key: m.key, value: String(user) });
        continue;
      }
      if (m.key === '_thumbnail_id') this.note(this.pending.featured, id, Number(m.value));
      meta.push(m);
    }
    details.meta.push(...this.metaRows(id, meta, line, item));
    if (this.staged?.ids.has(id)) this.staged.details.push(details);
    else await this.writeDetails(s, [details]);
  }

  /**
   * Posts' terms, comments and meta in a statement for each (or a few, for many posts): each
   * comment numbered first (reserveCommentIds), so a reply names the new id of the comment it
   * answers, among its post's comments before it (oldest first), as wp_insert_comment one at a
   * time would.
   */
  private async writeDetails(s: Store, posts: readonly PostDetails[]): Promise<void> {
    const repo = new ImportRepo(s.db);
    await repo.relate(posts.flatMap((p) => p.terms));
    const ids = await repo.reserveCommentIds(posts.reduce((n, p) => n + p.comments.length, 0));
    const comments: ImportedComment[] = [];
    const commentMeta: { owner: number; key: string; value: string }[] = [];
    for (const p of posts) {
      const inserted = new Map<number, number>();
      for (const { comment, meta } of p.comments) {
        const id = ids[comments.length];
        comments.push({ id, ...(await this.commentRow(p.id, comment, inserted)) });
        inserted.set(comment.comment_id, id);
        for (const m of meta) commentMeta.push({ ...m, owner: id });
      }
    }
    await repo.insertComments(comments);
    await repo.addMeta('comment_meta', commentMeta);
    await repo.addMeta('post_meta', posts.flatMap((p) => p.meta));
  }

  /**
   * A comment's row: its parent among the post's comments already in, its user mapped, its text
   * through wp_filter_comment as process_post_comment passes it (an administrator's: no kses).
   */
  private async commentRow(postId: number, c: WxrComment, inserted: Map<number, number>) {
    const given = (v: string) => (v && !v.startsWith('0000-00-00') ? v : undefined);
    const dates = fillDates(this.clock, given(c.comment_date), given(c.comment_date_gmt), new Date());
    const filtered = await filterComment({ content: c.comment_content, author_name: c.comment_author, author_url: c.comment_author_url }, true, this.site.home);
    return {
      post: postId,
      parent: inserted.get(c.comment_parent) ?? 0,
      author: this.processed.authors.get(c.comment_user_id) ?? 0,
      author_name: filtered.author_name,
      author_email: c.comment_author_email,
      author_url: filtered.author_url,
      author_ip: c.comment_author_IP,
      date: dates.local,
      date_gmt: dates.gmt,
      content: filtered.content,
      approved: c.comment_approved || '1',
      type: c.comment_type || 'comment',
    };
  }


  /**
   * process_menu_item: an item of a menu in the file (skipped without one, or as a draft), its
   * object remapped (or retried at the end when it comes later), saved as wp_update_nav_menu_item
   * saves it. WordPress would add it again on a second run; here the old site's id is kept with it,
   * so it is not.
   */
  private async importMenuItem(s: Store, post: WxrPost, line: number, retry = false): Promise<boolean> {
    if (post.status === 'draft') return false;
    const menuSlug = post.terms.find((t) => t.domain === MENU_TAXONOMY)?.slug;
    if (!menuSlug) {
      this.notice('failed', line, 'Menu item skipped due to missing menu slug');
      return false;
    }
    const repo = new ImportRepo(s.db);
    const menuId = await this.termId(repo, menuSlug, MENU_TAXONOMY);
    if (!menuId) {
      this.notice('failed', line, `Menu item skipped due to invalid menu slug: ${menuSlug}`);
      return false;
    }
    const source = `${this.baseUrl}/?p=${post.post_id}`;
    // an id this run has imported already is the file's second copy of the item, which WordPress imports too
    const existing = !this.menuItemsImported.has(post.post_id) && (await s.posts.meta.ownerWith(IMPORT_SOURCE, source));
    if (existing) {
      this.note(this.processed.menuItems, post.post_id, existing);
      if (!retry) this.notice('exists', line, `Navigation Menu Item ${post.post_id} already exists.`);
      return false;
    }
    const meta = Object.fromEntries(post.postmeta.map((m) => [m.key, m.value]));
    const type = meta._menu_item_type ?? '';
    let objectId = Number(meta._menu_item_object_id) || 0;
    if (type === 'taxonomy' && this.processed.terms.has(objectId)) objectId = this.processed.terms.get(objectId)!;
    else if (type === 'post_type' && this.processed.posts.has(objectId)) objectId = this.processed.posts.get(objectId)!;
    else if (type !== 'custom') {
      if (retry) this.notice('failed', line, `Menu item ${post.post_id} skipped: what it links to (${meta._menu_item_object} ${objectId}) was not imported.`);
      else this.pending.menuItems.push({ post, line });
      return false;
    }
    const oldParent = Number(meta._menu_item_menu_item_parent) || 0;
    let parent = 0;
    if (this.processed.menuItems.has(oldParent)) parent = this.processed.menuItems.get(oldParent)!;
    else if (oldParent) this.note(this.pending.menuItemParents, post.post_id, oldParent);
    const classes = maybeUnserialize(meta._menu_item_classes ?? '');
    const classList = classes.ok ? (Array.isArray(classes.value) ? classes.value.map(String) : String(classes.value).split(' ')) : [];
    // the item is numbered and its slug checked after the batch's posts before it
    await this.writeStaged(s);
    const id = await saveMenuItem(
      s,
      this.site,
      0,
      {
        menuId,
        type,
        object: meta._menu_item_object ?? '',
        objectId,
        parent,
        position: post.menu_order,
        title: post.post_title,
        url: rewriteBaseUrl(meta._menu_item_url ?? '', this.baseUrl, this.site.home),
        description: post.post_content,
        attrTitle: post.post_excerpt,
        target: meta._menu_item_target ?? '',
        classes: classList,
        xfn: (meta._menu_item_xfn ?? '').split(' '),
        status: post.status,
      },
      this.authorOf(post.post_author) ?? this.o.importingUser,
    );
    await new ImportRepo(s.db).addMeta('post_meta', [{ owner: id, key: IMPORT_SOURCE, value: source }]);
    // its id is no longer free for a later item of the batch
    if (this.batchPosts) this.noteIdTaken(id);
    this.note(this.processed.menuItems, post.post_id, id);
    this.menuItemsImported.add(post.post_id);
    this.onUndo(() => this.menuItemsImported.delete(post.post_id));
    this.result.menuItems++;
    return true;
  }

  /**
   * process_attachment: the file from the uploads folder given, else fetched from the old site
   * through the guarded client; then the attachment post with the file's fields, in one
   * transaction with its meta, terms and comments. A file that cannot be had is reported and the
   * import goes on without the attachment, as WordPress's does.
   */
  private async importAttachment(post: WxrPost, line: number): Promise<void> {
    const info = this.site.types.postType('attachment')!;
    if (post.post_id && this.processed.posts.has(post.post_id)) return;
    const existing = await new ImportRepo(this.store.db).postExists(post.post_title, post.post_date, 'attachment');
    if (existing) {
      this.notice('exists', line, `${info.singular} “${post.post_title}” already exists.`);
      if (post.post_id) this.note(this.processed.posts, post.post_id, existing);
      return;
    }
    let url = post.attachment_url || post.guid;
    // a path without an address is on the old site
    if (/^\/[\s\S]+$/.test(url)) url = this.baseUrl + url;
    const failed = (why: string) => this.notice('failed', line, `Failed to import Media “${post.post_title}”: ${why}`);
    let temp: string | undefined;
    try {
      temp = await attachmentFile(url, this.media, { uploadsDir: this.o.uploadsDir, fetch: this.o.fetchAttachments !== false, allowHosts: this.o.allowHosts });
    } catch (e) {
      failed(e instanceof Error ? e.message : String(e));
      return;
    }
    if (!temp) {
      failed('fetching attachments is not enabled, and no --uploads folder has the file');
      return;
    }
    const counts = { ...this.result, posts: { ...this.result.posts } };
    this.undo = [];
    try {
      await this.store.transaction(async (s) => {
        const author = this.authorOf(post.post_author) ?? this.o.importingUser;
        // the old id when it is free (import_id), the file in the old site's year/month folder (upload_date), as WordPress's importer
        const repo = new ImportRepo(s.db);
        const keepId = post.post_id > 0 && !(await repo.postIdTaken(post.post_id));
        const id = await this.media.add(s, this.site.home, {
          path: temp!,
          filename: basename(new URL(url).pathname),
          author,
          title: post.post_title,
          caption: post.post_excerpt,
          description: post.post_content,
          ...(keepId ? { id: post.post_id } : {}),
          // the folder the old site kept it in (its _wp_attached_file), else its date's
          uploadedAt: /^\d{4}\/\d{2}/.exec(post.postmeta.find((m) => m.key === '_wp_attached_file')?.value ?? '')?.[0] ?? post.post_date,
        });
        if (keepId) await repo.movePostIdsPastLargest();
        const parent = this.processed.posts.get(post.post_parent) ?? 0;
        if (post.post_parent && !parent) this.note(this.pending.postParents, id, post.post_parent);
        const gmt = (v: string) => (v && !v.startsWith('0000-00-00') ? v : undefined);
        await s.posts.update(id, {
          date: gmt(post.post_date),
          date_gmt: gmt(post.post_date_gmt),
          slug: post.post_name || undefined,
          parent,
          menu_order: post.menu_order,
          comment_status: post.comment_status || 'open',
          ping_status: post.ping_status || 'closed',
          modified: gmt(post.post_modified) ?? gmt(post.post_date),
          modified_gmt: gmt(post.post_modified_gmt) ?? gmt(post.post_date_gmt),
        });
        if (post.post_id) this.note(this.processed.posts, post.post_id, id);
        this.noteWritten(id);
        const stored = await s.posts.get(id);
        this.rememberUrl(url, stored!.guid);
        await this.postDetails(s, id, post, line, info.singular);
      });
      this.result.attachments++;
    } catch (e) {
      for (const undo of this.undo.reverse()) undo();
      Object.assign(this.result, counts);
      failed(e instanceof Error ? e.message : String(e));
    } finally {
      this.undo = null;
      await rm(temp, { force: true });
    }
  }

  /** url_remap: an image's old URL stem (its resized copies' URLs start with it) to the new one; another file's whole URL. */
  private rememberUrl(oldUrl: string, newUrl: string): void {
    const ext = extname(new URL(oldUrl).pathname);
    const newExt = extname(new URL(newUrl).pathname);
    const [from, to] = ext && newExt ? [oldUrl.slice(0, -ext.length), newUrl.slice(0, -newExt.length)] : [oldUrl, newUrl];
    this.pending.urls.set(from, to);
    // the posts' text had the old site's address made this site's as it was stored
    this.pending.urls.set(rewriteBaseUrl(from, this.baseUrl, this.site.home), to);
  }

  /** backfill_parents, the menu items retried, backfill_attachment_urls, remap_featured_images, and the old ids in the posts' text. */
  private async finish(): Promise<void> {
    await this.store.transaction(async (s) => {
      const repo = new ImportRepo(s.db);
      for (const [child, oldParent] of this.pending.postParents) {
        const parent = this.processed.posts.get(oldParent);
        if (parent) await repo.setParent(child, parent);
      }
      for (const { post, line } of this.pending.menuItems) await this.importMenuItem(s, post, line, true);
      for (const [oldChild, oldParent] of this.pending.menuItemParents) {
        const child = this.processed.menuItems.get(oldChild);
        const parent = this.processed.menuItems.get(oldParent);
        if (child && parent) await s.posts.meta.set(child, '_menu_item_menu_item_parent', String(parent));
      }
      for (const [postId, oldThumbnail] of this.pending.featured) {
        const id = this.processed.posts.get(oldThumbnail);
        if (id && id !== oldThumbnail) await s.posts.meta.set(postId, '_thumbnail_id', String(id));
      }
      await this.fixTexts(repo);
      await repo.recount(this.touchedTerms, [...this.commentedPosts]);
    });
  }

  /** The old ids (of posts that got new ones) and attachment URLs in the text of the posts this run wrote. */
  private async fixTexts(repo: ImportRepo): Promise<void> {
    const moved: IdMap = new Map([...this.processed.posts].filter(([oldId, id]) => oldId !== id));
    const urls = [...this.pending.urls].sort(([a], [b]) => b.length - a.length);
    if (!moved.size && !urls.length) return;
    const written = this.pending.written;
    for (let i = 0; i < written.length; i += 500) {
      const page = written.slice(i, i + 500);
      for (const p of await repo.textsOf(page)) {
        let content = remapIds(p.content, moved);
        let excerpt = p.excerpt;
        for (const [from, to] of urls) {
          content = content.replaceAll(from, to);
          excerpt = excerpt.replaceAll(from, to);
        }
        if (content !== p.content || excerpt !== p.excerpt) await repo.setContent(p.id, content, excerpt);
      }
      for (const [from, to] of urls) await repo.replaceInEnclosures(page, from, to);
    }
  }
}

function describe(r: WxrRecord): string {
  switch (r.kind) {
    case 'post':
      return `${r.post.post_type} “${r.post.post_title}” (id ${r.post.post_id})`;
    case 'category':
      return `category “${r.category.cat_name}”`;
    case 'tag':
      return `tag “${r.tag.tag_name}”`;
    case 'term':
      return `${r.term.term_taxonomy} “${r.term.term_name}”`;
    default:
      return r.kind;
  }
}
