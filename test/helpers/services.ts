import { postgresAnswers, PG_BASE } from './store.ts';

/**
 * The services some tests need besides the store under test (a PostgreSQL, a Redis), and what a
 * test does when one does not answer. Where the run was told the machine has it
 * (`CMS_SPEC_TEST_SERVICES`, a comma-separated list `.ci/run` sets from what answered before
 * the tests began), the test fails: a test skipped for want of a service the machine has would let
 * the suite pass without testing anything. Where the run was not told so, it skips, and says why.
 */

export type Service = 'postgres' | 'redis';

/** The Redis the tests use (CMS_SPEC_TEST_REDIS, else the local default). */
export const REDIS_URL = process.env.CMS_SPEC_TEST_REDIS ?? 'redis://127.0.0.1:6379';

/** The services the run says this machine has. */
const promised = new Set((process.env.CMS_SPEC_TEST_SERVICES ?? '').split(',').map((s) => s.trim()).filter(Boolean));

let redis: Promise<boolean> | undefined;

/** Whether the Redis the tests use answers a PING. */
export function redisAnswers(): Promise<boolean> {
  redis ??= (async () => {
    const { Redis } = await import('ioredis');
    const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      return (await r.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      r.disconnect();
    }
  })();
  return redis;
}

const WHERE: Record<Service, () => string> = {
  postgres: () => `PostgreSQL at ${new URL(PG_BASE).host}`,
  redis: () => `Redis at ${new URL(REDIS_URL).host}`,
};

/**
 * Why a test needing these services must skip: false when they all answer, else the reason (for
 * node:test's `skip`). Throws when one that does not answer is one the run says the machine has.
 */
export async function missingService(...services: Service[]): Promise<string | false> {
  for (const service of services) {
    if (await (service === 'postgres' ? postgresAnswers() : redisAnswers())) continue;
    if (promised.has(service)) throw new Error(`${WHERE[service]()} does not answer, but CMS_SPEC_TEST_SERVICES says this machine has ${service}: the test fails rather than skip`);
    return `${WHERE[service]()} does not answer (and CMS_SPEC_TEST_SERVICES does not list ${service}): skipped`;
  }
  return false;
}
