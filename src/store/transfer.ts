import type { Kysely } from 'kysely';
import { Ajv } from '../engine/ajv.ts';
import { sql } from './kysely.ts';
import { coreMigrationsRun } from './db.ts';
import { isPostgres, tableNames } from './portable.ts';
import { sqlBound } from './sql-bound.ts';

/**
 * A whole site as JSON Lines, to move it between databases (SQLite ↔ PostgreSQL): a header line,
 * then one line per row, `{"table":"posts","row":{"id":1,…}}`, table after table in an order where
 * every table comes after the tables it references. Ids are kept, so every reference still holds.
 */

export const TRANSFER_FORMAT = 'cms-spec-site';
/** The version of the file's layout this build writes and the newest it reads. */
export const TRANSFER_VERSION = 1;

/**
 * Tables that describe a database rather than the site in it: which migrations it ran (the target
 * runs its own) and the versions its instances compare to see each other's changes.
 */
const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock', 'plugin_migrations', 'state_versions']);

/** Rows read per query on export, and written per statement on import (fewer for wide tables: the databases cap bound values). */
const PAGE_ROWS = 1000;
const BOUND_VALUES_MAX = 30_000;
/** A batch is written early once its rows' JSON passes this size, so a table of large posts never piles up in memory. */
const BATCH_BYTES_MAX = 8 * 1024 * 1024;

/** Which migrations a database has run: the core's, and each plugin's. */
export interface MigrationState {
  core: string[];
  plugins: Record<string, string[]>;
}

export interface TableEntry {
  name: string;
  columns: string[];
  rows: number;
}

/** The file's first line. */
export interface TransferHeader {
  format: typeof TRANSFER_FORMAT;
  version: number;
  /** The database it was exported from. */
  dialect: 'sqlite' | 'postgres';
  exportedAt: string;
  migrations: MigrationState;
  /** In the order their rows follow. */
  tables: TableEntry[];
}

/** A file or database that cannot be moved as asked; the message says why and what to do. */
export class TransferError extends Error {}

const names = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const HEADER_SCHEMA = {
  type: 'object',
  required: ['format', 'version', 'dialect', 'exportedAt', 'migrations', 'tables'],
  properties: {
    dialect: { enum: ['sqlite', 'postgres'] },
    exportedAt: { type: 'string' },
    migrations: { type: 'object', required: ['core', 'plugins'], properties: { core: names, plugins: { type: 'object', additionalProperties: names } } },
    tables: {
      type: 'array',
      items: { type: 'object', required: ['name', 'columns', 'rows'], properties: { name: { type: 'string', minLength: 1 }, columns: { ...names, minItems: 1 }, rows: { type: 'integer', minimum: 0 } } },
    },
  },
};
let checkHeader: ReturnType<Ajv['compile']> | undefined;

/** Reads and checks the header line: a cms-spec export, of a layout this build reads, well formed. */
export function parseHeader(line: string | undefined): TransferHeader {
  const notExport = `it is not a cms-spec export (JSON Lines whose first line is a header with "format": "${TRANSFER_FORMAT}")`;
  if (line === undefined || !line.trim()) throw new TransferError(`The file is empty: ${notExport}.`);
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    throw new TransferError(`The file's first line is not JSON: ${notExport}.`);
  }
  const h = header as Partial<TransferHeader> | null;
  if (!h || typeof h !== 'object' || h.format !== TRANSFER_FORMAT) throw new TransferError(`The file's first line is no export header: ${notExport}.`);
  if (!Number.isInteger(h.version) || h.version! < 1) throw new TransferError(`The file's header has no valid "version": it is not a cms-spec export.`);
  if (h.version! > TRANSFER_VERSION) throw new TransferError(`The file was written by a newer cms-spec (export format ${h.version}; this version reads format ${TRANSFER_VERSION} and older). Import it with that version or a newer one.`);
  checkHeader ??= new Ajv({ allErrors: false }).compile(HEADER_SCHEMA);
  if (!checkHeader(h)) {
    const [e] = checkHeader.errors!;
    throw new TransferError(`The file's header is malformed (at ${e.instancePath || 'its top'}: ${e.message}); it is not a complete cms-spec export.`);
  }
  const seen = new Set<string>();
  for (const t of h.tables!) {
    if (seen.has(t.name)) throw new TransferError(`The file's header lists table ${t.name} twice; it is not a complete cms-spec export.`);
    seen.add(t.name);
  }
  return h as TransferHeader;
}

/** What export and import need to know of a table. */
interface TableShape {
  name: string;
  /** Its stored columns in order (generated ones left out: the target computes them). */
  columns: string[];
  /** Its primary key's columns, in key order; empty when it has none. */
  key: string[];
  /** Other tables its foreign keys point at. */
  references: string[];
}

