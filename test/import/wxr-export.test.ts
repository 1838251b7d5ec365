import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ROOT } from '../helpers/server.ts';
import { cms, fails } from '../cli/run.ts';
import { emptySite, importFile, restView, type Site } from './sites.ts';

/**
 * `cms-spec export --format wxr` against WordPress 6.1.9's own export_wp(): WordPress's export of
 * a site (test/fixtures/wxr/wordpress-6.1-export.xml, see its README) imported here and exported
 * again gives WordPress's file back, byte for byte, but for what names the site and what the
 * import numbers anew (see `normalised`).
 */

const FIXTURES = join(ROOT, 'test/fixtures/wxr');
/** The address of the WordPress that wrote the fixture. */
const WORDPRESS = 'http://127.0.0.1:8061';

function exportSite(site: Site, args: string[] = []): string {
  if (site.uploads) process.env.CMS_SPEC_UPLOADS = site.uploads;
  try {
    const r = cms(['export', '--format', 'wxr', '--db', site.db.location, ...args]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /^Exported \d+ posts? from .* as WXR 1\.2 in [\d.]+ s\.$/m);
    return r.stdout;
  } finally {
    delete process.env.CMS_SPEC_UPLOADS;
  }
}

/**
 * What may differ between two exports of the same content: the generator, the time of the export,
 * the site's address and where it keeps uploads, the ids of terms and comments (an import numbers
 * them anew, as WordPress's does; they are replaced by the term's slug and the comment's place in
 * the file, everywhere they are referred to) and the attachment's generated metadata (its file's
 * size and sizes are the new site's).
 */
