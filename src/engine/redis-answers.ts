import type { SharedAnswers } from './response-cache.ts';

/** Kept in Redis for a day at most, so that entries no version will match again leave without a flush. */
const TTL_SECONDS = 24 * 3600;

/** How long a lookup waits for Redis before it counts as a miss (milliseconds): a slow Redis must not slow every answer. */
const COMMAND_TIMEOUT_MS = 200;

/**
 * The response cache's entries in Redis (`serve --cache redis://…`), shared by the instances of a
 * site. A Redis that is down or slow is a miss (and a write not made): it never fails a request
 * and never queues commands while it is away.
 */
export async function redisAnswers(url: string, log: { error(message: string): void }): Promise<SharedAnswers> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
    lazyConnect: true,
  });
  let reported = false;
  redis.on('error', (e: Error) => {
    // said once per outage, not once per reconnection attempt
    if (!reported) log.error(`the response cache's Redis (${url.replace(/\/\/[^@/]*@/, '//***@')}) does not answer: ${e.message}; answers are made without it meanwhile`);
    reported = true;
  });
  redis.on('ready', () => (reported = false));
  redis.connect().catch(() => {});
  return {
    async get(key) {
      if (redis.status !== 'ready') return null;
      try {
        return await redis.getBuffer(key);
      } catch {
        return null;
      }
    },
    set(key, value) {
      if (redis.status !== 'ready') return;
      redis.set(key, value, 'EX', TTL_SECONDS).catch(() => {});
    },
    async close() {
      redis.disconnect();
    },
  };
}