async function shapeOf(db: Kysely<any>, table: string): Promise<TableShape> {
  if (isPostgres(db)) {
    const columns = await sql<{ name: string }>`select column_name as name from information_schema.columns
      where table_schema = current_schema() and table_name = ${table} and is_generated = 'NEVER' order by ordinal_position`.execute(db);
    const key = await sql<{ name: string }>`select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = to_regclass(quote_ident(${table})) and i.indisprimary order by array_position(i.indkey::int2[], a.attnum)`.execute(db);
    const references = await sql<{ name: string }>`select distinct t.relname as name from pg_constraint c join pg_class t on t.oid = c.confrelid
      where c.conrelid = to_regclass(quote_ident(${table})) and c.contype = 'f'`.execute(db);
    return { name: table, columns: columns.rows.map((r) => r.name), key: key.rows.map((r) => r.name), references: references.rows.map((r) => r.name) };
  }
  // hidden: 2 and 3 are generated columns (virtual, stored)
  const columns = await sql<{ name: string; pk: number; hidden: number }>`select name, pk, hidden from pragma_table_xinfo(${table}) order by cid`.execute(db);
  const references = await sql<{ name: string }>`select distinct "table" as name from pragma_foreign_key_list(${table})`.execute(db);
  const stored = columns.rows.filter((c) => c.hidden === 0);
  const key = stored.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
  return { name: table, columns: stored.map((c) => c.name), key: key.map((c) => c.name), references: references.rows.map((r) => r.name) };
}

/** The site's tables (the core's and the plugins'), each after the tables it references. */
async function siteTables(db: Kysely<any>): Promise<TableShape[]> {
  const shapes = new Map<string, TableShape>();
  for (const name of (await tableNames(db)).filter((n) => !BOOKKEEPING.has(n)).sort()) shapes.set(name, await shapeOf(db, name));
  const ordered: TableShape[] = [];
  const visit = (t: TableShape, path: string[]) => {
    if (ordered.includes(t)) return;
    if (path.includes(t.name)) throw new TransferError(`Tables ${[...path, t.name].join(' → ')} reference each other in a cycle; no order of their rows satisfies their foreign keys.`);
    for (const r of t.references) {
      const referenced = shapes.get(r);
      if (referenced && referenced !== t) visit(referenced, [...path, t.name]);
    }
    ordered.push(t);
  };
  for (const t of shapes.values()) visit(t, []);
  return ordered;
}

const countRows = async (db: Kysely<any>, table: string) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** The migrations the database has run (none on a database never opened by cms-spec). */
export async function migrationState(db: Kysely<any>): Promise<MigrationState> {
  const plugins: Record<string, string[]> = {};
  if ((await tableNames(db)).includes('plugin_migrations')) {
    const rows = await db.selectFrom('plugin_migrations').select(['plugin', 'name']).orderBy('plugin').orderBy('name').execute();
    for (const r of rows) (plugins[r.plugin] ??= []).push(r.name);
  }
  return { core: await coreMigrationsRun(db), plugins };
}

/** The site's tables that hold rows: a site to keep, unless the import is asked to replace it. */
export async function filledTables(db: Kysely<any>): Promise<string[]> {
  const filled: string[] = [];
  for (const t of await siteTables(db)) if (await db.selectFrom(t.name).select(sql.lit(1).as('one')).limit(1).executeTakeFirst()) filled.push(t.name);
  return filled;
}

/** A table's rows in key order, a page at a time: keyset paging, or offsets for a table without a primary key. */
async function* pagesOf(db: Kysely<any>, t: TableShape): AsyncGenerator<Record<string, unknown>[]> {
  const order = t.key.length ? t.key : t.columns;
  let after: unknown[] | undefined;
  for (let offset = 0; ; offset += PAGE_ROWS) {
    let q = db.selectFrom(t.name).select(t.columns).limit(PAGE_ROWS);
    for (const c of order) q = q.orderBy(c);
    if (!t.key.length) q = q.offset(sqlBound(offset));
    else if (after) q = q.where(sql<boolean>`(${sql.join(t.key.map((c) => sql.ref(c)))}) > (${sql.join(after)})`);
    const rows = (await q.execute()) as Record<string, unknown>[];
    if (rows.length) yield rows;
    if (rows.length < PAGE_ROWS) return;
    after = t.key.map((c) => rows[rows.length - 1][c]);
  }
}

/** A stored value as the file carries it: a string, a number or null (Dates become their ISO text). */
function portable(table: string, column: string, value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || value instanceof Date) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw new TransferError(`${table}.${column} holds a value of type ${value instanceof Uint8Array ? 'binary' : typeof value}, which an export cannot carry.`);
}

