import type { Store } from '../store/index.ts';
import { tableVersionsOf } from '../store/table-versions.ts';

type Handler = () => Promise<void> | void;

/**
 * State an instance keeps in memory (the site's options and the index built from them, the
 * active plugins and their routes, a plugin's cache) is versioned per topic in the database.
 * The instance that changes it bumps the version; another instance sharing the database catches
 * up in `sync()` before its next request, so a change on one is seen by the next request on any.
 * On SQLite the other writers are other processes on the same file (the CLI, `--workers`, a cron
 * job): `sync()` asks for the versions only when SQLite says another connection committed.
 */
export class SharedState {
  private readonly seen = new Map<string, number>();
  private readonly handlers = new Map<string, Handler[]>();
  /** SQLite's count of other connections' commits when the versions were last read (null on PostgreSQL: always read). */
  private otherWriters: number | null = null;

  /** The versions as last seen, kept while none moves (a response cache entry is checked against them on every hit). */
  private snapshotKept: ReadonlyMap<string, number> | null = null;

  constructor(private readonly store: Store) {
    // this instance's own writes move their tables' versions as they commit: seen at once, without asking
    tableVersionsOf(store.db)?.onMoved((versions) => {
      for (const [topic, next] of versions) if (next === this.version(topic) + 1) this.see(topic, next);
    });
  }

  private see(topic: string, version: number): void {
    this.seen.set(topic, version);
    this.snapshotKept = null;
  }

  /** Every topic's version as this instance sees it now; the same object until one moves. */
  snapshot(): ReadonlyMap<string, number> {
    return (this.snapshotKept ??= new Map(this.seen));
  }

  /** Runs `handler` when another instance changed the topic (the core's: `options`, `plugins`). */
  on(topic: string, handler: Handler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  /** The topic's version as this instance last saw it: a cache built at another version is stale. */
  version(topic: string): number {
    return this.seen.get(topic) ?? 0;
  }

  /**
   * Tells the other instances that this one changed what the topic covers, in the store the
   * change was made in (a handler passes ctx.store, which may be a batch's transaction: the
   * version then moves once, as it commits).
   */
  async changed(topic: string, store: Store = this.store): Promise<void> {
    await store.topicChanged(topic, (next) => {
      // if another instance bumped it meanwhile, sync() catches up with that change too
      if (next === this.version(topic) + 1) this.see(topic, next);
    });
  }

  /** Takes the versions as they are now; called before the state they cover is first read, so no later change is missed. */
  async start(): Promise<void> {
    this.otherWriters = await this.store.shared.otherWriters();
    for (const [topic, version] of Object.entries(await this.store.shared.versions())) this.see(topic, version);
  }

  /**
   * Catches up with what other instances changed: one query (shared by the requests that come
   * while one runs, see catchUpBegunFromNow), and the handlers of the topics that moved.
   * Undefined (nothing to wait for, no tick lost) when SQLite says no other connection committed
   * since the last look without being asked (SharedStateRepo.knownOtherWriters).
   */
  sync(): Promise<void> | undefined {
    const known = this.store.shared.knownOtherWriters();
    if (known !== undefined && known === this.otherWriters) return undefined;
    return this.catchUpBegunFromNow();
  }

  /** The catch-up under way, and the one queued behind it for whoever came while it ran. */
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  /**
   * Settles after a whole catch-up (its read of the versions and the handlers of what moved) that
   * began after this call, shared by every caller it can serve: one query per round trip, not per
   * request. A catch-up already under way may have read the versions before a write another
   * instance acknowledged to this caller's client, so the caller waits for the next one; every
   * caller that comes meanwhile waits for that same next one (one queued at most).
   */
  private catchUpBegunFromNow(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.beginCatchUp();
    // begun once the running one ended (failed or not), or the one someone else began since, which began after this call too
    const next = () => {
      this.queued = undefined;
      return this.running ?? this.beginCatchUp();
    };
    return (this.queued = this.running.then(next, next));
  }

  private beginCatchUp(): Promise<void> {
    const run: Promise<void> = this.catchUp().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    return (this.running = run);
  }

  private async catchUp(): Promise<void> {
    const otherWriters = await this.store.shared.otherWriters();
    if (otherWriters !== null && otherWriters === this.otherWriters) return;
    this.otherWriters = otherWriters;
    const versions = await this.store.shared.versions();
    for (const [topic, version] of Object.entries(versions)) {
      if (this.seen.get(topic) === version) continue;
      this.see(topic, version);
      for (const h of this.handlers.get(topic) ?? []) await h();
    }
  }
}
