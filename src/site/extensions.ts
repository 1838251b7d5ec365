import type { Store } from '../store/index.ts';
import type { Site } from '../engine/site.ts';
import { oembedDiscoveryLinks } from '../oembed/discovery-links.ts';
import { snippetsExtension } from '../snippets/site.ts';

/** What a server-rendered page is about, handed to every extension. */
export interface PageContext {
  store: Store;
  site: Site;
  /** 'home' | 'post' | 'page' | 'embed' | '404' */
  kind: string;
  /** The post shown, when there is one. */
  postId?: number;
  /** The page's canonical URL. */
  url: string;
}

/**
 * A plugin's hooks into the rendered site (wp_head, wp_footer, the_content). Each returns HTML
 * to add, or the filtered content.
 */
export interface SiteExtension {
  name: string;
  head?(ctx: PageContext): Promise<string> | string;
  footer?(ctx: PageContext): Promise<string> | string;
  filterContent?(html: string, ctx: PageContext): Promise<string> | string;
}

/** The extensions in the order their output appears; plugin modules add themselves here. */
export const siteExtensions: SiteExtension[] = [oembedDiscoveryLinks, snippetsExtension];
