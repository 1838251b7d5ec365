import { hmac, purposeKey, sameSecret, siteSecret } from '../auth/secret.ts';
import type { Store } from '../store/index.ts';

/**
 * Widgets as WordPress keeps them, in options: `sidebars_widgets` maps each sidebar id to the
 * widget ids shown in it, in order (`wp_inactive_widgets` holds the ones taken out), and
 * `widget_{id_base}` holds a widget type's instances by number (`search-2` is instance 2 of
 * `widget_search`). The values are JSON here where WordPress serialises PHP arrays. Until the
 * first change a site has never written them, and it reads as a fresh install's: the theme's
 * sidebar showing search, recent posts and categories, the widgets the theme always showed.
 */

/** A sidebar the theme registers (register_sidebar's arguments). */
export interface RegisteredSidebar {
  id: string;
  name: string;
  description: string;
  class: string;
  before_widget: string;
  after_widget: string;
  before_title: string;
  after_title: string;
}

export const INACTIVE_SIDEBAR = 'wp_inactive_widgets';

/** The default theme's one widget area, beside the main column. */
export const SIDEBARS: readonly RegisteredSidebar[] = [
  {
    id: 'sidebar-1',
    name: 'Sidebar',
    description: 'Add widgets here to appear in your sidebar.',
    class: '',
    before_widget: '<section id="%1$s" class="widget %2$s">',
    after_widget: '</section>',
    before_title: '<h2 class="widget-title">',
    after_title: '</h2>',
  },
];

/** The sidebar the theme shows beside its main column. */
export const THEME_SIDEBAR = SIDEBARS[0].id;

/** wp_get_sidebar: a registered sidebar, the inactive widgets' pseudo-sidebar, or undefined. */
export function sidebarById(id: string): RegisteredSidebar | { id: string; name: string } | undefined {
  return SIDEBARS.find((s) => s.id === id) ?? (id === INACTIVE_SIDEBAR ? { id, name: 'Inactive widgets' } : undefined);
}

export type Instance = Record<string, unknown>;

/** Instances of one widget type by number. */
export type Instances = Record<number, Instance>;

/** The site's widgets as read from its options, changed in memory and written back whole. */
export interface WidgetState {
  /** Sidebar id → widget ids, in the stored order; every registered sidebar and the inactive one present. */
  sidebars: Record<string, string[]>;
  /** id_base → its instances. */
  instances: Record<string, Instances>;
}

const SIDEBARS_OPTION = 'sidebars_widgets';
const instancesOption = (idBase: string) => `widget_${idBase}`;

/** wp_install_defaults' widgets, as this theme showed them before they were widgets. */
const FRESH_SIDEBARS: Record<string, string[]> = { [INACTIVE_SIDEBAR]: [], [THEME_SIDEBAR]: ['search-2', 'recent-posts-2', 'categories-2'] };
const FRESH_INSTANCES: Record<string, Instances> = {
  search: { 2: { title: 'Search' } },
  'recent-posts': { 2: { title: '', number: 5, show_date: false } },
  categories: { 2: { title: '', count: 0, hierarchical: 0, dropdown: 0 } },
};

/**
 * wp_parse_widget_id: `recent-posts-2` → id_base `recent-posts`, number 2; an id without a number
 * is all id_base. A number is written as PHP prints an int, and stays exact: other digit runs are no number.
 */
