import type { RenderedBlock } from '../../blocks.ts';
import { escapeHtml } from '../../../format/format.ts';
import services from './social-services.json' with { type: 'json' };
import { escUrl } from '../../../format/esc-url.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * The Social Icons block's links: each service's name and icon (block_core_social_link_services of
 * WordPress 6.1, as data in social-services.json; an unknown service is `share`'s), with the
 * colours, new-tab switch and labels the Social Icons block around it provides as context.
 */

type Service = { name: string; icon: string };
const SERVICES: Readonly<Record<string, Service>> = services;
const serviceOf = (slug: string): Service => SERVICES[slug] ?? SERVICES.share;

/** is_email: a local part of the allowed characters, an `@`, and a domain of two or more dot-separated labels of letters, digits and hyphens. */
function isEmail(text: string): boolean {
  if (text.length < 6 || text.indexOf('@', 1) < 0) return false;
  const [local, domain] = [text.slice(0, text.indexOf('@')), text.slice(text.indexOf('@') + 1)];
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+$/.test(local) || /\.{2}/.test(domain)) return false;
  const labels = domain.replace(/^[\s.]+|[\s.]+$/g, '').split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9-]+$/i.test(l.replace(/^[\s-]+|[\s-]+$/g, '')) && l.replace(/^[\s-]+|[\s-]+$/g, '') !== '');
}

/** render_block_core_social_link: the link as a list item with the service's icon and its label (for screen readers unless labels show). */
export function socialLink(block: RenderedBlock): string {
  const a = block.attributes;
  const context = block.context;
  const slug = typeof a.service === 'string' ? a.service : 'Icon';
  let url = typeof a.url === 'string' ? a.url : '';
  if (!url) return '';
  const label = typeof a.label === 'string' ? a.label : serviceOf(slug).name;
  if (isEmail(url)) url = `mailto:${url}`;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(url) && !url.startsWith('//')) url = `https://${url}`;
  const relTarget = context.openInNewTab ? 'rel="noopener nofollow" target="_blank"' : '';
  // block_core_social_link_get_color_styles: the colours the Social Icons block chose
  let style = '';
  if ('iconColorValue' in context) style += `color: ${String(context.iconColorValue)}; `;
  if ('iconBackgroundColorValue' in context) style += `background-color: ${String(context.iconBackgroundColorValue)}; `;
  const wrapper = wrapperAttributes(block, { class: `wp-social-link wp-social-link-${slug}`, style });
  const labelClass = context.showLabels ? '' : ' screen-reader-text';
  return `<li ${wrapper}><a href="${escUrl(url)}" ${relTarget} class="wp-block-social-link-anchor">${serviceOf(slug).icon}<span class="wp-block-social-link-label${labelClass}">${escapeHtml(label)}</span></a></li>`;
}