/**
 * Writes the site to `write` as JSON Lines: the header, then every row, a page of rows per call.
 * It reads in one transaction (a snapshot on PostgreSQL), so the counts in the header are the
 * rows that follow even while the site is being written to.
 */
export async function exportSite(db: Kysely<any>, write: (chunk: string) => Promise<void>, progress?: (done: number, total: number) => void): Promise<TransferHeader> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const tables = await siteTables(trx);
      const entries: TableEntry[] = [];
      for (const t of tables) entries.push({ name: t.name, columns: t.columns, rows: await countRows(trx, t.name) });
      const header: TransferHeader = {
        format: TRANSFER_FORMAT,
        version: TRANSFER_VERSION,
        dialect: isPostgres(db) ? 'postgres' : 'sqlite',
        exportedAt: new Date().toISOString(),
        migrations: await migrationState(trx),
        tables: entries,
      };
      await write(`${JSON.stringify(header)}\n`);
      const total = entries.reduce((n, t) => n + t.rows, 0);
      let done = 0;
      for (const t of tables) {
        for await (const rows of pagesOf(trx, t)) {
          let chunk = '';
          for (const row of rows) {
            for (const c of t.columns) row[c] = portable(t.name, c, row[c]);
            chunk += `${JSON.stringify({ table: t.name, row })}\n`;
          }
          await write(chunk);
          done += rows.length;
          progress?.(done, total);
        }
      }
      return header;
    });
}

export interface ImportOptions {
  /** Delete the rows the database's site tables hold first (in the same transaction); without it, a database holding rows is refused. */
  replace?: boolean;
  progress?: (done: number, total: number) => void;
}

/** One line of rows: `{"table": …, "row": {…}}`. */
function parseRow(line: string, lineNo: number): { table: string; row: Record<string, unknown> } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new TransferError(`Line ${lineNo} of the file is not JSON; nothing was imported.`);
  }
  const { table, row } = (parsed ?? {}) as { table?: unknown; row?: unknown };
  if (typeof table !== 'string' || !row || typeof row !== 'object' || Array.isArray(row)) throw new TransferError(`Line ${lineNo} of the file is not a row ({"table": …, "row": {…}}); nothing was imported.`);
  return { table, row: row as Record<string, unknown> };
}

/** A row has exactly the columns its table's header entry lists, each a string, a finite number or null. */
function checkRow(row: Record<string, unknown>, entry: TableEntry, lineNo: number): void {
  const keys = Object.keys(row);
  if (keys.length !== entry.columns.length || !entry.columns.every((c) => Object.hasOwn(row, c))) {
    throw new TransferError(`Line ${lineNo}: a row of ${entry.name} with columns ${keys.join(', ')}, where the header says ${entry.columns.join(', ')}; nothing was imported.`);
  }
  for (const c of keys) {
    const v = row[c];
    if (v !== null && typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) throw new TransferError(`Line ${lineNo}: ${entry.name}.${c} is ${JSON.stringify(v)}, but a value is a string, a number or null; nothing was imported.`);
  }
}

/**
 * Loads the rows that follow a header (`lines`: the file after its first line) into the
 * database, in one transaction: every row or none. The database must have the header's tables
 * and columns (its schema migrated as the file's was) and hold no rows unless `replace`. The
 * counts are checked as the rows come and in the database afterwards; PostgreSQL's id sequences
 * are moved past the ids imported.
 */
