import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { lockUntilCommit } from './portable.ts';
import { readCacheOf } from './read-cache.ts';
import { atomically } from './transact.ts';

/** Site options as name → string value, as WordPress keeps them. */
export class OptionsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  // most requests read a few options that seldom change: kept by the read cache until a write of the table
  async get(name: string): Promise<string | undefined> {
    const read = async () => (await this.db.selectFrom('options').select('value').where('name', '=', name).executeTakeFirst())?.value;
    const cache = readCacheOf(this.db);
    return cache ? cache.get(`option ${name}`, read) : read();
  }

  async getMany(names: string[]): Promise<Record<string, string>> {
    if (!names.length) return {};
    const read = async () => Object.fromEntries((await this.db.selectFrom('options').select(['name', 'value']).where('name', 'in', names).execute()).map((r) => [r.name, r.value]));
    const cache = readCacheOf(this.db);
    // a copy: the kept object is shared by every request
    return cache ? { ...(await cache.get(`options ${names.join('\0')}`, read)) } : read();
  }

  /** Every option, by name (`cms-spec option list`). */
  async all(): Promise<{ name: string; value: string }[]> {
    return this.db.selectFrom('options').select(['name', 'value']).orderBy('name').execute();
  }

  /**
   * Read-modify-write of one option (a theme mod, a list of ids): `change` gets the stored value
   * and returns the new one, with concurrent writers of the same option taking turns.
   */
  async update(name: string, change: (current: string | undefined) => string): Promise<string> {
    return atomically(this.db, async (db) => {
      await lockUntilCommit(db, `option:${name}`);
      const row = await db.selectFrom('options').select('value').where('name', '=', name).executeTakeFirst();
      const value = change(row?.value);
      await db.insertInto('options').values({ name, value }).onConflict((oc) => oc.column('name').doUpdateSet({ value })).execute();
      return value;
    });
  }

  async set(name: string, value: string): Promise<void> {
    await this.db
      .insertInto('options')
      .values({ name, value })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
      .execute();
  }

  /** Sets each option only where it is not there yet; returns the names it wrote. */
  async addMissing(values: Record<string, string>): Promise<string[]> {
    const names = Object.keys(values);
    if (!names.length) return [];
    // one statement, so instances starting together on a new database agree on who added what
    const rows = await this.db
      .insertInto('options')
      .values(names.map((name) => ({ name, value: values[name] })))
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .execute();
    return rows.map((r) => r.name);
  }

  async delete(name: string): Promise<void> {
    await this.db.deleteFrom('options').where('name', '=', name).execute();
  }
}
