import { escapeAttr, escapeHtml } from '../format/format.ts';
import { menuHtml, type MenuLink, type NavLink, type ShownMenu } from './menus.ts';

/**
 * The default theme's HTML, as plain string templates: one document shell (header with the menu,
 * main column, widgets area, footer), the pieces the index, single, archive, search and 404
 * templates are made of, and WordPress's standalone embed card. Every value that is
 * text gets escaped here; `html` fields are trusted markup (content, extension output).
 */

export interface SiteIdentity {
  name: string;
  tagline: string;
  home: string;
  apiRoot: string;
}

/** A link with its text (menu items, widget entries, terms, feeds). */
export type { NavLink } from './menus.ts';

/** A post or page as the templates show it; everything already resolved to display values. */
export interface ShownPost {
  id: number;
  type: string;
  title: string;
  url: string;
  /** ISO 8601 for `<time datetime>`. */
  dateIso: string;
  /** The date in the site's date_format. */
  dateText: string;
  author: NavLink;
  categories: NavLink[];
  tags: NavLink[];
  /** Rendered, filtered content (trusted HTML). */
  html: string;
  /** Plain-text excerpt (may hold entities such as `&hellip;`). */
  excerpt: string;
}

/** What every themed page shows around its main column: the menu and the widgets area. */
export interface SiteChrome {
  /** The header menu: the primary location's menu, else the published top-level pages in menu order; `current` marks the page being shown. */
  menu: MenuLink[];
  /** The primary menu's slug (its `<ul>` id), when a menu is assigned there. */
  menuSlug?: string;
  /** The footer location's menu, when one is assigned there. */
  footerMenu?: ShownMenu;
  /** The sidebar's widgets, rendered (trusted HTML, see site/widgets.ts); none: no widgets area. */
  widgets: string[];
  /** The site's own footer template part, rendered (trusted HTML, see site/template-parts.ts); null: the theme's footer. */
  footerPart: string | null;
  /** The site's global styles, a style element on a line of its own after the theme's stylesheet (site/global-styles.ts); '' when it has none. */
  globalStyles: string;
  /** The site icon's tags and the Additional CSS, after the plugins' head output (site/customizer-head.ts); '' when the site has neither. */
  headEnd: string;
}

export interface DocumentParts {
  site: SiteIdentity;
  title: string;
  description: string;
  /** The canonical URL; none on a 404. */
  canonical?: string;
  /** Robots directives, when a plugin sets them (the default is indexable). */
  robots?: string;
  /** The REST URL of the shown post, for `<link rel="alternate" type="application/json">`. */
  restAlternate?: string;
  /** RSS feeds announced in the head (feed_links, feed_links_extra). */
  feeds: NavLink[];
  /** The theme's stylesheet URL. */
  stylesheet: string;
  chrome: SiteChrome;
  bodyClass: string;
  main: string;
  /** Site extensions' wp_head output, at the end of `<head>`. */
  head: string;
  /** Site extensions' wp_footer output, at the end of the footer. */
  footer: string;
}

const link = (l: NavLink, attrs = '') => `<a href="${escapeAttr(l.url)}"${attrs}>${escapeHtml(l.text)}</a>`;

export function documentHtml(d: DocumentParts): string {
  const alternate = d.restAlternate ? `\n<link rel="alternate" title="JSON" type="application/json" href="${escapeAttr(d.restAlternate)}">` : '';
  const feeds = d.feeds.map((f) => `\n<link rel="alternate" type="application/rss+xml" title="${escapeAttr(f.text)}" href="${escapeAttr(f.url)}">`).join('');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(d.title)}</title>
<meta name="description" content="${escapeAttr(d.description)}">
${d.robots ? `<meta name="robots" content="${escapeAttr(d.robots)}">\n` : ''}${d.canonical ? `<link rel="canonical" href="${escapeAttr(d.canonical)}">\n` : ''}<link rel="stylesheet" id="theme-style" href="${escapeAttr(d.stylesheet)}" media="all">${d.chrome.globalStyles}${feeds}
<link rel="https://api.w.org/" href="${escapeAttr(d.site.apiRoot)}">${alternate}
${d.head}${d.chrome.headEnd}</head>
<body class="${escapeAttr(d.bodyClass)}">
<a class="skip-link screen-reader-text" href="#main">Skip to content</a>
${siteHeader(d.site, d.chrome)}
<div class="site-content">
<main id="main" class="site-main">
${d.main}
</main>
${sidebarHtml(d.chrome)}
</div>
${footerHtml(d)}
${MENU_TOGGLE_SCRIPT}
</body>
</html>
`;
}

/**
 * The header menu's toggle: opens and closes the list on a phone (the stylesheet folds it only
 * once this ran, `html.js`), Escape closes it and gives focus back to the button.
 */
const MENU_TOGGLE_SCRIPT = `<script id="theme-menu-toggle">
(function () {
  var button = document.querySelector('.main-navigation .menu-toggle');
  if (!button) return;
  document.documentElement.classList.add('js');
  var set = function (open) { button.setAttribute('aria-expanded', open ? 'true' : 'false'); };
  button.addEventListener('click', function () { set(button.getAttribute('aria-expanded') !== 'true'); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' && button.getAttribute('aria-expanded') === 'true') { set(false); button.focus(); }
  });
})();
</script>`;

/**
 * The theme's footer, or the footer template part the site stores in its place (as the
 * template-part block wraps it). Site extensions' wp_footer output ends it: what a plugin prints
 * there (a notice, a snippet's HTML) shows as part of the footer, not below the page.
 */
function footerHtml(d: DocumentParts): string {
  if (d.chrome.footerPart !== null) return `<footer class="wp-block-template-part site-footer">\n${d.chrome.footerPart}${d.footer}</footer>`;
  return `<footer class="site-footer">
