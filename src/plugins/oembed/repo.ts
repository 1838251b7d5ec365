import type { Kysely } from 'kysely';
import { ExpiringCache } from '../../store/expiring-cache.ts';

/** Proxied oEmbed answers (the transient of WP_REST_oEmbed_Controller::get_proxy_item), by a hash of the normalised request args. */
export const oembedCache = (db: Kysely<any>) => new ExpiringCache(db, { table: 'oembed_cache', key: 'key', value: 'data', clock: 'epoch-ms' });
