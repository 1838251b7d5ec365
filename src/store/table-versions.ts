import { RequestScoped } from '../engine/request-scoped.ts';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, OperationNode, QueryCompiler, QueryResult, RootOperationNode, TransactionSettings } from 'kysely';
import { kysely } from './kysely.ts';

/** What a statement that only reads starts with, when it is written as raw SQL. */
const READING_SQL = /^\s*(select|with|pragma\s+data_version|explain)\b/i;

/** Whether a statement may change what a read answers: anything but a SELECT (schema changes included). */
function mayWrite(node: RootOperationNode): boolean {
  if (node.kind === 'SelectQueryNode') return false;
  if (node.kind === 'RawNode') return !READING_SQL.test((node as OperationNode & { sqlFragments: readonly string[] }).sqlFragments[0] ?? '');
  return true;
}

/**
 * Per-table versions, so that an answer kept for anonymous readers (the response cache) is used
 * only while nothing it read has changed. Every statement that may write moves the version of
 * each table it names (and of the tables whose rows a foreign key's cascade may change with it)
 * in `state_versions`, under the topic `table:<name>`, in the same transaction as the write: as a
 * transaction commits (one multi-row upsert, whatever number of statements it ran), or with the
 * statement itself outside one. So whatever writes through this code moves them alike: a request,
 * a batch, the scheduler, the CLI, another instance. Seen at the driver, below kysely, where the
 * statement's text, its connection and its transaction's end are all known.
 */
export const tableTopic = (table: string) => `table:${table}`;
export const isTableTopic = (topic: string) => topic.startsWith('table:');

/** What one computation read: the tables its statements named, and whether it read something that changes with the clock alone. */
interface ReadLog {
  readonly tables: Set<string>;
  unrepeatable: boolean;
  readonly parent: ReadLog | undefined;
}

const reading = new RequestScoped<ReadLog>();

/** What a computation under way has read so far: the tables, and whether any of it was unrepeatable. */
export interface ReadsSoFar {
  readonly tables: ReadonlySet<string>;
  readonly unrepeatable: boolean;
}

/** Runs `read`, noting the tables its statements read (within its async context); it is handed the log, to see what it has read so far. */
export function readingScope<T>(read: (sofar: ReadsSoFar) => Promise<T>): Promise<T> {
  const log: ReadLog = { tables: new Set(), unrepeatable: false, parent: reading.getStore() };
  return reading.run(log, () => read(log));
}

/** Runs `read`, noting the tables its statements read (within its async context) and whether what it made is unrepeatable. */
export async function observeReads<T>(read: () => Promise<T>): Promise<{ value: T; tables: ReadonlySet<string>; unrepeatable: boolean }> {
  let log!: ReadsSoFar;
  const value = await readingScope((sofar) => {
    log = sofar;
    return read();
  });
  return { value, tables: log.tables, unrepeatable: log.unrepeatable };
}

/** Counts `tables` as read by the computations under way (a kept read's, served without running its statements). */
export function noteRead(tables: Iterable<string>): void {
  for (let log = reading.getStore(); log; log = log.parent) for (const t of tables) log.tables.add(t);
}

/**
 * What is being made would differ if made again with nothing written meanwhile (a read of an entry
 * that expires, a random secret): it is not to be kept.
 */
export function noteUnrepeatable(): void {
  for (let log = reading.getStore(); log; log = log.parent) log.unrepeatable = true;
}

/** The tables, views and foreign keys of a database, as each dialect lists them. */
const SCHEMA_SQL = {
  sqlite: {
    tables: `select name from sqlite_master where type in ('table', 'view')`,
    references: `select m.name as child, f."table" as parent from sqlite_master m join pragma_foreign_key_list(m.name) f where m.type = 'table'`,
  },
  postgres: {
    tables: `select table_name as name from information_schema.tables where table_schema = current_schema()`,
    references: `select cl.relname as child, pl.relname as parent from pg_constraint c join pg_class cl on cl.oid = c.conrelid join pg_class pl on pl.oid = c.confrelid where c.contype = 'f' and c.connamespace = (select oid from pg_namespace where nspname = current_schema())`,
  },
} as const;