export async function importSite(db: Kysely<any>, header: TransferHeader, lines: AsyncIterable<string>, o: ImportOptions = {}): Promise<void> {
  const shapes = await siteTables(db);
  checkFits(header, shapes);
  const total = header.tables.reduce((n, t) => n + t.rows, 0);
  // not retried on a conflict: the lines can be read only once
  await db.transaction().execute(async (trx) => {
    if (o.replace) {
      for (const t of [...shapes].reverse()) await trx.deleteFrom(t.name).execute();
    } else {
      const filled = await filledTables(trx);
      if (filled.length) throw new TransferError(`The database already holds a site (rows in ${filled.join(', ')}); import into a new database, or pass --replace to delete what it holds first.`);
    }
    let current = -1;
    let seen = 0;
    let done = 0;
    let batch: Record<string, unknown>[] = [];
    let batchBytes = 0;
    let batchFrom = 0;
    let lineNo = 1;
    const flush = async () => {
      if (!batch.length) return;
      const table = header.tables[current].name;
      try {
        await trx.insertInto(table).values(batch).execute();
      } catch (e) {
        throw new TransferError(`The rows of ${table} on lines ${batchFrom}–${lineNo} could not be written: ${e instanceof Error ? e.message : String(e)}; nothing was imported.`);
      }
      done += batch.length;
      o.progress?.(done, total);
      batch = [];
      batchBytes = 0;
    };
    /** Leaves the tables before `next`: each must have had all the rows its header entry counts. */
    const finishTablesBefore = (next: number) => {
      for (let i = Math.max(current, 0); i < next; i++) {
        const had = i === current ? seen : 0;
        if (had !== header.tables[i].rows) throw new TransferError(`The file has ${had} rows of ${header.tables[i].name} where its header counts ${header.tables[i].rows}: it is incomplete or was changed; nothing was imported.`);
      }
    };
    for await (const line of lines) {
      lineNo++;
      if (!line.trim()) continue;
      const { table, row } = parseRow(line, lineNo);
      if (table !== header.tables[current]?.name) {
        await flush();
        const next = header.tables.findIndex((t, i) => i > current && t.name === table);
        if (next < 0) {
          const why = header.tables.some((t) => t.name === table) ? `comes after the rows of ${header.tables[current].name}, out of the header's order` : 'is of a table the header does not list';
          throw new TransferError(`Line ${lineNo}: a row of ${table} ${why}; nothing was imported.`);
        }
        finishTablesBefore(next);
        current = next;
        seen = 0;
      }
      checkRow(row, header.tables[current], lineNo);
      if (++seen > header.tables[current].rows) throw new TransferError(`Line ${lineNo}: more rows of ${table} than the ${header.tables[current].rows} its header counts; nothing was imported.`);
      if (!batch.length) batchFrom = lineNo;
      batch.push(row);
      batchBytes += line.length;
      if (batch.length >= batchRows(header.tables[current]) || batchBytes >= BATCH_BYTES_MAX) await flush();
    }
    await flush();
    finishTablesBefore(header.tables.length);
    for (const t of header.tables) {
      const stored = await countRows(trx, t.name);
      if (stored !== t.rows) throw new TransferError(`After the import ${t.name} holds ${stored} rows, where the file has ${t.rows}; nothing was imported.`);
    }
    await resetSequences(trx, shapes);
    // instances serving this database see that everything they keep in memory changed
    if (o.replace && (await tableNames(trx)).includes('state_versions')) await trx.updateTable('state_versions').set({ version: sql`version + 1` }).execute();
  });
}

const batchRows = (t: TableEntry) => Math.max(1, Math.min(PAGE_ROWS, Math.floor(BOUND_VALUES_MAX / t.columns.length)));

/** The database has every table and column the file has, and the file's order puts each table after those it references here. */
function checkFits(header: TransferHeader, shapes: readonly TableShape[]): void {
  const byName = new Map(shapes.map((t) => [t.name, t]));
  const before = new Set<string>();
  for (const entry of header.tables) {
    const shape = byName.get(entry.name);
    if (!shape) throw new TransferError(`The file has table ${entry.name}, which this database does not have (its schema is not the file's); nothing was imported.`);
    const missing = entry.columns.filter((c) => !shape.columns.includes(c));
    if (missing.length) throw new TransferError(`The file's ${entry.name} has columns ${missing.join(', ')}, which this database's ${entry.name} does not have; nothing was imported.`);
    const later = shape.references.find((r) => r !== entry.name && byName.has(r) && !before.has(r) && header.tables.some((t) => t.name === r));
    if (later) throw new TransferError(`The file has the rows of ${entry.name} before those of ${later}, which it references; nothing was imported.`);
    before.add(entry.name);
  }
}

/** Moves every id sequence (serial or identity) of the site's tables past the largest id stored, so new rows get new ids. SQLite's AUTOINCREMENT keeps up by itself. */
async function resetSequences(db: Kysely<any>, tables: readonly TableShape[]): Promise<void> {
  if (!isPostgres(db)) return;
  const site = new Set(tables.map((t) => t.name));
  // the table's name is qualified by its schema: the planner may ask for a sequence before it has
  // filtered on the schema, and an unqualified name of another schema's table (information_schema's
  // own, say) does not resolve and fails the query
  const { rows } = await sql<{ table_name: string; column_name: string; sequence: string }>`select * from (
      select table_name, column_name, pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) as sequence
      from information_schema.columns where table_schema = current_schema()) c where sequence is not null`.execute(db);
  for (const r of rows.filter((r) => site.has(r.table_name))) {
    const column = sql.ref(r.column_name);
    await sql`select setval(${r.sequence}::regclass, coalesce(max(${column}), 1), max(${column}) is not null) from ${sql.table(r.table_name)}`.execute(db);
  }
}
