import apiFetch from '@wordpress/api-fetch';

/** What the admin page hands its script (src/admin/pages.ts): the API, the session's nonce, where things are. */
export interface AdminSettings {
  /** WordPress's API root of the site (`{home}/wp-json/`): the block editor's packages call `/wp/v2/…`. */
  root: string;
  nonce: string;
  nonceEndpoint: string;
  adminUrl: string;
  siteUrl: string;
  logoutUrl: string;
  siteName: string;
}

export const settings: AdminSettings = JSON.parse(document.getElementById('cms-admin-settings')!.textContent!);

/**
 * api-fetch as WordPress's admin sets it up: every path under the site's API root, the session's
 * REST nonce on every request (refreshed from each answer's X-WP-Nonce, and fetched again from
 * the nonce endpoint when the server says it is stale).
 */
apiFetch.use(apiFetch.createRootURLMiddleware(settings.root));
const nonce = apiFetch.createNonceMiddleware(settings.nonce);
apiFetch.nonceMiddleware = nonce;
apiFetch.use(nonce);
apiFetch.nonceEndpoint = settings.nonceEndpoint;

export const api = apiFetch;

/** The user as `users/me?context=edit` tells it: what the menu and every screen go by (the server checks again). */
export interface Me {
  id: number;
  name: string;
  capabilities: Record<string, boolean>;
}

/** One file uploaded into the media library, as WordPress's admin sends it (multipart, the field `file`); the answer is the new attachment. */
export function uploadMedia<T>(file: File): Promise<T> {
  const body = new FormData();
  body.append('file', file, file.name);
  return apiFetch<T>({ path: '/wp/v2/media', method: 'POST', body });
}

/** An error thrown by api-fetch, as the message WordPress's answer carries. */
export const messageOf = (e: unknown): string => (e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : String(e));

/** A list request with its total (X-WP-Total), as the list screens page through them. */
export async function fetchList<T>(path: string): Promise<{ items: T[]; total: number; pages: number }> {
  const res = (await apiFetch({ path, parse: false })) as Response;
  return { items: (await res.json()) as T[], total: Number(res.headers.get('X-WP-Total') ?? 0), pages: Number(res.headers.get('X-WP-TotalPages') ?? 1) };
}

/** The admin's own address for a screen and its args. */
export function screenUrl(page: string, args: Record<string, string | number> = {}): string {
  const q = new URLSearchParams({ page });
  for (const [k, v] of Object.entries(args)) q.set(k, String(v));
  return `${settings.adminUrl}?${q}`;
}
