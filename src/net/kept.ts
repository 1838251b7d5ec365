import type { HandlerContext } from '../engine/types.ts';
import type { ExpiringCache } from '../store/expiring-cache.ts';
import { serviceDown } from './errors.ts';

/**
 * The header of an answer served from an expired entry because the service could not give a new
 * one: HTTP's warning 110 (RFC 7234, 5.5.1), which HTTP caches send with a stale response.
 */
export const STALE_WARNING = { name: 'Warning', value: '110 - "Response is Stale"' } as const;

export interface KeptAnswerOptions {
  /** Seconds a new answer is kept fresh; 0 keeps none. */
  seconds: number;
  /** Ask the service even when a fresh answer is kept (the editors' "refresh"). */
  reload?: boolean;
  /** The cache table's other columns for a new entry (what kind of answer it is). */
  columns?: Record<string, string | number>;
}

/**
 * A service's answer as `cache` keeps it under `key`: the fresh entry, else `ask()`'s answer (kept
 * for `seconds`). When the service is down (unreachable, silent or failing: serviceDown) and an
 * answer of it is still kept, expired or not, that answer is served instead of the error, and the
 * response says so with STALE_WARNING. Any other failure is thrown as it is.
 */
export async function keptAnswer<T>(ctx: Pick<HandlerContext, 'header'>, cache: ExpiringCache, key: string, o: KeptAnswerOptions, ask: () => Promise<T>): Promise<T> {
  if (!o.reload) {
    const fresh = await cache.get<T>(key);
    if (fresh !== undefined) return fresh;
  }
  let answer: T;
  try {
    answer = await ask();
  } catch (e) {
    const kept = serviceDown(e) ? await cache.kept<T>(key) : undefined;
    if (kept === undefined) throw e;
    ctx.header(STALE_WARNING.name, STALE_WARNING.value);
    return kept;
  }
  if (o.seconds > 0) await cache.set(key, answer, o.seconds, o.columns);
  return answer;
}
