import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import type { TermRow } from '../../../store/terms.ts';
import { escapeAttr, escapeHtml } from '../../../format/format.ts';
import { dateArchivePermalink, termPermalink } from '../../permalinks.ts';
import { int } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/** The blocks that list the site's archives and terms: archives by month or year, categories, the tag cloud. */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

// WordPress 6.1 appends these to an empty class (`$class .= ' wp-block-archives-list'`), and the wrapper keeps the leading space
const ARCHIVES_LIST = ' wp-block-archives-list';
const ARCHIVES_DROPDOWN = ' wp-block-archives-dropdown';

/** render_block_core_archives: wp_get_archives' monthly or yearly list (or dropdown) of the published posts. */
export async function archives(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const by = a.type === 'yearly' ? 'yearly' : 'monthly';
  const periods = await ctx.store.archives.periods('post', by);
  const label = (y: number, m?: number) => (m ? `${MONTHS[m - 1]} ${y}` : String(y));
  if (a.displayAsDropdown) {
    const title = by === 'yearly' ? 'Select Year' : 'Select Month';
    const id = 'wp-block-archives-1';
    const options = periods.map((p) => `\t<option value='${escapeAttr(dateArchivePermalink(ctx.site, p.year, p.month))}'> ${label(p.year, p.month)}${a.showPostCounts ? `&nbsp;(${p.count})` : ''}</option>\n`).join('');
    const labelHtml = `<label for="${id}" class="wp-block-archives__label${a.showLabel === false ? ' screen-reader-text' : ''}">Archives</label>`;
    return `<div ${wrapperAttributes(block, { class: ARCHIVES_DROPDOWN })}>${labelHtml}\n\t\t<select id="${id}" name="archive-dropdown" onchange="document.location.href=this.options[this.selectedIndex].value;">\n\t\t<option value="">${title}</option>${options}</select></div>`;
  }
  if (!periods.length) return `<div ${wrapperAttributes(block)}>No archives to show.</div>`;
  const items = periods.map((p) => `\t<li><a href='${escapeAttr(dateArchivePermalink(ctx.site, p.year, p.month))}'>${label(p.year, p.month)}</a>${a.showPostCounts ? `&nbsp;(${p.count})` : ''}</li>\n`).join('');
  return `<ul ${wrapperAttributes(block, { class: ARCHIVES_LIST })}>${items}</ul>`;
}

/** render_block_core_categories: wp_list_categories of the category taxonomy, flat or nested, with counts when asked. */
export async function categories(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const tax = ctx.site.types.taxonomy('category')!;
  const { rows } = await ctx.store.terms.query({ taxonomy: 'category', hideEmpty: !a.showEmpty, ...(a.showOnlyTopLevel ? { parent: 0 } : {}), orderby: 'name', order: 'asc', offset: 0, limit: Number.MAX_SAFE_INTEGER });
  const byId = new Map(rows.map((t) => [t.id, t]));
  const ancestors = (t: TermRow): string[] => {
    const slugs: string[] = [];
    const seen = new Set([t.id]);
    for (let p = byId.get(t.parent); p && !seen.has(p.id); p = byId.get(p.parent)) {
      seen.add(p.id);
      slugs.unshift(p.slug);
    }
    return slugs;
  };
  const item = (t: TermRow, children: string) =>
    `\t<li class="cat-item cat-item-${t.id}"><a href="${escapeAttr(termPermalink(ctx.site, tax, t, ancestors(t)))}">${escapeHtml(t.name)}</a>${a.showPostCounts ? ` (${t.count})` : ''}${children}\n</li>\n`;
  // nested: each term under its parent when the parent is listed too, as wp_list_categories' walker does
  const nested = a.showHierarchy === true;
  const childrenOf = (parent: number): string => {
    const kids = rows.filter((t) => (byId.has(t.parent) ? t.parent : 0) === parent);
    return kids.map((t) => item(t, nested ? list(t.id) : '')).join('');
  };
  const list = (parent: number) => {
    const inner = childrenOf(parent);
    return inner ? `\n<ul class='children'>\n${inner}</ul>` : '';
  };
  const body = nested ? childrenOf(0) : rows.map((t) => item(t, '')).join('');
  return `<ul ${wrapperAttributes(block, { class: 'wp-block-categories-list' })}>${body || '<li class="cat-item-none">No categories</li>'}</ul>`;
}

/** PHP's float printing (precision 14), for the font sizes wp_generate_tag_cloud writes. */
const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

/** render_block_core_tag_cloud: wp_tag_cloud of the most used terms, sized by use, by name. */
export async function tagCloud(block: RenderedBlock, ctx: BlockRenderContext): Promise<string> {
  const a = block.attributes;
  const tax = ctx.site.types.taxonomy(typeof a.taxonomy === 'string' ? a.taxonomy : 'post_tag');
  const size = (v: unknown, fallback: number) => (typeof v === 'string' && /^\d+(\.\d+)?pt$/.test(v) ? Number.parseFloat(v) : fallback);
  const smallest = size(a.smallestFontSize, 8);
  const largest = size(a.largestFontSize, 22);
  const { rows } = tax
    ? await ctx.store.terms.query({ taxonomy: tax.slug, hideEmpty: true, orderby: 'count', order: 'desc', offset: 0, limit: Math.max(1, int(a.numberOfTags, 45)) })
    : { rows: [] as TermRow[] };
  if (!tax || !rows.length) {
    const name = (tax?.name ?? 'Tags').toLowerCase();
    return `<p ${wrapperAttributes(block)}>Your site doesn&#8217;t have any ${escapeHtml(name)}, so there&#8217;s nothing to display here at the moment.</p>`;
  }
  const counts = rows.map((t) => t.count);
  const min = Math.min(...counts);
  const spread = Math.max(1, Math.max(...counts) - min);
  const step = (largest - smallest) / spread;
  const sorted = [...rows].sort((x, y) => x.name.localeCompare(y.name));
  const links = sorted.map((t, i) => {
    const items = `${t.count} item${t.count === 1 ? '' : 's'}`;
    const count = a.showTagCounts ? `<span class="tag-link-count"> (${t.count})</span>` : '';
    return `<a href="${escapeAttr(termPermalink(ctx.site, tax, t))}" class="tag-cloud-link tag-link-${t.id} tag-link-position-${i + 1}" style="font-size: ${phpFloat(smallest + (t.count - min) * step)}pt;" aria-label="${escapeAttr(`${t.name} (${items})`)}">${escapeHtml(t.name)}${count}</a>`;
  });
  return `<p ${wrapperAttributes(block)}>${links.join('\n')}</p>`;
}
