import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * The one theme this server renders, read as WordPress reads a theme's folder: the headers of its
 * style.css (get_file_data), its theme.json, its block templates (`templates/*.html`) and template
 * parts (`parts/*.html`), and the features it supports (add_theme_support). Read once, at load.
 */

const THEME_DIR = new URL('../site/theme/', import.meta.url);

/** The theme's folder name: its stylesheet, which identifies it (get_stylesheet), and its template, as it has no parent. */
export const STYLESHEET = 'default';

/** The style.css headers WP_Theme reads, by their WordPress names. */
const HEADERS = {
  Name: 'Theme Name',
  ThemeURI: 'Theme URI',
  Description: 'Description',
  Author: 'Author',
  AuthorURI: 'Author URI',
  Version: 'Version',
  Tags: 'Tags',
  TextDomain: 'Text Domain',
  RequiresWP: 'Requires at least',
  RequiresPHP: 'Requires PHP',
} as const;

export type ThemeHeaders = Record<Exclude<keyof typeof HEADERS, 'Tags'>, string> & { Tags: string[] };

/** get_file_data over the first 8 KB: each header on a line of its own, comment markers before it ignored. */
function fileHeaders(text: string): ThemeHeaders {
  const head = text.slice(0, 8192).replace(/\r/g, '\n');
  const out: Record<string, unknown> = {};
  for (const [key, label] of Object.entries(HEADERS)) {
    const m = new RegExp(`^[ \\t/*#@]*${label}:(.*)$`, 'mi').exec(head);
    // _cleanup_header_comment: a closing comment on the same line is not part of the value
    out[key] = m ? m[1].replace(/\s*(?:\*\/|\?>).*/, '').trim() : '';
  }
  // WP_Theme: Tags are a comma-separated list
  out.Tags = String(out.Tags).split(',').map((t) => t.trim()).filter(Boolean);
  return out as ThemeHeaders;
}

export const THEME_HEADERS: ThemeHeaders = fileHeaders(readFileSync(new URL('style.css', THEME_DIR), 'utf8'));

/** The theme's theme.json (settings, styles, the areas and titles of its template parts). */
export interface ThemeJson {
  version: number;
  settings: Record<string, unknown>;
  styles: Record<string, unknown>;
  templateParts?: { name: string; title?: string; area?: string }[];
  customTemplates?: { name: string; title?: string; postTypes?: string[] }[];
}

export const THEME_JSON: ThemeJson = JSON.parse(readFileSync(new URL('theme.json', THEME_DIR), 'utf8'));

/** The theme's style variations (`styles/*.json`, by file name), as decoded; this theme ships none so far. */
export const THEME_STYLE_FILES: readonly { name: string; json: unknown }[] = existsSync(new URL('styles/', THEME_DIR))
  ? readdirSync(new URL('styles/', THEME_DIR))
      .filter((f) => f.toLowerCase().endsWith('.json'))
      .sort()
      .map((f) => ({ name: f.slice(0, -5), json: JSON.parse(readFileSync(new URL(`styles/${f}`, THEME_DIR), 'utf8')) }))
  : [];

/** A template or template part file of the theme (what _get_block_templates_files lists). */
export interface ThemeFile {
  slug: string;
  content: string;
  /** From theme.json: a part's title and area, a custom template's title and post types. */
  title?: string;
  area?: string;
  postTypes?: string[];
}

/** The template part areas WordPress allows (get_allowed_block_template_part_areas); anything else is uncategorized. */
const PART_AREAS = ['uncategorized', 'header', 'footer'] as const;

/** _filter_block_template_part_area */
export const partArea = (area: string): string => ((PART_AREAS as readonly string[]).includes(area) ? area : 'uncategorized');

function themeFiles(folder: 'templates' | 'parts'): ThemeFile[] {
  const dir = new URL(`${folder}/`, THEME_DIR);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => {
      const slug = f.slice(0, -5);
      const file: ThemeFile = { slug, content: readFileSync(new URL(f, dir), 'utf8') };
      if (folder === 'parts') {
        // _add_block_template_part_area_info
        const declared = THEME_JSON.templateParts?.find((p) => p.name === slug);
        if (declared?.area) {
          file.title = declared.title;
          file.area = partArea(declared.area);
        } else file.area = 'uncategorized';
      } else {
        // _add_block_template_info
        const custom = THEME_JSON.customTemplates?.find((t) => t.name === slug);
        if (custom) {
          file.title = custom.title;
          file.postTypes = custom.postTypes;
        }
      }
      return file;
    });
}

/** The theme's files by template type, in path order. */
export const THEME_FILES: Readonly<Record<'templates' | 'parts', readonly ThemeFile[]>> = {
  templates: themeFiles('templates'),
  parts: themeFiles('parts'),
};

/**
 * The theme's features, by their REST names in WordPress's registration order
 * (create_initial_theme_features): what this theme renders. Block-template themes get
 * post-thumbnails, responsive-embeds, editor-styles, html5 and automatic-feed-links from
 * _add_default_theme_supports; the site also writes its own `<title>` (title-tag) and offers its
 * templates and parts (block-templates, block-template-parts). Unsupported features show their
 * schema default.
 */
export const THEME_SUPPORTS: Readonly<Record<string, unknown>> = {
  'align-wide': false,
  'automatic-feed-links': true,
  'block-templates': true,
  'block-template-parts': true,
  'custom-background': false,
  'custom-header': false,
  'custom-logo': false,
  'customize-selective-refresh-widgets': false,
  'dark-editor-style': false,
  'disable-custom-colors': false,
  'disable-custom-font-sizes': false,
  'disable-custom-gradients': false,
  'disable-layout-styles': false,
  'editor-color-palette': false,
  'editor-font-sizes': false,
  'editor-gradient-presets': false,
  'editor-styles': true,
  html5: ['comment-form', 'comment-list', 'search-form', 'gallery', 'caption', 'style', 'script'],
  formats: ['standard'],
  'post-thumbnails': true,
  'responsive-embeds': true,
  'title-tag': true,
  'wp-block-styles': false,
};
