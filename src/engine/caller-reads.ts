import { RequestScoped } from './request-scoped.ts';

/**
 * What a computation asked of its caller (HandlerContext's `can` and `user`), so that what it made
 * can be given to another caller only when it would have been made the same for them: each
 * capability checked has the same answer, and, when it read who the caller is, the same caller.
 */
export interface CallerReads {
  /** Each capability asked, with the answer it got. */
  readonly caps: Map<string, boolean>;
  /** Whether it read the caller itself (their id, their account), not only capabilities. */
  identity: boolean;
  readonly parent: CallerReads | undefined;
}

const asking = new RequestScoped<CallerReads>();

/** Runs `compute`, noting what it asks of its caller (within its async context). */
export async function observeCaller<T>(compute: () => Promise<T>): Promise<{ value: T; reads: CallerReads }> {
  const reads: CallerReads = { caps: new Map(), identity: false, parent: asking.getStore() };
  const value = await asking.run(reads, compute);
  return { value, reads };
}

/** A capability was asked, and answered so (HandlerContext.can). */
export function noteCapability(cap: string, answer: boolean): void {
  for (let r = asking.getStore(); r; r = r.parent) r.caps.set(cap, answer);
}

/** The caller was read (HandlerContext.user). */
export function noteIdentity(): void {
  for (let r = asking.getStore(); r; r = r.parent) r.identity = true;
}
