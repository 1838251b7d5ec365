import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { sql } from './kysely.ts';
import { atomically } from './transact.ts';
import { compiledOnce } from './compiled-once.ts';

/** The meta tables and the column naming what each row belongs to. */
const OWNER = { post_meta: 'post_id', user_meta: 'user_id', comment_meta: 'comment_id', term_meta: 'term_id' } as const;
type MetaTableName = keyof typeof OWNER;

/** The shape both meta tables share, under one name, so one piece of code serves both. */
interface MetaRows {
  meta: { id: number; owner: number; key: string; value: string };
}

/**
 * Key/value meta of one kind of object (wp_postmeta, wp_usermeta, wp_commentmeta, wp_termmeta): get_metadata,
 * update_metadata and delete_metadata for single-valued keys. The two tables differ only in their
 * name and owner column, which are aliased to `meta` and `owner` here.
 */
export class MetaRepo {
  private readonly db: Kysely<MetaRows>;
  private readonly ownerColumn: string;

  constructor(
    db: Kysely<DB>,
    private readonly table: MetaTableName,
  ) {
    this.db = db as unknown as Kysely<MetaRows>;
    this.ownerColumn = OWNER[table];
  }

  private rows() {
    return this.db.selectFrom(`${this.table} as meta` as 'meta');
  }

  private owner() {
    return this.db.dynamic.ref<'owner'>(`meta.${this.ownerColumn}`);
  }

  /** The single value of a key (the first stored, as get_metadata($id, $key, true)). */
  async get(ownerId: number, key: string): Promise<string | undefined> {
    const row = await this.rows().select('meta.value').where(this.owner(), '=', ownerId).where('meta.key', '=', key).orderBy('meta.id').executeTakeFirst();
    return row?.value;
  }

  async all(ownerId: number): Promise<Record<string, string>> {
    return (await this.ofMany([ownerId])).get(ownerId) ?? {};
  }

  /** Meta of many owners in one query (only `keys` when given). */
  async ofMany(ownerIds: number[], keys?: string[]): Promise<Map<number, Record<string, string>>> {
    const out = new Map<number, Record<string, string>>(ownerIds.map((id) => [id, {}]));
    if (!ownerIds.length || keys?.length === 0) return out;
    const build = () => {
      let q = this.rows().select([sql<number>`${sql.ref(`meta.${this.ownerColumn}`)}`.as('owner'), 'meta.key', 'meta.value']).where(this.owner(), 'in', ownerIds);
      if (keys) q = q.where('meta.key', 'in', keys);
      return q.orderBy('meta.id', 'desc');
    };
    const query = compiledOnce(this.db, `meta of owners\0${this.table}\0${ownerIds.length}\0${keys?.length ?? 'all'}`, keys ? [...ownerIds, ...keys] : ownerIds, build);
    for (const r of (await this.db.executeQuery(query)).rows) {
      const meta = out.get(r.owner);
      if (meta) meta[r.key] = r.value; // descending ids: the first stored value is written last and wins
    }
    return out;
  }

  /** update_metadata for a single-valued key: afterwards the key holds exactly this value. */
  async set(ownerId: number, key: string, value: string): Promise<void> {
    await atomically(this.db, async (db) => {
      const { numUpdatedRows } = await db
        .updateTable(`${this.table} as meta` as 'meta')
        .set({ value })
        .where(db.dynamic.ref<'owner'>(`meta.${this.ownerColumn}`), '=', ownerId)
        .where('meta.key', '=', key)
        .executeTakeFirst();
      if (numUpdatedRows === 0n) await db.insertInto(this.table as 'meta').values({ [this.ownerColumn]: ownerId, key, value } as never).execute();
    });
  }

  /** The first owner (lowest id) whose key holds exactly this value, as a meta_query on `=` finds it. */
  async ownerWith(key: string, value: string): Promise<number | undefined> {
    const row = await this.rows().select(sql<number>`${sql.ref(`meta.${this.ownerColumn}`)}`.as('owner')).where('meta.key', '=', key).where('meta.value', '=', value).orderBy('meta.id').executeTakeFirst();
    return row === undefined ? undefined : Number(row.owner);
  }

  async delete(ownerId: number, key: string): Promise<void> {
    await this.db.deleteFrom(`${this.table} as meta` as 'meta').where(this.owner(), '=', ownerId).where('meta.key', '=', key).execute();
  }
}
