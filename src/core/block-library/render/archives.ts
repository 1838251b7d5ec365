import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { TermRow } from '../../../store/terms.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { dateArchivePermalink, termPermalink } from '../../permalinks.ts';
import { int, uniqueId } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';
import { archiveWeeks } from './archive-weeks.ts';
import { formatLocalDate } from '../../../format/date.ts';
import { strnatcasecmp } from '../../../format/strnatcmp.ts';

/** The blocks that list the site's archives and terms: archives by month or year, categories, the tag cloud. */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// WordPress 6.1 appends these to an empty class (`$class .= ' wp-block-archives-list'`), and the wrapper keeps the leading space
const ARCHIVES_LIST = ' wp-block-archives-list';
const ARCHIVES_DROPDOWN = ' wp-block-archives-dropdown';

/** wp_get_archives' types the block passes on, and the dropdown's first option for each. */
const SELECT_LABEL: Readonly<Record<string, string>> = { yearly: 'Select Year', monthly: 'Select Month', daily: 'Select Day', weekly: 'Select Week' };

/** One link of the list: its URL (escaped as esc_url prints it) and text. */
interface ArchiveLink {
  url: string;
  text: string;
  count: number;
}

/** wp_get_archives' links of a type, newest first: by year, month or day (the date's archive), or by week (`?m=YEAR&w=WEEK`). */
async function archiveLinks(type: string, ctx: BlockRenderContext): Promise<ArchiveLink[]> {
  const dateFormat = ctx.site.options.date_format || 'F j, Y';
  if (type === 'weekly') {
    const startOfWeek = Number(ctx.site.options.start_of_week ?? 1);
    const weeks = archiveWeeks(await ctx.store.archives.periods('post', 'daily'), Number.isInteger(startOfWeek) ? startOfWeek : 1);
    const date = (d: Date) => formatLocalDate(dateFormat, `${d.toISOString().slice(0, 10)} 00:00:00`);
    return weeks.map((w) => ({ url: `${escapeAttr(ctx.site.home)}/?m=${w.year}&#038;w=${w.week}`, text: `${date(w.start)}&#8211;${date(w.end)}`, count: w.count }));
  }
  const by = type === 'yearly' || type === 'daily' ? type : 'monthly';
  const periods = await ctx.store.archives.periods('post', by);
  const pad = (n: number) => String(n).padStart(2, '0');
  return periods.map((p) => ({
    url: escapeAttr(dateArchivePermalink(ctx.site, p.year, p.month, p.day)),
    text: p.day ? formatLocalDate(dateFormat, `${p.year}-${pad(p.month ?? 1)}-${pad(p.day)} 00:00:00`) : p.month ? `${MONTHS[p.month - 1]} ${p.year}` : String(p.year),
    count: p.count,
  }));
}

/** render_block_core_archives: wp_get_archives' yearly, monthly, weekly or daily list (or dropdown) of the published posts. */
export async function archives(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const type = typeof a.type === 'string' && a.type in SELECT_LABEL ? a.type : 'monthly';
  const links = await archiveLinks(type, ctx);
  const after = (l: ArchiveLink) => (a.showPostCounts ? `&nbsp;(${l.count})` : '');
  if (a.displayAsDropdown) {
    const id = uniqueId(ctx, 'wp-block-archives-');
    // get_archives_link's option: "$before $text $after", its spaces kept when before and after are empty
    const options = links.map((l) => `\t<option value='${l.url}'> ${l.text} ${after(l)}</option>\n`).join('');
    const labelHtml = `<label for="${id}" class="wp-block-archives__label${a.showLabel === false ? ' screen-reader-text' : ''}">Archives</label>`;
    return `<div ${wrapperAttributes(block, { class: ARCHIVES_DROPDOWN })}>${labelHtml}\n\t\t<select id="${id}" name="archive-dropdown" onchange="document.location.href=this.options[this.selectedIndex].value;">\n\t\t<option value="">${SELECT_LABEL[type]}</option>${options}</select></div>`;
  }
  if (!links.length) return `<div ${wrapperAttributes(block)}>No archives to show.</div>`;
  const items = links.map((l) => `\t<li><a href='${l.url}'>${l.text}</a>${after(l)}</li>\n`).join('');
  return `<ul ${wrapperAttributes(block, { class: ARCHIVES_LIST })}>${items}</ul>`;
}

