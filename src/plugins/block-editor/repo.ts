import type { Kysely } from 'kysely';
import type { HeadDetails } from './head.ts';

/** The plugin's tables. */
export interface BlockEditorTables {
  block_editor_url_details: {
    /** A hash of the URL. */
    key: string;
    /** The details, JSON. */
    data: string;
    expires_at: number;
  };
}

/** The URL details cache (WP_REST_URL_Details_Controller's transients), with an expiry. */
export class UrlDetailsCache {
  constructor(private readonly db: Kysely<BlockEditorTables>) {}

  /** The cached details, or undefined when there are none or they expired. */
  async get(key: string, now = Date.now()): Promise<HeadDetails | undefined> {
    const row = await this.db.selectFrom('block_editor_url_details').select('data').where('key', '=', key).where('expires_at', '>', now).executeTakeFirst();
    return row ? (JSON.parse(row.data) as HeadDetails) : undefined;
  }

  async set(key: string, details: HeadDetails, ttlSeconds: number, now = Date.now()): Promise<void> {
    const values = { data: JSON.stringify(details), expires_at: now + ttlSeconds * 1000 };
    await this.db
      .insertInto('block_editor_url_details')
      .values({ key, ...values })
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
    // expired rows are never read again; dropping them on write keeps the table from growing forever
    await this.db.deleteFrom('block_editor_url_details').where('expires_at', '<=', now).execute();
  }

  /** Drops every cached entry (`cms-spec cache flush`); returns how many there were. */
  async clear(): Promise<number> {
    const { numDeletedRows } = await this.db.deleteFrom('block_editor_url_details').executeTakeFirst();
    return Number(numDeletedRows);
  }
}
