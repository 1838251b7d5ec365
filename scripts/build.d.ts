/** True when dist/ was built from src/ as it is now. */
export function distIsFresh(root?: string): boolean;
/** Builds `<root>/dist` from `<root>/src` (root: this project by default). */
export function build(root?: string): Promise<void>;
