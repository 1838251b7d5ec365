/**
 * What the side-by-side probe (`scripts/wp-parity.ts`) takes away from two answers before comparing
 * them, and the comparison. Only what must differ between two sites is normalised: the address,
 * the ids each site gave (by order of first appearance, so WordPress's 412 and this server's 7 are
 * both `#3` when each is the third id its site showed), dates, nonces, application passwords and
 * uuids. Everything else a client could notice is compared as it is.
 */

/** One site's ids in order of first appearance, shared by every answer of a run. */
export class IdRegistry {
  private readonly tokens = new Map<number, string>();

  token(id: number): string {
    let t = this.tokens.get(id);
    if (!t) {
      t = `#${this.tokens.size + 1}`;
      this.tokens.set(id, t);
    }
    return t;
  }

  /** An id a request saved under a name: its token is that name, whatever came before. */
  name(id: number, name: string): void {
    this.tokens.set(id, `{${name}}`);
  }

  known(id: number): string | undefined {
    return this.tokens.get(id);
  }
}

/** Keys whose numbers are ids of something the site holds. */
const ID_KEYS = new Set(['id', 'parent', 'post', 'author', 'featured_media', 'menu_order_parent', 'menus', 'menu', 'object_id', 'categories', 'tags', 'wp_pattern_category', 'preview_id', 'page_on_front', 'page_for_posts', 'site_logo', 'site_icon']);
const DATE_KEYS = new Set(['date', 'date_gmt', 'modified', 'modified_gmt', 'created', 'last_used', 'registered_date']);
const ISO_DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\+\d\d:\d\d|Z)?/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const NONCE = /\b((?:preview_nonce|_wpnonce|nonce)=)[0-9a-f]{10}\b/g;
/** An id in a URL: `/posts/12`, `?p=12`, `&preview_id=12`. Date segments (`/2026/11/`) follow digits, not a name. */
const URL_ID = /(\/[a-z][a-z0-9_-]*\/|[?&][a-z_]+=)(\d+)(?=$|[/?&#"'\s<])/g;

export interface Site {
  /** The site's origin, e.g. `http://127.0.0.1:8061`. */
  origin: string;
  ids: IdRegistry;
}

function normaliseString(s: string, site: Site): string {
  return s
    .split(site.origin)
    .join('{origin}')
    .split(site.origin.replace(/\//g, '\\/'))
    .join('{origin}')
    .replace(ISO_DATE, '{date}')
    .replace(UUID, '{uuid}')
    .replace(NONCE, '$1{nonce}')
    .replace(URL_ID, (m, pre: string, id: string) => `${pre}${site.ids.known(Number(id)) ?? id}`);
}

/** Registers every id an answer shows (under an id key), so that URLs naming them normalise too. */
export function registerIds(v: unknown, site: Site, key = ''): void {
  if (Array.isArray(v)) for (const x of v) registerIds(x, site, key);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) registerIds(x, site, k);
  else if (typeof v === 'number' && v > 0 && Number.isInteger(v) && ID_KEYS.has(key)) site.ids.token(v);
}

export function normalise(v: unknown, site: Site, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => normalise(x, site, key));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[normaliseString(k, site)] = normalise(x, site, k);
    return out;
  }
  if (typeof v === 'number' && v > 0 && ID_KEYS.has(key)) return site.ids.known(v) ?? v;
  if (typeof v === 'string') {
    if (DATE_KEYS.has(key) && v !== '') return '{date}';
    if (key === 'password' && /^[A-Za-z0-9]{24}$/.test(v)) return '{application password}';
    return normaliseString(v, site);
  }
  return v;
}

export function normaliseHeader(value: string | null, site: Site): string | null {
  return value === null ? null : normaliseString(value, site);
}

const show = (v: unknown) => {
  const s = v === undefined ? '(absent)' : JSON.stringify(v);
  return s.length > 160 ? `${s.slice(0, 157)}...` : s;
};

/** Each place where the two values differ: `path: wordpress ≠ ours`. Keys missing on one side count. */
export function differences(wp: unknown, ours: unknown, path = ''): string[] {
  if (Array.isArray(wp) && Array.isArray(ours)) {
    const out: string[] = [];
    if (wp.length !== ours.length) out.push(`${path || '.'}: ${wp.length} items ≠ ${ours.length} items`);
    for (let i = 0; i < Math.min(wp.length, ours.length); i++) out.push(...differences(wp[i], ours[i], `${path}[${i}]`));
    return out;
  }
  const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObject(wp) && isObject(ours)) {
    const out: string[] = [];
    for (const k of new Set([...Object.keys(wp), ...Object.keys(ours)])) out.push(...differences(wp[k], ours[k], `${path}.${k}`));
    return out;
  }
  return JSON.stringify(wp) === JSON.stringify(ours) ? [] : [`${path || '.'}: ${show(wp)} ≠ ${show(ours)}`];
}
