import { escapeAttr, escapeHtml } from './format.ts';

/**
 * The site's HTML, as plain string templates: one document shell, the pieces a theme's index,
 * single and 404 templates are made of, and WordPress's standalone embed card. Every value that is
 * text gets escaped here; `html` fields are trusted markup (content, extension output).
 */

export interface SiteIdentity {
  name: string;
  tagline: string;
  home: string;
  apiRoot: string;
}

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
  author: string;
  categories: string[];
  tags: string[];
  /** Rendered, filtered content (trusted HTML). */
  html: string;
  /** Plain-text excerpt (may hold entities such as `&hellip;`). */
  excerpt: string;
}

export interface DocumentParts {
  site: SiteIdentity;
  title: string;
  description: string;
  /** The canonical URL; none on a 404. */
  canonical?: string;
  /** The REST URL of the shown post, for `<link rel="alternate" type="application/json">`. */
  restAlternate?: string;
  bodyClass: string;
  main: string;
  /** Site extensions' wp_head output, at the end of `<head>`. */
  head: string;
  /** Site extensions' wp_footer output, before `</body>`. */
  footer: string;
}

export interface NavLink {
  url: string;
  text: string;
}

export function documentHtml(d: DocumentParts): string {
  const alternate = d.restAlternate ? `\n<link rel="alternate" title="JSON" type="application/json" href="${escapeAttr(d.restAlternate)}">` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(d.title)}</title>
<meta name="description" content="${escapeAttr(d.description)}">
${d.canonical ? `<link rel="canonical" href="${escapeAttr(d.canonical)}">\n` : ''}<link rel="https://api.w.org/" href="${escapeAttr(d.site.apiRoot)}">${alternate}
${d.head}</head>
<body class="${escapeAttr(d.bodyClass)}">
${siteHeader(d.site)}
<main id="main" class="site-main">
${d.main}
</main>
<footer class="site-footer"><p><a href="${escapeAttr(d.site.home + '/')}">${escapeHtml(d.site.name)}</a></p></footer>
${d.footer}</body>
</html>
`;
}

function siteHeader(site: SiteIdentity): string {
  const tagline = site.tagline ? `\n<p class="site-description">${escapeHtml(site.tagline)}</p>` : '';
  return `<header class="site-header">
<p class="site-title"><a href="${escapeAttr(site.home + '/')}" rel="home">${escapeHtml(site.name)}</a></p>${tagline}
</header>`;
}

const UNTITLED = '(no title)';

function termList(label: string, className: string, names: string[]): string {
  if (!names.length) return '';
  return `<span class="${className}">${label}: ${names.map(escapeHtml).join(', ')}</span>`;
}

/** A post in full (single view) or in a list, where its title links to it. */
export function articleHtml(post: ShownPost, single: boolean): string {
  const title = escapeHtml(post.title || UNTITLED);
  const heading = single ? `<h1 class="entry-title">${title}</h1>` : `<h2 class="entry-title"><a href="${escapeAttr(post.url)}" rel="bookmark">${title}</a></h2>`;
  // Pages carry no byline or terms in a WordPress theme; posts do.
  const meta =
    post.type === 'page'
      ? ''
      : `\n<div class="entry-meta"><a href="${escapeAttr(post.url)}" rel="bookmark"><time class="entry-date published" datetime="${escapeAttr(post.dateIso)}">${escapeHtml(post.dateText)}</time></a> <span class="byline">by <span class="author">${escapeHtml(post.author)}</span></span></div>`;
  const terms = [termList('Categories', 'cat-links', post.categories), termList('Tags', 'tags-links', post.tags)].filter(Boolean).join(' ');
  const footer = terms ? `\n<footer class="entry-footer">${terms}</footer>` : '';
  return `<article id="post-${post.id}" class="${post.type} type-${post.type} post-${post.id}">
<header class="entry-header">${heading}${meta}</header>
<div class="entry-content">
${post.html}</div>${footer}
</article>`;
}

/** Links to the older (previous) and newer (next) entries, of a list or around a single post. */
export function navHtml(label: string, older?: NavLink, newer?: NavLink): string {
  if (!older && !newer) return '';
  const link = (cls: string, l?: NavLink) => (l ? `<div class="${cls}"><a href="${escapeAttr(l.url)}">${escapeHtml(l.text)}</a></div>` : '');
  return `<nav class="navigation" aria-label="${escapeAttr(label)}">${link('nav-previous', older)}${link('nav-next', newer)}</nav>`;
}

export function listHtml(posts: ShownPost[], older?: string, newer?: string): string {
  const items = posts.length ? posts.map((p) => articleHtml(p, false)).join('\n') : '<p>Nothing has been published yet.</p>';
  const nav = navHtml('Posts', older ? { url: older, text: 'Older posts' } : undefined, newer ? { url: newer, text: 'Newer posts' } : undefined);
  return nav ? `${items}\n${nav}` : items;
}

export function notFoundHtml(site: SiteIdentity): string {
  return `<section class="error-404 not-found">
<h1 class="page-title">Nothing here</h1>
<p>It looks like nothing was found at this location. Try the <a href="${escapeAttr(site.home + '/')}">home page</a>.</p>
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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * PHP date() formatting of a site-local 'YYYY-MM-DD HH:MM:SS' for date_format / time_format: the
 * characters WordPress's settings screen offers; `\x` escapes, anything else prints as is.
 */
export function formatLocalDate(format: string, local: string): string {
  const [y, mo, d, h, mi, s] = [0, 5, 8, 11, 14, 17].map((at, i) => Number(local.slice(at, i === 0 ? 4 : at + 2)) || 0);
  const weekday = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
  const pad = (n: number) => String(n).padStart(2, '0');
  const h12 = h % 12 || 12;
  const suffix = d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th';
  const parts: Record<string, string> = {
    d: pad(d), j: String(d), S: suffix, D: DAYS[weekday].slice(0, 3), l: DAYS[weekday], N: String(weekday || 7), w: String(weekday),
    F: MONTHS[mo - 1] ?? '', M: (MONTHS[mo - 1] ?? '').slice(0, 3), m: pad(mo), n: String(mo),
    Y: String(y), y: pad(y % 100),
    a: h < 12 ? 'am' : 'pm', A: h < 12 ? 'AM' : 'PM', g: String(h12), h: pad(h12), G: String(h), H: pad(h), i: pad(mi), s: pad(s),
  };
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    if (c === '\\' && i + 1 < format.length) out += format[++i];
    else out += parts[c] ?? c;
  }
  return out;
}