/** Identifiers in a statement's text, quoted or bare (whichever are tables is decided against the schema). */
const IDENTIFIER = /"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_]*)/g;

/** A statement that changes the schema: the tables and keys are read again after it (and PostgreSQL's named statements parsed again). */
export const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** A driver that can send a transaction's last statements with its commit, in one round trip (postgres-driver.ts). */
export interface CommitsAfter {
  commitAfter<R>(connection: DatabaseConnection, statements: readonly string[]): Promise<QueryResult<R>>;
}

/** Statement texts whose tables are kept: a site runs a few hundred shapes. */
const KEPT_TEXTS = 2000;

/** Where the versions live; moving them is not a change of its own. */
const VERSIONS_TABLE = 'state_versions';

type Moved = (versions: ReadonlyMap<string, number>) => void;
type VersionRow = { topic: string; version: number };

const bumpStatement = (values: string) => `insert into ${VERSIONS_TABLE} (topic, version) values ${values} on conflict (topic) do update set version = ${VERSIONS_TABLE}.version + 1 returning topic, version`;
const versionsOf = (rows: readonly VersionRow[]) => new Map(rows.map((r) => [r.topic, Number(r.version)]));

/** How a statement says it may wait for its transaction's end (`writeAtCommit`). */
const AT_COMMIT = '/* at commit */ ';
/** The tables a commit changed rows of; undefined when which is not known (a raw statement, a schema change). */
type Written = (tables: ReadonlySet<string> | undefined) => void;

export class TableVersions {
  private tables = new Set<string>();
  /** Per table, the tables a write to it may change through foreign keys (their cascades), itself included. */
  private reach = new Map<string, readonly string[]>();
  private loaded = false;
  private readonly tablesOfText = new Map<string, readonly string[]>();
  private readonly listeners: Moved[] = [];
  private readonly writtenListeners: Written[] = [];
  /** Per connection: the tables its open transaction wrote (none outside a transaction). */
  private readonly open = new WeakMap<DatabaseConnection, Set<string>>();
  /** Whether the driver sends a transaction's last statements with its commit, so that `writeAtCommit` holds writes back. */
  private holdsBack = false;
  /** Per connection on PostgreSQL: the writes its open transaction holds back for its commit (`writeAtCommit`), and the tables they name. */
  private readonly heldBack = new WeakMap<DatabaseConnection, { statements: string[]; tables: Set<string> }>();

  constructor(private readonly dialect: 'sqlite' | 'postgres') {}

  /** Told the new versions after each commit that moved some (so an instance knows its own writes without asking). */
  onMoved(listener: Moved): void {
    this.listeners.push(listener);
  }

  /**
   * Told after each commit, or write outside a transaction, that changed rows, which tables it
   * changed (with those its foreign keys' cascades reach), whether or not a version moved: before
   * the write's request can answer, after what it wrote can be read on every connection.
   */
  onWritten(listener: Written): void {
    this.writtenListeners.push(listener);
  }

  /** The dialect with this bookkeeping in its driver. */
  wrap(dialect: Dialect): Dialect {
    return {
      createAdapter: () => dialect.createAdapter(),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
      createDriver: () => this.wrapDriver(dialect.createDriver()),
    };
  }

