import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The first 48 bytes of SQLite's wal-index (the `-shm` file every connection to a WAL database
 * maps; sqlite.org/walformat.html): the header SQLite rewrites at every commit, by any connection
 * of any process (its change counter moves, and its frame count or salts with it), before the
 * commit returns. SQLite writes the header's second copy, then a memory barrier, then this first
 * copy, so a header read unchanged means no commit has returned since it was last seen; one read
 * mid-write reads as changed, and SQLite is then asked. One `pread` of a kept descriptor (2.8 µs
 * here, against 5.0 µs for a `stat` of the WAL file's path, which the check was before, and a read
 * transaction of its own for `PRAGMA data_version`: two locks, a `stat` and the statement).
 */
export class WalIndexHeader {
  /** The `-shm` file, opened at the first read (SQLite makes it once the database is in WAL mode); null once closed. */
  private fd: number | undefined | null;
  private readonly now = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  private readonly seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  /** Whether `seen` holds a header read before SQLite was last asked. */
  private hasSeen = false;

  constructor(private readonly shmFile: string) {}

  /**
   * Reads the header; whether it could be. A database's `-shm` file stays while any connection
   * to it is open, and this one's connection is open as long as the descriptor.
   */
  read(): boolean {
    if (this.fd === null) return false;
    try {
      this.fd ??= openSync(this.shmFile, 'r');
      return readSync(this.fd, this.now, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES;
    } catch {
      // not made yet, or unreadable: SQLite is asked instead
      return false;
    }
  }

  /** Whether the header last read is the one last marked seen. */
  unchanged(): boolean {
    return this.hasSeen && this.now.equals(this.seen);
  }

  /** Marks the header last read (by a successful read()) as seen, or forgets the one seen. */
  markSeen(read: boolean): void {
    if (read) this.now.copy(this.seen);
    this.hasSeen = read;
  }

  close(): void {
    if (typeof this.fd === 'number') closeSync(this.fd);
    this.fd = null;
  }
}

/** One copy of WalIndexHdr: version, change counter, page size, frame count, pages, checksums, salts. */
const WAL_INDEX_HEADER_BYTES = 48;
