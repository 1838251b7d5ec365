/** True when dist/ was built from src/ as it is now. */
export function distIsFresh(root?: string): boolean;
/** Builds `<root>/dist` from `<root>/src` (root: this project by default). */
export function build(root?: string): Promise<void>;
/** Builds dist/admin-app (the admin's bundle) when it is missing or older than src/admin/app. */
export function ensureAdminBundle(root?: string): Promise<void>;
