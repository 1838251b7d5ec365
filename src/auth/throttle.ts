import { RestError } from '../engine/errors.ts';

/**
 * Failed logins per client address, in memory: after LIMIT failures within WINDOW_S seconds every
 * further attempt from that address is refused with 429 until the oldest of them is WINDOW_S old.
 * Refused attempts are not counted, so a client that waits gets its turn back.
 */
export const FAILURE_LIMIT = 5;
export const FAILURE_WINDOW_S = 60;
/** Past this many tracked addresses, expired entries are swept so the map stays bounded. */
const SWEEP_AT = 10_000;

export class FailureThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = FAILURE_LIMIT,
    private readonly windowMs = FAILURE_WINDOW_S * 1000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Throws 429 `too_many_failed_logins` when the address is over the limit. */
  check(ip: string): void {
    const recent = this.recent(ip);
    if (recent.length < this.limit) return;
    const retryAfter = Math.max(1, Math.ceil((recent[recent.length - this.limit] + this.windowMs - this.now()) / 1000));
    const e = new RestError('too_many_failed_logins', 'Too many failed login attempts. Please try again later.', 429, { retry_after: retryAfter });
    e.headers['Retry-After'] = String(retryAfter);
    throw e;
  }

  fail(ip: string): void {
    const recent = this.recent(ip);
    recent.push(this.now());
    this.failures.set(ip, recent);
    if (this.failures.size > SWEEP_AT) for (const key of this.failures.keys()) if (!this.recent(key).length) this.failures.delete(key);
  }

  private recent(ip: string): number[] {
    const since = this.now() - this.windowMs;
    return (this.failures.get(ip) ?? []).filter((t) => t > since);
  }
}