function normalised(xml: string, ...homes: string[]): string {
  let out = xml
    .replace(/^\t<!-- generator="[^"]*" created="[^"]*" -->$/m, '\t<!-- generator -->')
    .replace(/^\t<generator>.*<\/generator>$/m, '\t<generator/>')
    .replace(/^(\t<description>.*<\/description>\n\t)<pubDate>.*<\/pubDate>$/m, '$1<pubDate/>')
    .replace(new RegExp(homes.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g'), 'http://SITE')
    .replaceAll('http://SITE/wp-content/uploads/', 'http://SITE/UPLOADS/')
    .replaceAll('http://SITE/cms-content/uploads/', 'http://SITE/UPLOADS/')
    .replace(/(<wp:meta_key><!\[CDATA\[_wp_attachment_metadata\]\]><\/wp:meta_key>\n\t\t<wp:meta_value>)<!\[CDATA\[.*?\]\]>/g, '$1METADATA');
  const slugs = new Map<string, string>();
  for (const m of out.matchAll(/<wp:term_id>(\d+)<\/wp:term_id>(?:\n\t\t)?<wp:(?:category_nicename|tag_slug|term_taxonomy>.*?<\/wp:term_taxonomy>(?:\n\t\t)?<wp:term_slug)><!\[CDATA\[(.*?)\]\]>/g)) slugs.set(m[1], m[2]);
  out = out.replace(/<wp:term_id>(\d+)<\/wp:term_id>/g, (_, id: string) => `<wp:term_id>${slugs.get(id)}</wp:term_id>`);
  // a menu item's object is a term when its type is taxonomy
  out = out.replace(/(_menu_item_type\]\]><\/wp:meta_key>\n\t\t<wp:meta_value><!\[CDATA\[taxonomy\]\]>[\s\S]*?_menu_item_object_id\]\]><\/wp:meta_key>\n\t\t<wp:meta_value><!\[CDATA\[)(\d+)/g, (_, before: string, id: string) => `${before}${slugs.get(id)}`);
  // WordPress's importer saves menu items anew (wp_update_nav_menu_item): their dates, GUIDs and
  // dated links are the import's (and one linking to a term has its term's parent as post parent)
  out = out.replace(/<item>\n(?:(?!<\/item>)[\s\S])*?<wp:post_type><!\[CDATA\[nav_menu_item\]\]>[\s\S]*?<\/item>/g, (item) =>
    item
      .replace(/<wp:post_parent>(\d+)</, (whole, id: string) => (id !== '0' && item.includes('<wp:meta_value><![CDATA[taxonomy]]>') ? `<wp:post_parent>${slugs.get(id)}<` : whole))
      .replace(/<pubDate>.*<\/pubDate>/, '<pubDate/>')
      .replace(/<link>.*<\/link>/, '<link/>')
      .replace(/<guid isPermaLink="false">.*<\/guid>/, '<guid/>')
      .replace(/<wp:post_(date|date_gmt|modified|modified_gmt)><!\[CDATA\[.*?\]\]>/g, '<wp:post_$1>'),
  );
  const comments = new Map<string, number>();
  for (const m of out.matchAll(/<wp:comment_id>(\d+)<\/wp:comment_id>/g)) comments.set(m[1], comments.size + 1);
  return out
    .replace(/<wp:comment_id>(\d+)<\/wp:comment_id>/g, (_, id: string) => `<wp:comment_id>#${comments.get(id)}</wp:comment_id>`)
    .replace(/<wp:comment_parent>(\d+)<\/wp:comment_parent>/g, (_, id: string) => `<wp:comment_parent>${id === '0' ? '0' : `#${comments.get(id)}`}</wp:comment_parent>`);
}

/** A copy of the old site's uploads folder with the fixture's one image (4×3, as WordPress's metadata in the file says). */
async function uploadsCopy(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wp-uploads-'));
  mkdirSync(join(dir, '2026/11'), { recursive: true });
  await sharp({ create: { width: 4, height: 3, channels: 3, background: '#ff0000' } }).png().toFile(join(dir, '2026/11/wxr-dot.png'));
  return dir;
}

describe('cms-spec export --format wxr', () => {
  test("WordPress 6.1's export of a site, imported and exported again, is WordPress's file", { timeout: 120_000 }, async () => {
    const site = await emptySite();
    const uploads = await uploadsCopy();
    try {
      const file = join(FIXTURES, 'wordpress-6.1-export.xml');
      importFile(site, file, uploads);
      const ours = exportSite(site);
      let wordpress = readFileSync(file, 'utf8');
      // a page's `default` template is no template here (get_page_template_slug gives '' for both), so it is not written back
      wordpress = wordpress.replaceAll('\t\t<wp:postmeta>\n\t\t<wp:meta_key><![CDATA[_wp_page_template]]></wp:meta_key>\n\t\t<wp:meta_value><![CDATA[default]]></wp:meta_value>\n\t\t</wp:postmeta>\n\t\t\t\t\t', '');
      // the post whose author is no user (0) goes to the importing user, as WordPress's importer gives it
      wordpress = wordpress.replaceAll('<dc:creator><![CDATA[]]></dc:creator>', '<dc:creator><![CDATA[admin]]></dc:creator>');
      // a comment is imported through wp_filter_comment (WP_Import::process_posts), whose
      // pre_comment_content runs wp_rel_ugc (default-filters.php): the default comment, which
      // wp_install_defaults wrote unfiltered, comes back with its link marked as WordPress's importer marks it
      wordpress = wordpress.replace('<a href="https://en.gravatar.com/">Gravatar</a>', '<a href="https://en.gravatar.com/" rel="nofollow ugc">Gravatar</a>');
      // the posts' GUIDs are the old site's, as WordPress's importer keeps them
      const [got, want] = [normalised(ours, site.home, WORDPRESS), normalised(wordpress, WORDPRESS)];
      if (process.env.WXR_DIFF_DIR) for (const [name, text] of Object.entries({ got, want })) writeFileSync(join(process.env.WXR_DIFF_DIR, `${name}.xml`), text);
      assert.equal(got, want);
    } finally {
      rmSync(uploads, { recursive: true, force: true });
      await site.close();
    }
  });

  test('round trip: the Theme Unit Test data imported, exported, and the export imported into a fresh site gives the same site', { timeout: 300_000 }, async () => {
    const [first, second] = [await emptySite(), await emptySite()];
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-wxr-'));
    try {
      importFile(first, join(FIXTURES, 'themeunittestdata.wordpress.xml'));
      const file = join(dir, 'export.xml');
      writeFileSync(file, exportSite(first));
      importFile(second, file);
      const [before, after] = [await restView(first), await restView(second)];
      assert.equal(Object.keys(before.posts).length, 58 + 21, 'the Theme Unit Test data’s posts and pages');
      assert.equal(Object.keys(before.menuItems).length, 70);
      assert.equal(Object.keys(before.comments).length, 33);
      for (const part of Object.keys(before)) assert.deepEqual(after[part], before[part], part);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('refusals: a date that is not YYYY-MM-DD, a post type the site does not have', { timeout: 60_000 }, async () => {
    const site = await emptySite();
    try {
      fails(['export', '--format', 'wxr', '--db', site.db.location, '--start-date', 'yesterday'], /^Error: --start-date takes a date as YYYY-MM-DD, not "yesterday"\.$/);
      fails(['export', '--format', 'wxr', '--db', site.db.location, '--post-type', 'product'], /^Error: --post-type: the site has no post type "product" that can be exported \(all, or one of post, page, attachment, /);
      const pages = exportSite(site, ['--post-type', 'page']);
      // one type: no term lists, as export_wp writes only with `all`
      assert.doesNotMatch(pages, /<wp:category>|<wp:term>/);
    } finally {
      await site.close();
    }
  });
});
