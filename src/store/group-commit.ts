/**
 * Group commit for a SQLite database in WAL mode with `synchronous = NORMAL`: a commit writes its
 * frames to the WAL without waiting for the disk, and whoever must not acknowledge a write before
 * it is durable awaits `durable()`, which settles after an fdatasync of the WAL file that began
 * after every commit made so far. One sync runs at a time, on libuv's thread pool while the event
 * loop keeps serving; everyone who committed while it ran shares the next one, so a burst of
 * concurrent writes costs a few syncs instead of one per commit (`synchronous = FULL`).
 *
 * Why one WAL sync is enough: under NORMAL, SQLite itself syncs the WAL before every checkpoint,
 * the database file after it, and the WAL header when the WAL is reused after a checkpoint; what
 * it leaves unsynced is only the frames of the latest commits, which is what this syncs. The file
 * is opened by its path for each sync, so a WAL truncated (`journal_size_limit`) or deleted and
 * made anew (the last connection closing) is the file synced; an fsync covers the file's every
 * dirty page, whichever descriptor wrote them.
 */
export class GroupCommit {
  /** Commits made on the connection so far (counted by `committed()`). */
  private commits = 0;
  /** How many of them are durable: those counted before the latest finished sync began. */
  private synced = 0;
  /** The sync under way. */
  private syncing: Promise<void> | null = null;

  /** `syncWal`: makes every write made to the WAL so far durable (`SyncThread.sync` of its path). */
  constructor(private readonly syncWal: () => Promise<void>) {}

  /** Told right after a statement that may have committed (an autocommit write, a COMMIT) returns. */
  committed(): void {
    this.commits++;
  }

  /**
   * Settles once every commit made so far is on disk; undefined when they already are (no wait,
   * no promise, for the reads that make up most requests). Rejects when the disk refused the sync.
   */
  durable(): Promise<void> | undefined {
    if (this.synced >= this.commits) return undefined;
    return this.syncedUpTo(this.commits);
  }

  private async syncedUpTo(target: number): Promise<void> {
    while (this.synced < target) {
      // a sync under way may have begun before the commit awaited: wait for it, then look again
      if (!this.syncing) {
        this.syncing = this.sync().finally(() => {
          this.syncing = null;
        });
      }
      await this.syncing;
    }
  }

  private async sync(): Promise<void> {
    // read before the first await: the commits made up to now are what this sync covers
    const covers = this.commits;
    await this.syncWal();
    if (covers > this.synced) this.synced = covers;
  }
}
