import { createHmac, randomBytes } from 'node:crypto';
import { tableTopic } from '../store/table-versions.ts';

/** The versions of the shared state as this instance sees them, caught up with every other writer before each request (the core's SharedState). */
export interface StateVersions {
  version(topic: string): number;
}

/** Credentials recognised at most, per kind; past it the longest kept is dropped (a flood of distinct good credentials only costs their checks again). */
const KEPT = 10_000;

interface Kept<T> {
  readonly value: T;
  /** The versions of the tables the check read, taken before it read them. */
  readonly stamp: readonly number[];
  /** What else the value was made from (the roles' capabilities, which move with the active plugins). */
  readonly basis: unknown;
}

/**
 * Credentials that passed their check, recognised again without it: kept under an HMAC of the
 * credential by a key of this process alone (so memory holds no password, and a digest is of no
 * use anywhere else), while the tables the check read keep the versions they had before it read
 * them. A write to any of them, by this process or another (table versions move in the writing
 * transaction, and each request first catches up with the other writers' versions), drops what
 * was kept: a revoked password, a changed role or password, a deleted user or a logged-out session
 * is checked in full at the next request. Refused credentials are never kept (each refusal counts
 * against the caller's address).
 */
export class KnownCredentials<T> {
  private readonly key = randomBytes(32);
  private readonly topics: readonly string[];
  private readonly kept = new Map<string, Kept<T>>();

  constructor(
    private readonly versions: StateVersions,
    tables: readonly string[],
  ) {
    this.topics = tables.map(tableTopic);
  }

  digest(credential: string): string {
    return createHmac('sha256', this.key).update(credential).digest('base64');
  }

  /** The versions a check about to read its tables starts from: a write after this moment drops what it keeps. */
  stamp(): readonly number[] {
    return this.topics.map((t) => this.versions.version(t));
  }

  /** What the credential of `digest` was found to be, while nothing it was made from has moved. */
  get(digest: string, basis: unknown): T | undefined {
    const found = this.kept.get(digest);
    if (found === undefined) return undefined;
    if (found.basis === basis && found.stamp.every((v, i) => v === this.versions.version(this.topics[i]))) return found.value;
    this.kept.delete(digest);
    return undefined;
  }

  keep(digest: string, value: T, stamp: readonly number[], basis: unknown): void {
    if (this.kept.size >= KEPT && !this.kept.has(digest)) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(digest, { value, stamp, basis });
  }
}
