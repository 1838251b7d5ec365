import type { Logger } from '../../engine/types.ts';
import { doShortcode, stripShortcodes, type ShortcodeHandler } from '../../format/shortcodes.ts';
import type { PageContext, ShortcodeContext, ShortcodeRenderer, Site } from '../site.ts';
import { captionShortcode } from './caption.ts';
import { galleryShortcode } from './gallery.ts';
import { audioShortcode, videoShortcode } from './media-players.ts';
import { playlistShortcode } from './playlist.ts';

/**
 * $shortcode_tags: the core's shortcodes (media.php's, in their add_shortcode order) and each
 * active plugin's after them. `[embed]` is rendered at the_content's priority 8 (src/core/embeds.ts);
 * what is left of it by priority 11 (`[[embed]]` written out, an unclosed one) meets
 * class-wp-embed.php's placeholder, which renders nothing.
 */
const CORE_RENDERERS: Readonly<Record<string, ShortcodeRenderer>> = {
  wp_caption: captionShortcode,
  caption: captionShortcode,
  gallery: galleryShortcode,
  playlist: playlistShortcode,
  audio: audioShortcode,
  video: videoShortcode,
  embed: () => '',
};
const CORE_NAMES = ['wp_caption', 'caption', 'gallery', 'playlist', 'audio', 'video', 'embed'];

/** Every registered shortcode name: the core's, then each active plugin's. */
export const shortcodeNames = (site: Site): string[] => [...CORE_NAMES, ...site.hooks.flatMap((ext) => Object.keys(ext.hooks.shortcodes ?? {}))];

/** The renderers do_shortcode calls, a plugin's that throws logged and rendering nothing. */
function renderers(site: Site, log: Logger): Map<string, ShortcodeRenderer> {
  const all = new Map<string, ShortcodeRenderer>(Object.entries(CORE_RENDERERS));
  for (const ext of site.hooks) {
    for (const [name, render] of Object.entries(ext.hooks.shortcodes ?? {})) {
      all.set(name, async (atts, content, tag, ctx) => {
        try {
          return await render(atts, content, tag, ctx);
        } catch (e) {
          log.error(`shortcode [${tag}] of plugin ${ext.plugin} failed: ${e instanceof Error ? e.message : String(e)}`);
          return '';
        }
      });
    }
  }
  return all;
}

/** do_shortcode on the page's content: every registered shortcode rendered, its counters starting at 1. */
export async function renderShortcodes(html: string, page: PageContext, log: Logger): Promise<string> {
  if (!html.includes('[')) return html;
  const counters = new Map<string, number>();
  const handlers = new Map<string, ShortcodeHandler>();
  const ctx: ShortcodeContext = {
    page,
    doShortcode: (text) => doShortcode(text, handlers),
    instance(counter) {
      const n = (counters.get(counter) ?? 0) + 1;
      counters.set(counter, n);
      return n;
    },
  };
  for (const [name, render] of renderers(page.site, log)) handlers.set(name, (atts, content, tag) => render(atts, content, tag, ctx));
  return doShortcode(html, handlers);
}

/** strip_shortcodes: every registered shortcode taken out with what it encloses. */
export const stripRegisteredShortcodes = (text: string, site: Site): Promise<string> => stripShortcodes(text, shortcodeNames(site));
