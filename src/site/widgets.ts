import type { Site } from '../core/site.ts';
import { encodeInstance, INACTIVE_SIDEBAR, loadWidgets, parseWidgetId, SIDEBARS, type Instance, type WidgetState } from '../core/widgets.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import type { TermRow } from '../store/terms.ts';
import { escapeAttr, escapeHtml, renderContent, stripAllTags } from '../format/format.ts';
import { kses } from '../format/kses.ts';
import { permalink, termPermalink } from '../core/permalinks.ts';
import { searchFormHtml } from './templates.ts';
import { formatLocalDate } from '../format/date.ts';

/**
 * The widget types the site renders (WordPress's WP_Widget subclasses of the same id_base) and
 * the theme's sidebar made of them. Each shows on the site exactly what the theme showed before
 * widgets were stored: the search form, the latest posts and the categories with posts.
 */

/** What rendering a widget needs of the page it is on. */
export interface WidgetEnv {
  store: Store;
  site: Site;
  /** The text searched for, which the search form keeps. */
  search: string;
  /** Element ids handed out on this page, so two search widgets do not share one. */
  usedIds: Map<string, number>;
}

/** The markup a widget is wrapped in (dynamic_sidebar's arguments, `%1$s`/`%2$s` already filled). */
export interface DisplayArgs {
  before_widget: string;
  after_widget: string;
  before_title: string;
  after_title: string;
}

/** A form field's id and name (WP_Widget::get_field_id / get_field_name). */
type FieldNamer = (field: string) => { id: string; name: string };

export interface WidgetType {
  idBase: string;
  name: string;
  description: string;
  classname: string;
  /** show_instance_in_rest: clients read and send the instance as `raw`, not only encoded. */
  rawInRest: boolean;
  /** WP_Widget::update: what is stored from the instance sent (`unfiltered`: the user may post unfiltered HTML). */
  update(sent: Instance, old: Instance, unfiltered: boolean): Promise<Instance> | Instance;
  /** WP_Widget::form: the fields of its admin form. */
  form(instance: Instance, field: FieldNamer): string;
  /** WP_Widget::widget: its HTML in `args`, or '' when it has nothing to show. */
  widget(instance: Instance, env: WidgetEnv, args: DisplayArgs): Promise<string>;
}

/** sanitize_text_field: text without markup, line breaks or runs of spaces. */
const textField = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? stripAllTags(String(v)) : '');
const flag = (v: unknown): 0 | 1 => (v && v !== '0' ? 1 : 0);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback);

/** before_widget, the title when there is one, the body, after_widget. */
const shown = (args: DisplayArgs, title: string, body: string) =>
  `${args.before_widget}\n${title ? `${args.before_title}${escapeHtml(title)}${args.after_title}\n` : ''}${body}\n${args.after_widget}`;

const titleField = (instance: Instance, field: FieldNamer) => {
  const f = field('title');
  return `<p>
<label for="${f.id}">Title:</label>
<input class="widefat" id="${f.id}" name="${f.name}" type="text" value="${escapeAttr(str(instance.title))}" />
</p>`;
};

const checkbox = (field: FieldNamer, name: string, on: unknown, label: string) => {
  const f = field(name);
  return `<input type="checkbox" class="checkbox" id="${f.id}" name="${f.name}"${on ? ' checked="checked"' : ''} />
<label for="${f.id}">${label}</label>`;
};

function uniqueId(env: WidgetEnv, base: string): string {
  const n = (env.usedIds.get(base) ?? 0) + 1;
  env.usedIds.set(base, n);
  return n === 1 ? base : `${base}-${n}`;
}

const linkItem = (url: string, text: string, after = '') => `<li><a href="${escapeAttr(url)}">${escapeHtml(text)}</a>${after}</li>`;

const search: WidgetType = {
  idBase: 'search',
  name: 'Search',
  description: 'A search form for your site.',
  classname: 'widget_search',
  rawInRest: true,
  update: (sent) => ({ title: textField(sent.title) }),
  form: (instance, field) => titleField(instance, field),
  async widget(instance, env, args) {
    return shown(args, str(instance.title), searchFormHtml({ name: env.site.info.name, tagline: env.site.info.description, home: env.site.home, apiRoot: env.site.apiRoot }, env.search, uniqueId(env, 'sidebar-search')));
  },
};

