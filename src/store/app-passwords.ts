import type { Kysely, Selectable } from 'kysely';
import type { AppPasswordsTable, DB } from './schema.ts';

export type AppPasswordRow = Selectable<AppPasswordsTable>;

/** A user's application passwords; the hash is whatever src/auth/app-passwords.ts makes of the secret. */
export class AppPasswordsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Oldest first, as WordPress lists them. */
  list(userId: number): Promise<AppPasswordRow[]> {
    return this.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).orderBy('created').orderBy('uuid').execute();
  }

  get(userId: number, uuid: string): Promise<AppPasswordRow | undefined> {
    return this.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
  }

  /** The row whose hash matches, among the user's passwords. */
  byHash(userId: number, passwordHash: string): Promise<AppPasswordRow | undefined> {
    return this.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).where('password_hash', '=', passwordHash).executeTakeFirst();
  }

  async insert(row: AppPasswordRow): Promise<void> {
    await this.db.insertInto('app_passwords').values(row).execute();
  }

  /** True when the row existed. */
  async rename(userId: number, uuid: string, name: string): Promise<boolean> {
    const r = await this.db.updateTable('app_passwords').set({ name }).where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async delete(userId: number, uuid: string): Promise<boolean> {
    const r = await this.db.deleteFrom('app_passwords').where('user_id', '=', userId).where('uuid', '=', uuid).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }

  /** Deletes all of a user's passwords; returns how many there were. */
  async deleteAll(userId: number): Promise<number> {
    const r = await this.db.deleteFrom('app_passwords').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Records the password's first use: false when it was used before (the condition is part of the UPDATE, so only one caller gets true). */
  async recordFirstUse(uuid: string, now: number, ip: string): Promise<boolean> {
    const r = await this.db.updateTable('app_passwords').set({ last_used: now, last_ip: ip }).where('uuid', '=', uuid).where('last_used', 'is', null).executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /**
   * Records a use unless one was recorded within `minInterval` seconds; the condition is part of
   * the UPDATE so concurrent requests write at most once.
   */
  async recordUse(uuid: string, now: number, ip: string, minInterval: number): Promise<void> {
    await this.db
      .updateTable('app_passwords')
      .set({ last_used: now, last_ip: ip })
      .where('uuid', '=', uuid)
      .where((eb) => eb.or([eb('last_used', 'is', null), eb('last_used', '<=', now - minInterval)]))
      .execute();
  }
}