${d.chrome.footerMenu ? `${menuHtml('footer-navigation', 'Footer menu', d.chrome.footerMenu.items, d.chrome.footerMenu.slug)}\n` : ''}<p><a href="${escapeAttr(d.site.home + '/')}">${escapeHtml(d.site.name)}</a>${d.site.tagline ? ` &middot; ${escapeHtml(d.site.tagline)}` : ''}</p>
<p class="site-info">${d.feeds.map((f) => link(f)).join(' &middot; ')}</p>
${d.footer}</footer>`;
}

function siteHeader(site: SiteIdentity, chrome: SiteChrome): string {
  const tagline = site.tagline ? `\n<p class="site-description">${escapeHtml(site.tagline)}</p>` : '';
  const nav = menuHtml('main-navigation', 'Main menu', chrome.menu, chrome.menuSlug, true);
  const menu = nav ? `\n${nav}` : '';
  return `<header class="site-header">
<div class="site-branding">
<p class="site-title"><a href="${escapeAttr(site.home + '/')}" rel="home">${escapeHtml(site.name)}</a></p>${tagline}
</div>${menu}
</header>`;
}

/** get_search_form: a labelled GET form to the home URL's `s`. */
export function searchFormHtml(site: SiteIdentity, value: string, id: string): string {
  return `<form role="search" method="get" class="search-form" action="${escapeAttr(site.home + '/')}">
<label class="screen-reader-text" for="${id}">Search for:</label>
<input type="search" id="${id}" class="search-field" name="s" value="${escapeAttr(value)}">
<button type="submit" class="search-submit">Search</button>
</form>`;
}

/** The widgets area, as a theme shows it only while its sidebar has widgets (is_active_sidebar). */
function sidebarHtml(chrome: SiteChrome): string {
  if (!chrome.widgets.length) return '';
  return `<aside class="widget-area" aria-label="Sidebar">
${chrome.widgets.join('\n')}
</aside>`;
}

export const UNTITLED = '(no title)';

function termList(label: string, className: string, terms: NavLink[]): string {
  if (!terms.length) return '';
  return `<span class="${className}">${label}: ${terms.map((t) => link(t, ` rel="${className === 'cat-links' ? 'category ' : ''}tag"`)).join(', ')}</span>`;
}

/**
 * A post in full (single view) or in a list, where its title links to it; search results show
 * the excerpt instead of the content, as WordPress's default themes do.
 */
export function articleHtml(post: ShownPost, single: boolean, summary = false): string {
  const title = escapeHtml(post.title || UNTITLED);
  const heading = single ? `<h1 class="entry-title">${title}</h1>` : `<h2 class="entry-title"><a href="${escapeAttr(post.url)}" rel="bookmark">${title}</a></h2>`;
  // Pages carry no byline or terms in a WordPress theme; posts do.
  const meta =
    post.type === 'page'
      ? ''
      : `\n<div class="entry-meta"><a href="${escapeAttr(post.url)}" rel="bookmark"><time class="entry-date published" datetime="${escapeAttr(post.dateIso)}">${escapeHtml(post.dateText)}</time></a> <span class="byline">by <span class="author vcard">${link(post.author, ' class="url fn n"')}</span></span></div>`;
  const terms = [termList('Categories', 'cat-links', post.categories), termList('Tags', 'tags-links', post.tags)].filter(Boolean).join(' ');
  const footer = terms ? `\n<footer class="entry-footer">${terms}</footer>` : '';
  return `<article id="post-${post.id}" class="${post.type} type-${post.type} post-${post.id} entry">