const DEFAULT_RECENT = 5;

const recentPosts: WidgetType = {
  idBase: 'recent-posts',
  name: 'Recent Posts',
  description: 'Your site’s most recent Posts.',
  classname: 'widget_recent_entries',
  rawInRest: true,
  update: (sent) => ({ title: textField(sent.title), number: Math.trunc(Number(sent.number)) || 0, show_date: Boolean(sent.show_date) && sent.show_date !== '0' }),
  form(instance, field) {
    const number = field('number');
    return `${titleField(instance, field)}
<p>
<label for="${number.id}">Number of posts to show:</label>
<input class="tiny-text" id="${number.id}" name="${number.name}" type="number" step="1" min="1" value="${escapeAttr(String(Math.abs(Number(instance.number)) || DEFAULT_RECENT))}" size="3" />
</p>
<p>
${checkbox(field, 'show_date', instance.show_date, 'Display post date?')}
</p>`;
  },
  async widget(instance, env, args) {
    // absint, and no more than a REST page holds: a number typed too long cannot make every page heavy
    const limit = Math.min(Math.abs(Math.trunc(Number(instance.number))) || DEFAULT_RECENT, 100);
    const { rows } = await env.store.posts.query({ types: ['post'], statuses: ['publish'], orderby: 'date', order: 'desc', offset: 0, limit });
    if (!rows.length) return '';
    const dateFormat = env.site.options.date_format || 'F j, Y';
    const items = rows.map((p: PostRow) => {
      const url = permalink(env.site, { id: p.id, type: p.type, slug: p.slug, status: p.status, date: p.date });
      return linkItem(url, p.title || '(no title)', instance.show_date ? ` <span class="post-date">${escapeHtml(formatLocalDate(dateFormat, p.date))}</span>` : '');
    });
    return shown(args, str(instance.title) || 'Recent Posts', `<ul>${items.join('')}</ul>`);
  },
};

/**
 * The categories to list, by name: those with posts, and in a hierarchy also the ones above them
 * (get_terms with hide_empty keeps an empty parent of a non-empty child when hierarchical).
 */
