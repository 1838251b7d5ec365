import { invalidParam } from '../../engine/index.ts';
import type { Ctx } from '../../core/context.ts';

interface Setting {
  option: string;
  type: 'string' | 'integer' | 'boolean';
  /** register_setting's default, used while the option is not stored; null: none (the answer is null until one is stored). */
  fallback: string | null;
}

/** The settings WordPress registers with show_in_rest, in its order: REST name → option. */
const SETTINGS: Record<string, Setting> = {
  title: { option: 'blogname', type: 'string', fallback: '' },
  description: { option: 'blogdescription', type: 'string', fallback: '' },
  url: { option: 'siteurl', type: 'string', fallback: '' },
  email: { option: 'admin_email', type: 'string', fallback: '' },
  timezone: { option: 'timezone_string', type: 'string', fallback: '' },
  date_format: { option: 'date_format', type: 'string', fallback: 'F j, Y' },
  time_format: { option: 'time_format', type: 'string', fallback: 'g:i a' },
  start_of_week: { option: 'start_of_week', type: 'integer', fallback: '1' },
  language: { option: 'WPLANG', type: 'string', fallback: 'en_US' },
  use_smilies: { option: 'use_smilies', type: 'boolean', fallback: '1' },
  default_category: { option: 'default_category', type: 'integer', fallback: '1' },
  default_post_format: { option: 'default_post_format', type: 'string', fallback: '0' },
  posts_per_page: { option: 'posts_per_page', type: 'integer', fallback: '10' },
  show_on_front: { option: 'show_on_front', type: 'string', fallback: 'posts' },
  page_on_front: { option: 'page_on_front', type: 'integer', fallback: '0' },
  page_for_posts: { option: 'page_for_posts', type: 'integer', fallback: '0' },
  default_ping_status: { option: 'default_ping_status', type: 'string', fallback: 'open' },
  default_comment_status: { option: 'default_comment_status', type: 'string', fallback: 'open' },
  // the site logo block's and the site icon's settings (attachment ids), registered without a default: null until stored
  site_logo: { option: 'site_logo', type: 'integer', fallback: null },
  site_icon: { option: 'site_icon', type: 'integer', fallback: null },
};

const OPTION_NAMES = Object.values(SETTINGS).map((s) => s.option);

const typed = (s: Setting, raw: string): unknown =>
  s.type === 'integer' ? Number.parseInt(raw, 10) || 0 : s.type === 'boolean' ? raw !== '' && raw !== '0' : raw;

const stored = (s: Setting, v: unknown): string => (s.type === 'boolean' ? (v ? '1' : '0') : String(v));

export async function getSettings(ctx: Ctx<'cms-v2:settings.getSettings'>) {
  const values = await ctx.store.options.getMany(OPTION_NAMES);
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(SETTINGS)) {
    const raw = values[s.option] || s.fallback;
    out[name] = raw === null ? null : typed(s, raw);
  }
  return out;
}

function isTimezone(tz: string): boolean {
  if (tz === '' || tz === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the given settings (null resets one to its default) and refreshes the site, so the root
 * index shows a new title or tagline at once.
 */
export async function updateSettings(ctx: Ctx) {
  const given = Object.entries(SETTINGS).filter(([name]) => ctx.args[name] !== undefined);
  for (const [name] of given) {
    const v = ctx.args[name];
    if (name === 'timezone' && typeof v === 'string' && !isTimezone(v)) throw invalidParam(name, 'timezone is not a valid time zone.');
    if ((name === 'page_on_front' || name === 'page_for_posts') && typeof v === 'number' && v !== 0) {
      const page = await ctx.store.posts.get(v);
      if (!page || page.type !== 'page') throw invalidParam(name, `${name} is not a valid page ID.`);
    }
    if (name === 'default_category' && typeof v === 'number') {
      const term = await ctx.store.terms.get(v);
      if (!term || term.taxonomy !== 'category') throw invalidParam(name, 'default_category is not a valid category ID.');
    }
  }
  await ctx.store.transaction(async (store) => {
    for (const [name, s] of given) {
      const v = ctx.args[name];
      if (v === null) await store.options.delete(s.option);
      else await store.options.set(s.option, stored(s, v));
    }
  });
  if (given.length) await ctx.site.optionsChanged();
  return getSettings(ctx);
}
