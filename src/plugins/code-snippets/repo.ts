import type { Generated, Kysely, Selectable } from 'kysely';
import { sqlBound } from '../../store/sql-bound.ts';

export interface SnippetsTable {
  id: Generated<number>;
  name: string;
  description: string;
  code: string;
  /** Comma-separated, as the plugin stores them. */
  tags: string;
  scope: string;
  priority: number;
  active: number;
  network: number;
  shared_network: number;
  /** JSON `[message, line]`, or null. */
  code_error: string | null;
  modified: string;
}

/** The plugin's tables. */
export interface SnippetsTables {
  code_snippets: SnippetsTable;
}

/** Why a snippet's code failed validation, as the plugin reports it: the message and the line. */
export type CodeError = [message: string, line: number];

/** A stored snippet under the field names of the REST read shape. */
export interface Snippet {
  id: number;
  name: string;
  desc: string;
  code: string;
  tags: string[];
  scope: string;
  active: boolean;
  priority: number;
  network: boolean;
  shared_network: boolean;
  /** UTC, 'YYYY-MM-DDTHH:MM:SSZ'. */
  modified: string;
  code_error: CodeError | null;
}

export type SnippetFields = Omit<Snippet, 'id'>;

function fromRow(r: Selectable<SnippetsTable>): Snippet {
  return {
    id: r.id,
    name: r.name,
    desc: r.description,
    code: r.code,
    tags: r.tags ? r.tags.split(',').map((t) => t.trim()).filter(Boolean) : [],
    scope: r.scope,
    active: r.active === 1,
    priority: r.priority,
    network: r.network === 1,
    shared_network: r.shared_network === 1,
    modified: r.modified,
    code_error: r.code_error === null ? null : (JSON.parse(r.code_error) as CodeError),
  };
}

function toRow(s: SnippetFields): Omit<SnippetsTable, 'id'> {
  return {
    name: s.name,
    description: s.desc,
    code: s.code,
    tags: s.tags.join(', '),
    scope: s.scope,
    priority: s.priority,
    active: s.active ? 1 : 0,
    network: s.network ? 1 : 0,
    shared_network: s.shared_network ? 1 : 0,
    code_error: s.code_error === null ? null : JSON.stringify(s.code_error),
    modified: s.modified,
  };
}

/** The snippets table: whole-record reads and writes; the rules of what a snippet may hold live beside it (validate.ts, scopes.ts). */
export class SnippetsRepo {
  constructor(private readonly db: Kysely<SnippetsTables>) {}

  /** One page in id order, and how many there are in all. */
  async page(offset: number, limit: number): Promise<{ items: Snippet[]; total: number }> {
    const { total } = await this.db.selectFrom('code_snippets').select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const rows = await this.db.selectFrom('code_snippets').selectAll().orderBy('id').limit(sqlBound(limit)).offset(sqlBound(offset)).execute();
    return { items: rows.map(fromRow), total: Number(total) };
  }

  async get(id: number): Promise<Snippet | undefined> {
    const row = await this.db.selectFrom('code_snippets').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  async create(fields: SnippetFields): Promise<Snippet> {
    const { id } = await this.db.insertInto('code_snippets').values(toRow(fields)).returning('id').executeTakeFirstOrThrow();
    return { id, ...fields };
  }

  /** Replaces every field of an existing snippet; undefined when there is no such snippet. */
  async update(id: number, fields: SnippetFields): Promise<Snippet | undefined> {
    const result = await this.db.updateTable('code_snippets').set(toRow(fields)).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n ? { id, ...fields } : undefined;
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('code_snippets').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Every active snippet in execution order: priority, then id. */
  async active(): Promise<Snippet[]> {
    const rows = await this.db.selectFrom('code_snippets').selectAll().where('active', '=', 1).orderBy('priority').orderBy('id').execute();
    return rows.map(fromRow);
  }
}
