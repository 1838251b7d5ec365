import { SpecError } from '../engine/diagnostics.ts';
import { InvalidArgumentError } from 'commander';
import { RestError } from '../engine/errors.ts';
import { DatabaseUnreachableError, describeLocation, isPostgresUrl } from '../store/db.ts';
import { TransferError } from '../store/transfer.ts';

/** A failure the user can fix; its message says how. Printed as one `Error:` line, exit code 1. */
export class CliError extends Error {}

/** What a command was working with, so a low-level error can be told in its terms. */
export interface ErrorContext {
  db?: string;
  spec?: string;
  host?: string;
  port?: string | number;
}

/** better-sqlite3's errors, and what opening or migrating a database throws. */
function isDatabaseError(e: Error): boolean {
  // a constraint the data broke is a bug of the command, whose stack should be seen, not a database that cannot be opened
  const brokenConstraint = String((e as NodeJS.ErrnoException).code).startsWith('SQLITE_CONSTRAINT');
  return (e.name === 'SqliteError' && !brokenConstraint) || e.message.startsWith('database migration') || ((e as NodeJS.ErrnoException).syscall === 'mkdir');
}

/**
 * The one line a person needs for an error they can fix: the port in use or not allowed, a
 * database that cannot be opened, a spec folder that is not there. Null for anything else (a
 * bug, whose stack trace should be seen).
 */
export function describeError(e: unknown, ctx: ErrorContext = {}): string | null {
  if (e instanceof CliError) return e.message;
  if (e instanceof RestError || e instanceof DatabaseUnreachableError || e instanceof TransferError) return e.message;
  if (e instanceof SpecError) {
    const missing = e.message.includes('site.yaml not found');
    if (missing) return `There is no spec in "${ctx.spec}" (no site.yaml there). Pass --spec with the folder that holds site.yaml (the project's own is ./spec).`;
    return `The spec in "${ctx.spec}" has problems; \`cms-spec lint --spec ${ctx.spec}\` lists them:\n${e.message}`;
  }
  if (!(e instanceof Error)) return null;
  const err = e as NodeJS.ErrnoException;
  if (err.syscall === 'listen') {
    const where = `${ctx.host}:${ctx.port}`;
    if (err.code === 'EADDRINUSE') return `Port ${ctx.port} on ${ctx.host} is already in use. Stop the program using it, or pick another port with --port (0 picks a free one).`;
    if (err.code === 'EACCES') return `Not allowed to listen on ${where}. Ports below 1024 need extra rights; pick a port above 1023 with --port.`;
    if (err.code === 'EADDRNOTAVAIL') return `${ctx.host} is not an address of this machine. Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).`;
    if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `The host name "${ctx.host}" does not resolve. Use --host with an address of this machine, such as 127.0.0.1.`;
  }
  if (isDatabaseError(err)) {
    const db = ctx.db ?? '';
    const expected = isPostgresUrl(db) ? 'a PostgreSQL database this machine can reach (postgres://user@host:port/database)' : 'a cms-spec SQLite file (or a new one in a folder you can write to)';
    // the location is shown without its password
    return `Cannot open the database "${describeLocation(db)}": ${err.message}. Check that --db names ${expected}.`;
  }
  return null;
}

/**
 * Wraps a command's action: an error with a known cause becomes `Error: …` on stderr and exit
 * code 1; anything else is thrown on, with its stack.
 */
export function action<A extends unknown[]>(ctxOf: (...args: A) => ErrorContext, fn: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await fn(...args);
    } catch (e) {
      const message = describeError(e, ctxOf(...args));
      if (message === null) throw e;
      console.error(`Error: ${message}`);
      process.exitCode = 1;
    }
  };
}

/** A commander parser for a whole number of at least 1; anything else is a one-line usage error. */
export function positiveInt(flag: string) {
  return (v: string): string => {
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${flag} takes a whole number of at least 1, not "${v}"`);
    return v;
  };
}
