import { RestError } from '../engine/errors.ts';
import type { Store } from '../store/index.ts';
import { tableTopic } from '../store/table-versions.ts';
import type { StateVersions } from './known-credentials.ts';

/**
 * Failed logins per client address: after LIMIT failures within WINDOW_S seconds every further
 * attempt from that address is refused with 429 until the oldest of them is WINDOW_S old. Refused
 * attempts are not counted, so a client that waits gets its turn back. The failures are kept in
 * the database, so instances sharing it hold one count (a client cannot spread its guesses over
 * them); each scope (application passwords, the authorization page) counts on its own.
 */
export const FAILURE_LIMIT = 5;
export const FAILURE_WINDOW_S = 60;

const FAILURES_TOPIC = tableTopic('login_failures');
/** Addresses remembered as under the limit, at most; past it they are all asked again. */
const CLEAR_KEPT = 10_000;

export class FailureThrottle {
  constructor(
    private readonly store: Store,
    private readonly scope: string,
    private readonly limit = FAILURE_LIMIT,
    private readonly windowMs = FAILURE_WINDOW_S * 1000,
    /**
     * The shared-state versions, current at each request: an address found under the limit stays
     * under it while no failure is recorded anywhere (its failures only age), so it is not asked
     * again until the failures table's version moves. Without them, every check asks.
     */
    private readonly versions?: StateVersions,
  ) {}

  /** Per address found under the limit, the failures table's version then. */
  private readonly clear = new Map<string, number>();

  /** Throws (rejects with) 429 `too_many_failed_logins` when the address is over the limit; undefined (no tick lost) when it is known to be under it. */
  check(ip: string): Promise<void> | undefined {
    const version = this.versions?.version(FAILURES_TOPIC);
    if (version !== undefined && this.clear.get(ip) === version) return undefined;
    return this.ask(ip, version);
  }

  private async ask(ip: string, version: number | undefined): Promise<void> {
    const now = Date.now();
    const recent = await this.store.shared.recentFailures(this.scope, ip, now - this.windowMs, this.limit);
    if (recent.length < this.limit) {
      if (version === undefined) return;
      if (this.clear.size >= CLEAR_KEPT) this.clear.clear();
      this.clear.set(ip, version);
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((recent[this.limit - 1] + this.windowMs - now) / 1000));
    const e = new RestError('too_many_failed_logins', 'Too many failed login attempts. Please try again later.', 429, { retry_after: retryAfter });
    e.headers['Retry-After'] = String(retryAfter);
    throw e;
  }

  async fail(ip: string): Promise<void> {
    const now = Date.now();
    await this.store.shared.recordFailure(this.scope, ip, now, now - this.windowMs);
  }
}