  /** The tables a statement's text names. */
  private tablesOf(text: string): readonly string[] {
    let found = this.tablesOfText.get(text);
    if (found === undefined) {
      const names = new Set<string>();
      for (const m of text.matchAll(IDENTIFIER)) {
        const name = m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2];
        if (this.tables.has(name)) names.add(name);
      }
      found = [...names];
      if (this.tablesOfText.size >= KEPT_TEXTS) this.tablesOfText.clear();
      this.tablesOfText.set(text, found);
    }
    return found;
  }

  private async loadSchema(connection: DatabaseConnection): Promise<void> {
    const q = SCHEMA_SQL[this.dialect];
    const tables = (await connection.executeQuery<{ name: string }>(kysely.CompiledQuery.raw(q.tables))).rows.map((r) => r.name);
    const references = (await connection.executeQuery<{ child: string; parent: string }>(kysely.CompiledQuery.raw(q.references))).rows;
    const children = new Map<string, string[]>();
    for (const { child, parent } of references) children.set(parent, [...(children.get(parent) ?? []), child]);
    const reach = new Map<string, readonly string[]>();
    for (const table of tables) {
      const seen = new Set([table]);
      for (const t of seen) for (const c of children.get(t) ?? []) seen.add(c);
      seen.delete(VERSIONS_TABLE);
      reach.set(table, [...seen]);
    }
    this.tables = new Set(tables);
    this.reach = reach;
    this.tablesOfText.clear();
    this.loaded = true;
  }

  /** The tables a write statement may change. */
  private written(text: string): string[] {
    const out = new Set<string>();
    for (const t of this.tablesOf(text)) for (const r of this.reach.get(t) ?? []) out.add(r);
    return [...out];
  }

  /** Moves the versions of `tables` on, on this connection; returns the new versions. */
  private async bump(connection: DatabaseConnection, tables: Iterable<string>): Promise<Map<string, number>> {
    const topics = [...tables].map(tableTopic).sort(); // one order for every writer: no deadlock between two
    const values = topics.map((_, i) => (this.dialect === 'postgres' ? `($${i + 1}, 1)` : '(?, 1)')).join(', ');
    const { rows } = await connection.executeQuery<VersionRow>(kysely.CompiledQuery.raw(bumpStatement(values), topics));
    return versionsOf(rows);
  }

  /**
   * The transaction's writes held back for its end, its versions moved, and its commit, in one
   * round trip (a list of statements, so written with literals: the topics are table names). The
   * rows they lock (the versions every writer moves, a count every create raises) are held while
   * the database commits, and not while this process answers other requests between one
   * statement's answer and the next statement.
   */
  private async commitInOneTrip(driver: CommitsAfter, connection: DatabaseConnection, written: ReadonlySet<string>, heldBack: readonly string[]): Promise<Map<string, number> | undefined> {
    const topics = [...written].map(tableTopic).sort();
    const bumps = topics.length && this.tables.has(VERSIONS_TABLE) ? [bumpStatement(topics.map((t) => `('${t.replace(/'/g, "''")}', 1)`).join(', '))] : [];
    const { rows } = await driver.commitAfter<VersionRow>(connection, [...heldBack, ...bumps]);
    return bumps.length ? versionsOf(rows) : undefined;
  }

  /**
   * PostgreSQL: a write outside a transaction and the move of its tables' versions, if it changed
   * a row, as one statement (so one round trip, where begin, the write, the versions and commit
   * took four): the write in a WITH, the versions moved only if it returned a row.
   */
  private async writeMovingVersions<R>(connection: DatabaseConnection, query: CompiledQuery, tables: readonly string[]): Promise<QueryResult<R>> {
    const topics = tables.map(tableTopic).sort(); // one order for every writer: no deadlock between two
    const text = `with changed as (${query.sql} returning 1), moved as (insert into ${VERSIONS_TABLE} (topic, version) select topic, 1 from unnest($${query.parameters.length + 1}::text[]) as topic where exists (select 1 from changed) order by topic on conflict (topic) do update set version = ${VERSIONS_TABLE}.version + 1 returning topic, version) select topic, version, (select count(*) from changed) as changed from moved`;
    const { rows } = await connection.executeQuery<VersionRow & { changed: number }>(kysely.CompiledQuery.raw(text, [...query.parameters, topics]));
    if (!rows.length) return { numAffectedRows: 0n, rows: [] };
    this.tell(versionsOf(rows));
    this.tellWritten(new Set(tables));
    return { numAffectedRows: BigInt(rows[0].changed), rows: [] };
  }

  private tell(versions: ReadonlyMap<string, number>): void {
    for (const l of this.listeners) l(versions);
  }

  private tellWritten(tables: ReadonlySet<string> | undefined): void {
    for (const l of this.writtenListeners) l(tables);
  }

  private wrapDriver(inner: Driver & Partial<CommitsAfter>): Driver {
    const committingAfter = inner.commitAfter ? (inner as CommitsAfter) : undefined;
    this.holdsBack = committingAfter !== undefined;
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const self = this;
    const wrapConnection = (connection: DatabaseConnection): DatabaseConnection => {
      let outer = wrapped.get(connection);
      if (!outer) {
        outer = {
          executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => self.execute<R>(connection, query),
          streamQuery: <R>(query: CompiledQuery, chunkSize?: number) => {
            noteRead(self.tablesOf(query.sql));
            return connection.streamQuery<R>(query, chunkSize);
          },
        };
        wrapped.set(connection, outer);
        innerOf.set(outer, connection);
      }
      return outer;
    };
    const unwrap = (c: DatabaseConnection) => innerOf.get(c) ?? c;
    return {
      init: () => inner.init(),
      destroy: () => inner.destroy(),
      acquireConnection: async () => wrapConnection(await inner.acquireConnection()),
      releaseConnection: (c) => inner.releaseConnection(unwrap(c)),
      async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
        await inner.beginTransaction(unwrap(c), settings);
        self.open.set(unwrap(c), new Set());
      },
      async commitTransaction(c: DatabaseConnection) {
        const connection = unwrap(c);
        const written = self.open.get(connection) ?? new Set<string>();
        const heldBack = self.heldBack.get(connection)?.statements ?? [];
        let versions: Map<string, number> | undefined;
        if (committingAfter) {
          versions = await self.commitInOneTrip(committingAfter, connection, written, heldBack);
        } else {
          if (written.size && self.tables.has(VERSIONS_TABLE)) versions = await self.bump(connection, written);
          await inner.commitTransaction(connection);
        }
        self.open.delete(connection);
        self.heldBack.delete(connection);
        if (versions) self.tell(versions);
        if (written.size) self.tellWritten(written);
      },
      async rollbackTransaction(c: DatabaseConnection) {
        const connection = unwrap(c);
        self.open.delete(connection);
        self.heldBack.delete(connection);
        await inner.rollbackTransaction(connection);
      },
      // a step rolled back to its savepoint keeps its tables in the set: a version moved for nothing, never one missed;
      // held-back writes never cross a savepoint: those from before one run before it, a step's own before it is undone
      savepoint:
        inner.savepoint &&
        (async (c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) => {
          await self.sendHeldBack(unwrap(c));
          await inner.savepoint!(unwrap(c), name, compile);
        }),
      rollbackToSavepoint:
        inner.rollbackToSavepoint &&
        (async (c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) => {
          await self.sendHeldBack(unwrap(c));
          await inner.rollbackToSavepoint!(unwrap(c), name, compile);
        }),
      releaseSavepoint: inner.releaseSavepoint && ((c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) => inner.releaseSavepoint!(unwrap(c), name, compile)),
    };
  }

  /** Runs the writes the connection's transaction holds back, now. */
  private async sendHeldBack(connection: DatabaseConnection): Promise<void> {
    const held = this.heldBack.get(connection);
    if (!held) return;
    this.heldBack.delete(connection);
    await connection.executeQuery(kysely.CompiledQuery.raw(held.statements.join(';\n')));
  }

  /**
   * One statement: a read notes its tables; a write that changed rows notes them in its
   * transaction, or moves them with it in one of its own. A write that changed none (an update
   * matching no row, a delete of nothing) moves no version: what readers get is as it was.
   */
  private async execute<R>(connection: DatabaseConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.loaded) await this.loadSchema(connection);
    const inTransaction = this.open.get(connection);
    if (inTransaction && this.holdsBack) {
      if (query.sql.startsWith(AT_COMMIT) && !query.parameters.length) {
        const held = this.heldBack.get(connection) ?? { statements: [], tables: new Set<string>() };
        held.statements.push(query.sql);
        for (const t of this.tablesOf(query.sql)) held.tables.add(t);
        for (const t of this.written(query.sql)) inTransaction.add(t);
        this.heldBack.set(connection, held);
        return { rows: [] };
      }
      // what the transaction does next sees its held-back writes when it names what they name
      const held = this.heldBack.get(connection);
      if (held && this.tablesOf(query.sql).some((t) => held.tables.has(t))) await this.sendHeldBack(connection);
    }
    if (!mayWrite(query.query)) {
      noteRead(this.tablesOf(query.sql));
      return connection.executeQuery<R>(query);
    }
    const tables = this.written(query.sql);
    if (SCHEMA_CHANGE.test(query.sql)) {
      if (inTransaction) for (const t of tables) inTransaction.add(t);
      // a table altered or dropped changes what its readers get; one created has none yet
      const result = await connection.executeQuery<R>(query);
      await this.loadSchema(connection);
      if (!inTransaction && tables.length && this.tables.has(VERSIONS_TABLE)) this.tell(await this.bump(connection, tables));
      if (!inTransaction) this.tellWritten(undefined);
      return result;
    }
    if (inTransaction) {
      const result = await connection.executeQuery<R>(query);
      if (changedRows(query.query, result)) for (const t of tables) inTransaction.add(t);
      return result;
    }
    if (!tables.length || !this.tables.has(VERSIONS_TABLE)) {
      const result = await connection.executeQuery<R>(query);
      if (changedRows(query.query, result)) this.tellWritten(tables.length ? new Set(tables) : undefined);
      return result;
    }
    // alone, the write and its versions commit together: neither is ever seen without the other
    if (this.dialect === 'postgres' && withoutAnswer(query.query)) return this.writeMovingVersions<R>(connection, query, tables);
    await connection.executeQuery(kysely.CompiledQuery.raw('begin'));
    let result: QueryResult<R>;
    let versions: Map<string, number> | undefined;
    try {
      result = await connection.executeQuery<R>(query);
      if (changedRows(query.query, result)) versions = await this.bump(connection, tables);
      await connection.executeQuery(kysely.CompiledQuery.raw('commit'));
    } catch (e) {
      await connection.executeQuery(kysely.CompiledQuery.raw('rollback'));
      throw e;
    }
    if (versions) {
      this.tell(versions);
      this.tellWritten(new Set(tables));
    }
    return result;
  }
}

