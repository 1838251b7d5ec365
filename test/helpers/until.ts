/**
 * Waits for what a test expects to happen on its own (a timer, another process, a background
 * forward): the first value `probe` gives that is neither undefined nor false, asked every 25 ms.
 * The deadline is generous on purpose, since CI runs both stores' suites on two busy cores: it only
 * bounds a test whose awaited event never comes, and says which.
 */
export async function until<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
