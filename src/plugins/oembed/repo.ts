import type { Kysely } from 'kysely';

/** The plugin's tables. */
export interface OEmbedCacheTables {
  oembed_cache: {
    /** A hash of the normalised request args. */
    key: string;
    /** The provider's answer, JSON. */
    data: string;
    expires_at: number;
  };
}

/** Proxied oEmbed answers with an expiry (the transient of WP_REST_oEmbed_Controller::get_proxy_item). */
export class OEmbedCacheRepo {
  constructor(private readonly db: Kysely<OEmbedCacheTables>) {}

  /** The cached answer, or undefined when there is none or it has expired. */
  async get(key: string, now = Date.now()): Promise<unknown> {
    const row = await this.db.selectFrom('oembed_cache').select('data').where('key', '=', key).where('expires_at', '>', now).executeTakeFirst();
    return row ? JSON.parse(row.data) : undefined;
  }

  async set(key: string, data: unknown, ttlSeconds: number, now = Date.now()): Promise<void> {
    const values = { data: JSON.stringify(data), expires_at: now + ttlSeconds * 1000 };
    await this.db
      .insertInto('oembed_cache')
      .values({ key, ...values })
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
    // expired rows are never read again; dropping them on write keeps the table from growing forever
    await this.db.deleteFrom('oembed_cache').where('expires_at', '<=', now).execute();
  }

  /** Drops every cached answer (`cms-spec cache flush`); returns how many there were. */
  async clear(): Promise<number> {
    const { numDeletedRows } = await this.db.deleteFrom('oembed_cache').executeTakeFirst();
    return Number(numDeletedRows);
  }
}