/** A category as the walkers print it: at its depth, with the listed categories under it. */
interface CategoryNode {
  term: TermRow;
  depth: number;
  children: CategoryNode[];
}

/** MySQL's utf8mb4_unicode_520_ci, as WordPress's `ORDER BY t.name` sorts: letters alike whatever their case and accents. */
const byCollation = new Intl.Collator('en', { sensitivity: 'base' });

/**
 * render_block_core_categories: wp_list_categories (or, with `displayAsDropdown`,
 * wp_dropdown_categories and its script) of the categories by name as the database collates them.
 * Nested when `showHierarchy`: an empty category with a non-empty descendant is then listed
 * (get_terms' hierarchical hide_empty) and, with counts, counts its descendants' posts too
 * (pad_counts, summed here where WordPress counts a post in two of them once).
 */
export async function categories(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const hierarchical = Boolean(a.showHierarchy);
  const showCount = Boolean(a.showPostCounts);
  const tax = ctx.site.types.taxonomy('category')!;
  const { rows: all } = await ctx.store.terms.query({ taxonomy: 'category', hideEmpty: false, orderby: 'name', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const byId = new Map(all.map((t) => [t.id, t]));
  const childrenOf = new Map<number, TermRow[]>();
  for (const t of all) childrenOf.set(t.parent, [...(childrenOf.get(t.parent) ?? []), t]);
  const descendants = (t: TermRow, seen = new Set([t.id])): TermRow[] =>
    (childrenOf.get(t.id) ?? []).filter((c) => !seen.has(c.id) && seen.add(c.id)).flatMap((c) => [c, ...descendants(c, seen)]);
  // listed with their counts in a hierarchy, a category counts the published posts in it or any
  // descendant, each once (wp_list_categories and wp_dropdown_categories turn on pad_counts)
  const postsOf = hierarchical && showCount ? await ctx.store.terms.publishedPostsOfTerms(all.map((t) => t.id)) : undefined;
  const shownCount = new Map(all.map((t) => [t.id, postsOf ? new Set([t, ...descendants(t)].flatMap((d) => postsOf.get(d.id) ?? [])).size : t.count]));
  let rows = all.filter((t) => a.showEmpty || t.count > 0 || (hierarchical && descendants(t).some((d) => d.count > 0)));
  if (a.showOnlyTopLevel) rows = rows.filter((t) => t.parent === 0);
  rows = [...rows].sort((x, y) => byCollation.compare(x.name, y.name) || x.id - y.id);
  const listed = new Set(rows.map((t) => t.id));
  // each term under its parent when the parent is listed too, as the category walkers nest them
  const levels = (parent: number, depth: number): CategoryNode[] =>
    rows.filter((t) => (hierarchical && listed.has(t.parent) ? t.parent : 0) === parent).map((t) => ({ term: t, depth, children: hierarchical ? levels(t.id, depth + 1) : [] }));
  const tree: CategoryNode[] = hierarchical ? levels(0, 0) : rows.map((t) => ({ term: t, depth: 0, children: [] }));

  if (a.displayAsDropdown) {
    const id = `wp-block-categories-${ctx.supports ? ctx.supports.staticCounter('core/categories') : 1}`;
    const options = (nodes: CategoryNode[]): string =>
      nodes
        .map(({ term, depth, children }) => `\t<option class="level-${depth}" value="${term.id}">${'&nbsp;'.repeat(3 * depth)}${escapeHtml(term.name)}${showCount ? `&nbsp;&nbsp;(${shownCount.get(term.id)})` : ''}</option>\n${options(children)}`)
        .join('');
    const script = `\t<script type='text/javascript'>\n\t/* <![CDATA[ */\n\t( function() {\n\t\tvar dropdown = document.getElementById( '${id}' );\n\t\tfunction onCatChange() {\n\t\t\tif ( dropdown.options[ dropdown.selectedIndex ].value > 0 ) {\n\t\t\t\tlocation.href = "${escapeAttr(ctx.site.home)}/?cat=" + dropdown.options[ dropdown.selectedIndex ].value;\n\t\t\t}\n\t\t}\n\t\tdropdown.onchange = onCatChange;\n\t})();\n\t/* ]]> */\n\t</script>\n\t`;
    // wp_dropdown_categories' select, with nothing to choose from only its placeholder (selected)
    const none = rows.length ? `\t<option value='-1'>Select Category</option>\n` : `\t<option value='-1' selected='selected'>Select Category</option>\n`;
    const select = `<select  name='cat' id='${id}' class='postform'>\n${none}${options(tree)}</select>${script}\n`;
    return `<div ${wrapperAttributes(block, { class: 'wp-block-categories-dropdown' })}><label class="screen-reader-text" for="${id}">Categories</label>${select}</div>`;
  }

  const ancestors = (t: TermRow): string[] => {
    const slugs: string[] = [];
    const seen = new Set([t.id]);
    for (let p = byId.get(t.parent); p && !seen.has(p.id); p = byId.get(p.parent)) {
      seen.add(p.id);
      slugs.unshift(p.slug);
    }
    return slugs;
  };
  const items = (nodes: CategoryNode[]): string =>
    nodes
      .map(({ term: t, children }) => {
        const nested = children.length ? `\n<ul class='children'>\n${items(children)}</ul>` : '';
        return `\t<li class="cat-item cat-item-${t.id}"><a href="${escapeAttr(termPermalink(ctx.site, tax, t, ancestors(t)))}">${escapeHtml(t.name)}</a>${showCount ? ` (${shownCount.get(t.id)})` : ''}${nested}\n</li>\n`;
      })
      .join('');
  return `<ul ${wrapperAttributes(block, { class: 'wp-block-categories-list' })}>${items(tree) || '<li class="cat-item-none">No categories</li>'}</ul>`;
}

/** PHP's float printing (precision 14), for the font sizes wp_generate_tag_cloud writes. */
const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

/** PHP's floatval of a size such as `8pt`: its leading number. */
const floatVal = (v: unknown) => {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(String(v ?? ''));
  return m ? Number.parseFloat(m[0]) : 0;
};

/** number_format_i18n of a count: thousands separated by commas. */
const formatCount = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * render_block_core_tag_cloud: wp_tag_cloud of the most used terms (by count), sorted by name as
 * strnatcasecmp sorts, each sized by default_topic_count_scale (round(log10(count + 1) * 100))
 * between the smallest and largest size, in the smallest size's unit.
 */
export async function tagCloud(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const tax = ctx.site.types.taxonomy(typeof a.taxonomy === 'string' ? a.taxonomy : 'post_tag');
  const smallestText = typeof a.smallestFontSize === 'string' ? a.smallestFontSize : '8pt';
  const unit = /^[0-9.]+([a-z%]+)$/i.exec(smallestText)?.[1] ?? 'pt';
  const smallest = floatVal(smallestText);
  const largest = floatVal(typeof a.largestFontSize === 'string' ? a.largestFontSize : '22pt');
  const number = int(a.numberOfTags, 45);
  const { rows } = tax
    ? await ctx.store.terms.query({ taxonomy: tax.slug, hideEmpty: true, orderby: 'count', order: 'desc', offset: 0, limit: number > 0 ? number : Number.MAX_SAFE_INTEGER })
    : { rows: [] as TermRow[] };
  if (!tax || !rows.length) {
    const name = (tax?.name ?? 'Tags').toLowerCase();
    return `<p ${wrapperAttributes(block)}>Your site doesn&#8217;t have any ${escapeHtml(name)}, so there&#8217;s nothing to display here at the moment.</p>`;
  }
  // uasort is stable: names alike keep the order the count query gave them
  const sorted = [...rows].sort((x, y) => strnatcasecmp(x.name, y.name));
  const scaled = sorted.map((t) => Math.round(Math.log10(t.count + 1) * 100));
  const min = Math.min(...scaled);
  const spread = Math.max(...scaled) - min || 1;
  const fontSpread = largest - smallest < 0 ? 1 : largest - smallest;
  const step = fontSpread / spread;
  const links = sorted.map((t, i) => {
    const items = `${formatCount(t.count)} item${t.count === 1 ? '' : 's'}`;
    const count = a.showTagCounts ? `<span class="tag-link-count"> (${t.count})</span>` : '';
    const size = `${phpFloat(smallest + (scaled[i] - min) * step)}${unit}`;
    return `<a href="${escapeAttr(termPermalink(ctx.site, tax, t))}" class="tag-cloud-link tag-link-${t.id} tag-link-position-${i + 1}" style="font-size: ${escapeAttr(size)};" aria-label="${escapeAttr(t.name)} (${escapeAttr(items)})">${escapeHtml(t.name)}${count}</a>`;
  });
  return `<p ${wrapperAttributes(block)}>${links.join('\n')}</p>`;
}
