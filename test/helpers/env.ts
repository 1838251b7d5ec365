/**
 * Sets environment variables (undefined unsets one) for a server's lifetime, e.g. the outbound
 * allow-list around a test that talks to local servers. Returns the function that restores them.
 */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    }
  };
  apply(values);
  return () => apply(saved);
}