export function parseWidgetId(id: string): { idBase: string; number?: number } {
  const m = /^(.+)-(0|[1-9]\d{0,14})$/.exec(id);
  return m ? { idBase: m[1], number: Number(m[2]) } : { idBase: id };
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function instancesFrom(stored: Record<string, unknown>): Instances {
  const out: Instances = {};
  for (const [k, v] of Object.entries(stored)) if (/^(?:0|[1-9]\d{0,14})$/.test(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) out[Number(k)] = v as Instance;
  return out;
}

/**
 * The widgets of the site for the given widget types (retrieve_widgets, simplified): ids whose
 * instance does not exist are dropped, as WordPress drops unregistered widgets, and the widgets
 * of a sidebar the theme does not register are shown as inactive.
 */
export async function loadWidgets(store: Store, idBases: readonly string[]): Promise<WidgetState> {
  const values = await store.options.getMany([SIDEBARS_OPTION, ...idBases.map(instancesOption)]);
  const instances: Record<string, Instances> = {};
  for (const idBase of idBases) {
    const stored = parseJsonObject(values[instancesOption(idBase)]);
    instances[idBase] = stored ? instancesFrom(stored) : structuredClone(FRESH_INSTANCES[idBase] ?? {});
  }
  const storedSidebars = parseJsonObject(values[SIDEBARS_OPTION]) ?? FRESH_SIDEBARS;
  const exists = (id: unknown): id is string => {
    if (typeof id !== 'string') return false;
    const { idBase, number } = parseWidgetId(id);
    return number !== undefined && instances[idBase]?.[number] !== undefined;
  };
  // no prototype: sidebar ids come from clients, and `__proto__` must be just a name
  const sidebars: Record<string, string[]> = Object.create(null);
  sidebars[INACTIVE_SIDEBAR] = [];
  const placed = new Set<string>();
  const orphans: string[] = [];
  for (const [id, widgets] of Object.entries(storedSidebars)) {
    if (!Array.isArray(widgets)) continue; // array_version
    const shown = widgets.filter((w): w is string => exists(w) && !placed.has(w));
    for (const w of shown) placed.add(w);
    if (sidebarById(id)) sidebars[id] = [...(sidebars[id] ?? []), ...shown];
    else orphans.push(...shown);
  }
  for (const s of SIDEBARS) sidebars[s.id] ??= [];
  // lost instances, in no sidebar, are found again among the inactive widgets, as retrieve_widgets finds them
  const lost = Object.entries(instances).flatMap(([idBase, byNumber]) => Object.keys(byNumber).map((n) => `${idBase}-${n}`)).filter((w) => !placed.has(w));
  sidebars[INACTIVE_SIDEBAR] = [...lost, ...sidebars[INACTIVE_SIDEBAR], ...orphans];
  return { sidebars, instances };
}

const freshSidebars = () => JSON.stringify({ ...FRESH_SIDEBARS, array_version: 3 });

/**
 * Changes the widgets in one transaction and writes back what changed: the sidebars, and the
 * instances of each type whose instances differ. Widget writers take turns on the sidebars option,
 * so two changes never interleave their read and write. A site that still reads as a fresh install
 * first gets the fresh install's widgets stored, so nothing it showed is lost. `change` must use
 * the store it is given (the transaction's); a throw undoes everything.
 */
export async function changeWidgets<T>(store: Store, idBases: readonly string[], change: (state: WidgetState, store: Store) => Promise<T> | T): Promise<{ state: WidgetState; result: T }> {
  return store.transaction(async (s) => {
    await s.options.update(SIDEBARS_OPTION, (stored) => stored ?? freshSidebars());
    await s.options.addMissing(Object.fromEntries(Object.entries(FRESH_INSTANCES).map(([idBase, inst]) => [instancesOption(idBase), JSON.stringify({ ...inst, _multiwidget: 1 })])));
    const state = await loadWidgets(s, idBases);
    const before = JSON.stringify(state);
    const stored = (idBase: string) => JSON.stringify({ ...state.instances[idBase], _multiwidget: 1 });
    const instancesBefore = new Map(idBases.map((idBase) => [idBase, stored(idBase)]));
    const result = await change(state, s);
    if (JSON.stringify(state) !== before) {
      await s.options.set(SIDEBARS_OPTION, JSON.stringify({ ...state.sidebars, array_version: 3 }));
      for (const idBase of idBases) if (stored(idBase) !== instancesBefore.get(idBase)) await s.options.set(instancesOption(idBase), stored(idBase));
    }
    return { state, result };
  });
}

/** wp_find_widgets_sidebar: the sidebar showing the widget, or undefined. */
export function findWidgetSidebar(state: WidgetState, widgetId: string): string | undefined {
  return Object.keys(state.sidebars).find((sidebar) => state.sidebars[sidebar].includes(widgetId));
}

/** wp_assign_widget_to_sidebar: takes the widget out of every other sidebar and appends it to this one ('' removes it everywhere). */
export function assignWidget(state: WidgetState, widgetId: string, sidebarId: string): void {
  for (const id of Object.keys(state.sidebars)) if (id !== sidebarId) state.sidebars[id] = state.sidebars[id].filter((w) => w !== widgetId);
  if (!sidebarId) return;
  const widgets = (state.sidebars[sidebarId] ??= []);
  if (!widgets.includes(widgetId)) widgets.push(widgetId);
}

/**
 * The sidebars controller's update: the sidebar shows exactly `widgets`, in that order; they leave
 * any other sidebar, and the widgets it showed that are not listed go to the inactive ones.
 */
export function setSidebarWidgets(state: WidgetState, sidebarId: string, widgets: string[]): void {
  const listed = new Set(widgets);
  const dropped = (state.sidebars[sidebarId] ?? []).filter((w) => !listed.has(w));
  for (const id of Object.keys(state.sidebars)) if (id !== sidebarId) state.sidebars[id] = state.sidebars[id].filter((w) => !listed.has(w));
  if (sidebarId !== INACTIVE_SIDEBAR) state.sidebars[INACTIVE_SIDEBAR].push(...dropped);
  state.sidebars[sidebarId] = [...listed];
}

/** next_widget_id_number: one past the highest number the type has used, never below 2. */
export function nextWidgetNumber(state: WidgetState, idBase: string): number {
  return Math.max(1, ...Object.keys(state.instances[idBase] ?? {}).map(Number)) + 1;
}

/**
 * An instance as the REST API hands it out: `encoded` is base64 of its JSON (WordPress: of its PHP
 * serialisation) and `hash` an HMAC of those bytes under the site secret (WordPress: wp_hash), so
 * an instance a client sends back encoded is known to be one this site made.
 */
export async function encodeInstance(store: Store, instance: Instance): Promise<{ encoded: string; hash: string }> {
  const serialized = JSON.stringify(instance);
  return { encoded: Buffer.from(serialized, 'utf8').toString('base64'), hash: hmac(purposeKey(await siteSecret(store), 'widget'), serialized) };
}

/** The instance an `encoded`/`hash` pair carries, or undefined when the hash does not match or it is not an object. */
export async function decodeInstance(store: Store, encoded: string, hash: string): Promise<Instance | undefined> {
  const serialized = Buffer.from(encoded, 'base64').toString('utf8');
  if (!sameSecret(hash, hmac(purposeKey(await siteSecret(store), 'widget'), serialized))) return undefined;
  try {
    const v: unknown = JSON.parse(serialized);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Instance) : undefined;
  } catch {
    return undefined;
  }
}
