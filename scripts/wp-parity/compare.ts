/**
 * What the side-by-side probe (`scripts/wp-parity.ts`) takes away from two answers before comparing
 * them, and the comparison. Only what must differ between two sites is normalised: the address,
 * the ids each site gave (by order of first appearance, so WordPress's 412 and this server's 7 are
 * both `#3` when each is the third id its site showed), dates, nonces, application passwords and
 * uuids. Everything else a client could notice is compared as it is.
 */

/** What an id names: ids of different kinds may share a number on one site and not on the other. */
export type IdKind = 'post' | 'term' | 'user' | 'comment';

/** One site's ids in order of first appearance, per kind, shared by every answer of a run. */
export class IdRegistry {
  private readonly tokens = new Map<string, string>();
  private count = 0;

  token(kind: IdKind, id: number): string {
    const key = `${kind}:${id}`;
    let t = this.tokens.get(key);
    if (!t) {
      t = `#${++this.count}`;
      this.tokens.set(key, t);
    }
    return t;
  }

  /** An id a request saved under a name: its token is that name. */
  name(kind: IdKind, id: number, name: string): void {
    this.tokens.set(`${kind}:${id}`, `{${name}}`);
  }

  known(kind: IdKind, id: number): string | undefined {
    return this.tokens.get(`${kind}:${id}`);
  }
}

/** Keys whose numbers are ids, and the kind they name (`id` is the kind of the object that holds it). */
const ID_KEYS: Readonly<Record<string, IdKind | 'self'>> = {
  id: 'self', parent: 'self', post: 'post', author: 'user', featured_media: 'post', menu_order_parent: 'post', object_id: 'post', preview_id: 'post',
  page_on_front: 'post', page_for_posts: 'post', site_logo: 'post', site_icon: 'post', menus: 'term', menu: 'term', categories: 'term', tags: 'term', term_id: 'term',
  // a duplicate term's error names the existing term
  additional_data: 'term',
};

/** The kind of object an answer's object is, by the fields only that kind has. */
function kindOf(o: Record<string, unknown>): IdKind {
  // a search result of `type=term` names its taxonomy as its type
  if ('taxonomy' in o || 'auto_add' in o || o.type === 'category' || o.type === 'post_tag' || ('count' in o && 'slug' in o && !('type' in o))) return 'term';
  if ('author_name' in o) return 'comment';
  if ('avatar_urls' in o) return 'user';
  return 'post';
}

/** The kind an id in a URL names, by what precedes it (`before`: the URL up to it, for `comments?parent=`). */
function urlKind(pre: string, before: string): IdKind {
  if (/parent=$/.test(pre) && /\/comments$/.test(before)) return 'comment';
  if (/users|author/.test(pre)) return 'user';
  if (/comments|comment-/.test(pre)) return 'comment';
  if (/categories|tags|menus|cat=|tag_ID|term/.test(pre)) return 'term';
  return 'post';
}

const DATE_KEYS = new Set(['date', 'date_gmt', 'modified', 'modified_gmt', 'created', 'last_used', 'registered_date']);
const ISO_DATE = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\+\d\d:\d\d|Z)?/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** A revision's slug names its post: `12-autosave-v1`. */
const REVISION_SLUG = /^(\d+)(-(?:autosave|revision)-v1)$/;
const NONCE = /\b((?:preview_nonce|_wpnonce|nonce)=)[0-9a-f]{10}\b/g;
/** An id in a URL: `/posts/12`, `?p=12`, `&preview_id=12`, `#comment-12`. Date segments (`/2026/11/`) follow digits, not a name. */
const URL_ID = /(\/[a-z][a-z0-9_-]*\/|[?&][a-z_]+=|#comment-)(\d+)(?=$|[/?&#"'\s<>])/g;

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
    .replace(URL_ID, (m, pre: string, id: string, at: number, all: string) => `${pre}${site.ids.known(urlKind(pre, all.slice(0, at)), Number(id)) ?? id}`);
}

/** The kind of id a number under this key names, in an object of this kind; undefined when the key holds no id. */
function idKind(key: string, holder: IdKind): IdKind | undefined {
  const k = ID_KEYS[key];
  return k === 'self' ? holder : k;
}

/** Registers every id an answer shows (under an id key), so that URLs naming them normalise too. */
export function registerIds(v: unknown, site: Site, key = '', holder: IdKind = 'post'): void {
  if (Array.isArray(v)) for (const x of v) registerIds(x, site, key, holder);
  else if (v && typeof v === 'object') {
    const kind = kindOf(v as Record<string, unknown>);
    for (const [k, x] of Object.entries(v)) registerIds(x, site, k, kind);
  } else if (typeof v === 'number' && v > 0 && Number.isInteger(v)) {
    const kind = idKind(key, holder);
    if (kind) site.ids.token(kind, v);
  }
}

export function normalise(v: unknown, site: Site, key = '', holder: IdKind = 'post'): unknown {
  if (Array.isArray(v)) return v.map((x) => normalise(x, site, key, holder));
  if (v && typeof v === 'object') {
    const kind = kindOf(v as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[normaliseString(k, site)] = normalise(x, site, k, kind);
    return out;
  }
  const kind = typeof v === 'number' && v > 0 ? idKind(key, holder) : undefined;
  if (kind) return site.ids.known(kind, v as number) ?? v;
  if (typeof v === 'string') {
    if (DATE_KEYS.has(key) && v !== '') return '{date}';
    if (key === 'password' && /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/.test(v)) return '{application password}';
    const revision = key === 'slug' ? REVISION_SLUG.exec(v) : null;
    if (revision) return `${site.ids.known('post', Number(revision[1])) ?? revision[1]}${revision[2]}`;
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
