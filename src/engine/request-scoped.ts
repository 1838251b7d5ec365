import { AsyncLocalStorage } from 'node:async_hooks';

/** What the one storage carries: each RequestScoped's value at its slot. */
const carrier = new AsyncLocalStorage<readonly unknown[]>();
let slotsTaken = 0;

/**
 * A value that follows a computation through its awaits, as an AsyncLocalStorage's does (`run`,
 * `getStore`), every one of them carried by one AsyncLocalStorage: Node 20 copies each enabled
 * storage's value onto every promise any request makes, so a storage of each kind (the answer's
 * log, its table reads, its caller reads, its fragments' reads) cost every promise four copies.
 */
export class RequestScoped<T> {
  private readonly slot = slotsTaken++;

  run<R>(value: T, compute: () => R): R {
    const values = carrier.getStore()?.slice() ?? [];
    values[this.slot] = value;
    return carrier.run(values, compute);
  }

  getStore(): T | undefined {
    return carrier.getStore()?.[this.slot] as T | undefined;
  }
}
