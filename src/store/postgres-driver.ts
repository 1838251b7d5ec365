import type { CompiledQuery, DatabaseConnection, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import type { Pool, PoolClient, QueryResult as PgResult } from 'pg';
import { kysely } from './kysely.ts';
import { SCHEMA_CHANGE, type CommitsAfter } from './table-versions.ts';

/**
 * The PostgreSQL driver under kysely, in place of kysely's own for two things it does not do:
 *
 * - **Named statements.** A statement with parameters is parsed and planned once per connection
 *   under a name of its text, then only bound and run (kysely's driver has every run parsed and
 *   planned again: a create's two dozen statements spent more of PostgreSQL's time planning than
 *   running). A site runs a few hundred statement texts; past `NAMED_TEXTS` the rest run unnamed.
 *   A named statement's rows keep the shape they had when it was parsed, so PostgreSQL refuses to
 *   run one whose table changed shape since ("cached plan must not change result type"): every
 *   name is forgotten when this process changes the schema, and when that error comes (another
 *   process's migration), after which a statement outside a transaction is run again at once and
 *   a transaction is run again whole (`retryingConflicts`).
 * - **Statement lists.** A statement without parameters goes by the simple protocol, where
 *   PostgreSQL takes several statements separated by semicolons in one round trip; it answers the
 *   rows every one of them returned, in order (table-versions.ts sends a transaction's last
 *   writes and its commit so, so that the rows they lock are held for the commit alone).
 */
const NAMED_TEXTS = 2000;

/** "cached plan must not change result type": a named statement's table changed shape since it was parsed. */
export const PLAN_SHAPE_CHANGED = '0A000';


export class PostgresDriver implements Driver, CommitsAfter {
  /** Per statement text, its name; a generation of names is dropped whole when the schema changes. */
  private names = new Map<string, string>();
  private generation = 0;
  private readonly connections = new WeakMap<PoolClient, PostgresConnection>();

  constructor(private readonly pool: Pool) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.pool.connect();
    let connection = this.connections.get(client);
    if (!connection) {
      connection = new PostgresConnection(client, this);
      this.connections.set(client, connection);
    }
    return connection;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PostgresConnection).client.release();
  }

  /** The name a statement text runs under, or undefined for one to run unnamed. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < NAMED_TEXTS) {
      name = `s${this.generation}_${this.names.size}`;
      this.names.set(text, name);
    }
    return name;
  }

  /** Every statement is parsed again under a new name at its next run. */
  forgetNames(): void {
    this.names = new Map();
    this.generation++;
  }

  /** Sent with the transaction's first statement (PostgresConnection.executeQuery). */
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let text = 'begin';
    if (settings.isolationLevel || settings.accessMode) text = ['start transaction', settings.isolationLevel && `isolation level ${settings.isolationLevel}`, settings.accessMode].filter(Boolean).join(' ');
    const c = connection as PostgresConnection;
    c.unsentBegin = text;
    c.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.commitAfter(connection, []);
  }

  /** Runs `statements` (without parameters) and commits, in one round trip; answers the rows they returned. */
  async commitAfter<R>(connection: DatabaseConnection, statements: readonly string[]): Promise<QueryResult<R>> {
    const c = connection as PostgresConnection;
    c.inTransaction = false;
    // a transaction that ran nothing has nothing to commit unless it ends with statements
    if (c.unsentBegin !== undefined && !statements.length) {
      c.unsentBegin = undefined;
      return { rows: [] };
    }
    return connection.executeQuery<R>(kysely.CompiledQuery.raw([...statements, 'commit'].join(';\n')));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PostgresConnection;
    c.inTransaction = false;
    if (c.unsentBegin !== undefined) c.unsentBegin = undefined;
    else await connection.executeQuery(kysely.CompiledQuery.raw('rollback'));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return savepointCommand(connection, 'savepoint', name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return savepointCommand(connection, 'rollback to', name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return savepointCommand(connection, 'release', name, compile);
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

/** `savepoint name`, `rollback to name` or `release name`, the name written as an identifier. */
async function savepointCommand(connection: DatabaseConnection, command: string, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
  const node = kysely.RawNode.createWithChildren([kysely.RawNode.createWithSql(`${command} `), kysely.IdentifierNode.create(name)]);
  await connection.executeQuery(compile(node, kysely.createQueryId()));
}

class PostgresConnection implements DatabaseConnection {
  /** Between this connection's begin and its commit or rollback (a statement that fails there cannot be run again alone). */
  inTransaction = false;

  constructor(
    readonly client: PoolClient,
    private readonly driver: PostgresDriver,
  ) {}

  /**
   * The begin of the open transaction, not sent yet: it goes with the transaction's first
   * statement, in the same round trip when that one has no parameters (a list of statements), or
   * just before it.
   */
  unsentBegin: string | undefined;

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = query.parameters as unknown[];
    const begin = this.unsentBegin;
    this.unsentBegin = undefined;
    if (!values.length) {
      if (SCHEMA_CHANGE.test(query.sql)) this.driver.forgetNames();
      return resultOf<R>(await this.client.query(begin === undefined ? query.sql : `${begin};\n${query.sql}`));
    }
    if (begin !== undefined) await this.client.query(begin);
    // the name is asked at each run: after forgetNames, a new one
    const run = async () => resultOf<R>(await this.client.query({ name: this.driver.nameOf(query.sql), text: query.sql, values }));
    try {
      return await run();
    } catch (e) {
      if ((e as { code?: string }).code !== PLAN_SHAPE_CHANGED) throw e;
      this.driver.forgetNames();
      if (this.inTransaction) throw e;
      return run();
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the store streams no query on PostgreSQL');
  }
}

/** kysely's result of one statement, or of a statement list (the rows of all, the changed rows of all). */
function resultOf<R>(result: PgResult | PgResult[]): QueryResult<R> {
  const results = Array.isArray(result) ? result : [result];
  let changed: bigint | undefined;
  const rows: R[] = [];
  for (const r of results) {
    if (r.command === 'INSERT' || r.command === 'UPDATE' || r.command === 'DELETE' || r.command === 'MERGE') changed = (changed ?? 0n) + BigInt(r.rowCount ?? 0);
    if (r.rows) rows.push(...(r.rows as R[]));
  }
  return { numAffectedRows: changed, rows };
}
