import type { Kysely } from 'kysely';
import { ExpiringCache } from '../../store/expiring-cache.ts';

/** The URL details cache (WP_REST_URL_Details_Controller's transients): a page's details by a hash of its URL. */
export const urlDetailsCache = (db: Kysely<any>) => new ExpiringCache(db, { table: 'block_editor_url_details', key: 'key', value: 'data', clock: 'epoch-ms' });