/** An INSERT, UPDATE or DELETE built by kysely that answers no rows and has no WITH of its own: one that fits in a WITH. */
function withoutAnswer(node: RootOperationNode): boolean {
  if (node.kind !== 'InsertQueryNode' && node.kind !== 'UpdateQueryNode' && node.kind !== 'DeleteQueryNode') return false;
  const write = node as OperationNode & { returning?: unknown; with?: unknown };
  return !write.returning && !write.with;
}

/**
 * Whether a write statement changed a row. Only an INSERT, UPDATE or DELETE built by Kysely is
 * counted: its driver gives the rows it changed (`numAffectedRows`), or on SQLite, when it has a
 * RETURNING clause, a row returned for each. Any other statement is taken to have changed
 * something (SQLite's count after a raw statement is the previous DML's).
 */
function changedRows(node: RootOperationNode, result: QueryResult<unknown>): boolean {
  if (node.kind !== 'InsertQueryNode' && node.kind !== 'UpdateQueryNode' && node.kind !== 'DeleteQueryNode') return true;
  return result.numAffectedRows !== undefined ? result.numAffectedRows > 0n : result.rows.length > 0;
}

/**
 * Runs a write as late as its transaction allows, for a row that every writer waits for (a count
 * every create raises): on PostgreSQL, within a transaction, it is sent with the commit, in the
 * same round trip, or before the first later statement of the transaction that names one of its
 * tables; anywhere else it runs now. It may go in a list of statements, so its text has no
 * parameters: literals only.
 */
export async function writeAtCommit(db: Kysely<any>, text: string): Promise<void> {
  await kysely.sql.raw(AT_COMMIT + text).execute(db);
}

const trackers = new WeakMap<object, TableVersions>();

/** Registers the table versions of a database's root Kysely instance. */
export function attachTableVersions(db: Kysely<any>, versions: TableVersions): void {
  trackers.set(db, versions);
}

/** The table versions of a root Kysely instance (undefined for a transaction's). */
export const tableVersionsOf = (db: Kysely<any>): TableVersions | undefined => trackers.get(db);