<header class="entry-header">${heading}${meta}</header>
${summary ? `<div class="entry-summary">\n<p>${escapeHtml(post.excerpt)}</p>\n</div>` : `<div class="entry-content">\n${post.html}</div>`}${footer}
</article>`;
}

/** Links to the older (previous) and newer (next) entries, of a list or around a single post. */
export function navHtml(label: string, older?: NavLink, newer?: NavLink): string {
  if (!older && !newer) return '';
  const item = (cls: string, l?: NavLink) => (l ? `<div class="${cls}">${link(l)}</div>` : '');
  return `<nav class="navigation" aria-label="${escapeAttr(label)}">${item('nav-previous', older)}${item('nav-next', newer)}</nav>`;
}

/** The title and description above an archive or search list (the_archive_title, the_archive_description). */
export interface ListHeading {
  /** What kind of list: "Category", "Search Results for". */
  label: string;
  /** The archive's own name, as text. */
  name: string;
  /** Plain text shown under the title (a term's description). */
  description?: string;
}

export interface ListParts {
  posts: ShownPost[];
  /** Excerpts instead of the content (search results). */
  summaries: boolean;
  heading?: ListHeading;
  older?: string;
  newer?: string;
  /** What to say when the list is empty; a search also offers its form again. */
  empty: { message: string; searchForm?: string };
}

export function listHtml(site: SiteIdentity, l: ListParts): string {
  const parts: string[] = [];
  if (l.heading) {
    const description = l.heading.description ? `\n<div class="archive-description"><p>${escapeHtml(l.heading.description)}</p></div>` : '';
    parts.push(`<header class="page-header">\n<h1 class="page-title">${escapeHtml(l.heading.label)}: <span>${escapeHtml(l.heading.name)}</span></h1>${description}\n</header>`);
  }
  if (l.posts.length) parts.push(...l.posts.map((p) => articleHtml(p, false, l.summaries)));
  else {
    const form = l.empty.searchForm === undefined ? '' : `\n${searchFormHtml(site, l.empty.searchForm, 'no-results-search')}`;
    parts.push(`<section class="no-results not-found">\n<h2 class="page-title">Nothing Found</h2>\n<p>${escapeHtml(l.empty.message)}</p>${form}\n</section>`);
  }
  const nav = navHtml('Posts', l.older ? { url: l.older, text: 'Older posts' } : undefined, l.newer ? { url: l.newer, text: 'Newer posts' } : undefined);
  if (nav) parts.push(nav);
  return parts.join('\n');
}

export function notFoundHtml(site: SiteIdentity): string {
  return `<section class="error-404 not-found">
<h1 class="page-title">Nothing here</h1>
<p>It looks like nothing was found at this location. Try the <a href="${escapeAttr(site.home + '/')}">home page</a> or a search.</p>
${searchFormHtml(site, '', 'not-found-search')}
</section>`;
}

/**
 * The embed template (wp-includes/theme-compat/embed-content.php): a standalone card that oEmbed
 * iframes show, with no theme chrome. `post` null is the "can't be found" card.
 */
export function embedHtml(site: SiteIdentity, post: ShownPost | null, head: string, footer: string): string {
  const title = post ? `${post.title || UNTITLED} – ${site.name}` : `Page not found – ${site.name}`;
  const card = post
    ? `<div class="wp-embed post-${post.id} ${post.type} type-${post.type}">
<p class="wp-embed-heading"><a href="${escapeAttr(post.url)}" target="_top">${escapeHtml(post.title || UNTITLED)}</a></p>
<div class="wp-embed-excerpt"><p>${escapeHtml(post.excerpt)}</p></div>`
    : `<div class="wp-embed">
<p class="wp-embed-heading">Oops! That embed cannot be found.</p>
<div class="wp-embed-excerpt"><p>It looks like nothing was found at this location. Maybe try visiting <a href="${escapeAttr(site.home + '/')}" target="_top">${escapeHtml(site.name)}</a> directly?</p></div>`;
  return `<!DOCTYPE html>
<html lang="en" class="no-js">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, follow">
<title>${escapeHtml(title)}</title>${post ? `\n<link rel="canonical" href="${escapeAttr(post.url)}">` : ''}
<style>body{margin:0;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;background:#fff}.wp-embed{padding:25px;font-size:14px;line-height:1.5;color:#8c8f94;border:1px solid #dcdcde;box-shadow:0 1px 1px rgba(0,0,0,.05);overflow:auto}.wp-embed-heading{margin:0 0 15px;font-weight:600;font-size:22px;line-height:1.3}.wp-embed-heading a{color:#2c3338;text-decoration:none}.wp-embed-excerpt p{margin:0 0 1em}.wp-embed-footer{display:table;width:100%;margin-top:30px}.wp-embed-site-title{font-weight:600;line-height:1.78571428}.wp-embed-site-title a{color:#8c8f94;text-decoration:none}</style>
${head}</head>
<body class="${post ? 'single' : 'error404'} wp-embed-responsive">
${card}
<div class="wp-embed-footer"><div class="wp-embed-site-title"><a href="${escapeAttr(site.home + '/')}" target="_top"><span>${escapeHtml(site.name)}</span></a></div></div>
</div>
${footer}</body>
</html>
`;
}