async function listedCategories(store: Store, hierarchical: boolean): Promise<{ rows: TermRow[]; byId: Map<number, TermRow> }> {
  const { rows: all } = await store.terms.query({ taxonomy: 'category', hideEmpty: !hierarchical, orderby: 'name', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const byId = new Map(all.map((t) => [t.id, t]));
  if (!hierarchical) return { rows: all, byId };
  const keep = new Set<number>();
  for (const t of all) {
    if (t.count <= 0) continue;
    for (let at: TermRow | undefined = t; at && !keep.has(at.id); at = byId.get(at.parent)) keep.add(at.id);
  }
  return { rows: all.filter((t) => keep.has(t.id)), byId };
}

/** A category's archive URL, its ancestors' slugs read from the terms at hand where they are. */
async function categoryUrl(env: WidgetEnv, t: TermRow, byId: Map<number, TermRow>): Promise<string> {
  const slugs: string[] = [];
  const seen = new Set([t.id]);
  for (let parent = t.parent; parent && !seen.has(parent); ) {
    const p = byId.get(parent);
    if (!p) return termPermalink(env.site, env.site.types.taxonomy('category')!, t, await env.store.terms.ancestorSlugs(t));
    seen.add(parent);
    slugs.unshift(p.slug);
    parent = p.parent;
  }
  return termPermalink(env.site, env.site.types.taxonomy('category')!, t, slugs);
}

const categories: WidgetType = {
  idBase: 'categories',
  name: 'Categories',
  description: 'A list or dropdown of categories.',
  classname: 'widget_categories',
  rawInRest: true,
  update: (sent) => ({ title: textField(sent.title), count: flag(sent.count), hierarchical: flag(sent.hierarchical), dropdown: flag(sent.dropdown) }),
  form: (instance, field) => `${titleField(instance, field)}
<p>
${checkbox(field, 'dropdown', instance.dropdown, 'Display as dropdown')}
<br />
${checkbox(field, 'count', instance.count, 'Show post counts')}
<br />
${checkbox(field, 'hierarchical', instance.hierarchical, 'Show hierarchy')}
</p>`,
  async widget(instance, env, args) {
    const hierarchical = Boolean(instance.hierarchical);
    const { rows, byId } = await listedCategories(env.store, hierarchical);
    if (!rows.length) return '';
    const title = str(instance.title) || 'Categories';
    const count = (t: TermRow) => (instance.count ? ` (${t.count})` : '');
    const listed = new Set(rows.map((t) => t.id));
    const childrenOf = (parent: number) => rows.filter((t) => (hierarchical && listed.has(t.parent) ? t.parent : 0) === parent);
    if (instance.dropdown) {
      // wp_dropdown_categories: a select whose choice opens the category's archive (?cat=ID)
      const id = uniqueId(env, `categories-dropdown`);
      const options: string[] = [];
      const addOptions = (parent: number, level: number) => {
        for (const t of childrenOf(parent)) {
          options.push(`<option class="level-${level}" value="${t.id}">${'&nbsp;&nbsp;&nbsp;'.repeat(level)}${escapeHtml(t.name)}${instance.count ? `&nbsp;&nbsp;(${t.count})` : ''}</option>`);
          addOptions(t.id, level + 1);
        }
      };
      addOptions(0, 0);
      const form = `<form action="${escapeAttr(`${env.site.home}/`)}" method="get"><label class="screen-reader-text" for="${id}">${escapeHtml(title)}</label><select name="cat" id="${id}" class="postform"><option value="-1">Select Category</option>${options.join('')}</select></form>
<script>(function(){var d=document.getElementById(${JSON.stringify(id)});d.onchange=function(){if(d.options[d.selectedIndex].value>0){d.parentNode.submit();}};})();</script>`;
      return shown(args, title, form);
    }
    const list = async (parent: number): Promise<string> => {
      const items: string[] = [];
      for (const t of childrenOf(parent)) {
        const children = hierarchical ? await list(t.id) : '';
        items.push(linkItem(await categoryUrl(env, t, byId), t.name, `${count(t)}${children ? `<ul class="children">${children}</ul>` : ''}`));
      }
      return items.join('');
    };
    return shown(args, title, `<ul>${await list(0)}</ul>`);
  },
};

/** WP_Widget_Block::get_dynamic_classname: the class of the widget a block's first block stands in for. */
const BLOCK_CLASSNAMES: Record<string, string> = {
  'core/paragraph': 'widget_block widget_text',
  'core/calendar': 'widget_block widget_calendar',
  'core/search': 'widget_block widget_search',
  'core/html': 'widget_block widget_custom_html',
  'core/archives': 'widget_block widget_archive',
  'core/latest-posts': 'widget_block widget_recent_entries',
  'core/latest-comments': 'widget_block widget_recent_comments',
  'core/tag-cloud': 'widget_block widget_tag_cloud',
  'core/categories': 'widget_block widget_categories',
  'core/audio': 'widget_block widget_media_audio',
  'core/video': 'widget_block widget_media_video',
  'core/image': 'widget_block widget_media_image',
  'core/gallery': 'widget_block widget_media_gallery',
  'core/rss': 'widget_block widget_rss',
};

const FIRST_BLOCK = /^\s*<!--\s+wp:([a-z][a-z0-9_-]*(?:\/[a-z][a-z0-9_-]*)?)[\s/]/;

function blockClassname(content: string): string {
  const name = FIRST_BLOCK.exec(content)?.[1];
  return BLOCK_CLASSNAMES[name && !name.includes('/') ? `core/${name}` : (name ?? '')] ?? 'widget_block';
}

/** esc_textarea: every markup character encoded, entities too, so the text comes back from the form as written. */
const escapeTextarea = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

const block: WidgetType = {
  idBase: 'block',
  name: 'Block',
  description: 'A widget containing a block.',
  classname: 'widget_block',
  rawInRest: true,
  async update(sent, _old, unfiltered) {
    const content = str(sent.content);
    return { ...sent, content: unfiltered ? content : await kses(content, 'post') };
  },
  form(instance, field) {
    const f = field('content');
    return `<textarea id="${f.id}" name="${f.name}" class="content sync-input" hidden>${escapeTextarea(str(instance.content))}</textarea>`;
  },
  async widget(instance, _env, args) {
    const content = str(instance.content);
    // the site's block rendering (do_blocks); markup that is not blocks is shown as written, never autop'd
    const html = content.includes('<!-- wp:') ? renderContent(content) : content;
    return `${args.before_widget.replace('widget_block', blockClassname(content))}${html}${args.after_widget}`;
  },
};

/** The widget types, by id_base in WordPress's order (ksort). */
export const WIDGET_TYPES: readonly WidgetType[] = [block, categories, recentPosts, search];
export const WIDGET_ID_BASES = WIDGET_TYPES.map((t) => t.idBase);

export const widgetType = (idBase: string) => WIDGET_TYPES.find((t) => t.idBase === idBase);

/** get_field_id / get_field_name of instance `number` (-1: a form not yet saved). */
export const fieldNamer =
  (idBase: string, number: number): FieldNamer =>
  (field) => ({ id: `widget-${idBase}-${number}-${field}`, name: `widget-${idBase}[${number}][${field}]` });

/** The site's widgets, for the types it knows. */
export const siteWidgets = (store: Store): Promise<WidgetState> => loadWidgets(store, WIDGET_ID_BASES);

export const newEnv = (store: Store, site: Site, search = ''): WidgetEnv => ({ store, site, search, usedIds: new Map() });

/**
 * wp_render_widget: a stored widget as its sidebar shows it, `%1$s` and `%2$s` of before_widget
 * filled with its id and class. '' for a widget in no registered sidebar or without an instance.
 */
export async function renderWidget(env: WidgetEnv, state: WidgetState, widgetId: string, sidebarId: string): Promise<string> {
  const sidebar = SIDEBARS.find((s) => s.id === sidebarId);
  const { idBase, number } = parseWidgetId(widgetId);
  const type = widgetType(idBase);
  const instance = number === undefined ? undefined : state.instances[idBase]?.[number];
  if (!sidebar || !type || !instance || sidebarId === INACTIVE_SIDEBAR) return '';
  const args = { ...sidebar, before_widget: sidebar.before_widget.replace('%1$s', widgetId).replace('%2$s', type.classname) };
  return type.widget(instance, env, args);
}

/** the_widget: a widget type shown outside any sidebar, with WordPress's default wrapper. */
export function previewWidget(env: WidgetEnv, type: WidgetType, instance: Instance): Promise<string> {
  return type.widget(instance, env, { before_widget: `<div class="widget ${type.classname}">`, after_widget: '</div>', before_title: '<h2 class="widgettitle">', after_title: '</h2>' });
}

/** dynamic_sidebar: each widget of the sidebar that has something to show, in order. */
export async function sidebarWidgetsHtml(env: WidgetEnv, sidebarId: string): Promise<string[]> {
  const state = await siteWidgets(env.store);
  const out: string[] = [];
  for (const widgetId of state.sidebars[sidebarId] ?? []) {
    const html = await renderWidget(env, state, widgetId, sidebarId);
    if (html) out.push(html);
  }
  return out;
}

/** An instance as the REST API shows it: encoded and signed, and as it is when the type allows (show_instance_in_rest). */
export async function restInstance(store: Store, type: WidgetType, instance: Instance): Promise<Record<string, unknown>> {
  const signed = await encodeInstance(store, instance);
  return type.rawInRest ? { ...signed, raw: instance } : signed;
}

/**
 * The page the widgets editor shows a widget's preview in (render_legacy_widget_preview_iframe):
 * the theme's stylesheet, its spacing reset, and the widget as the_widget shows it.
 */
export function widgetPreviewDocument(stylesheet: string, widgetHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="UTF-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<link rel="profile" href="https://gmpg.org/xfn/11" />
<link rel="stylesheet" id="theme-style" href="${escapeAttr(stylesheet)}" media="all">
<style>
/* Reset theme styles */
html, body, #page, #content {
padding: 0 !important;
margin: 0 !important;
}
</style>
</head>
<body>
<div id="page" class="site">
<div id="content" class="site-content">
${widgetHtml}
</div><!-- #content -->
</div><!-- #page -->
</body>
</html>
`;
}
