import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';

/**
 * The site icon and logo as WordPress 6.1 shows them: the settings (null until stored), the root
 * index (add_site_logo_to_index, add_site_icon_to_index: the ids, the icon's full-size URL and an
 * embeddable wp:featuredmedia link each), and wp_site_icon's tags in every page's head, each at
 * the size get_site_icon_url picks from the attachment's generated sizes (image_get_intermediate_size).
 */

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } }).png().toBuffer();

const HELP = { href: 'https://developer.wordpress.org/rest-api/' };
const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

describe('the site icon and logo', () => {
  const site = useServer();

  const upload = async (name: string, width: number, height: number) => {
    const res = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: await png(width, height), headers: { authorization: site.admin, 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` } });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: number; source_url: string };
  };
  /** The tags between the theme's own and `</head>` that name an icon. */
  const iconTags = async () => {
    const html = await (await fetch(`${site.home}/`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    return head.split('\n').filter((line) => /rel="icon"|apple-touch-icon|msapplication-TileImage/.test(line));
  };
  const index = async (auth?: string) => (await site.call('', auth ? { auth } : {})).json();

  it('has none on a new site: the settings say null for the logo and 0 for the icon, the index 0 and no link, the head no icon', async () => {
    const settings = await site.json('cms/v2/settings');
    // WordPress 6.1.9 after its install, GET wp/v2/settings: "site_logo": null (no option), "site_icon": 0 (populate_options stores 0)
    assert.equal(settings.site_logo, null);
    assert.equal(settings.site_icon, 0);
    const anonymous = await index();
    assert.deepEqual([anonymous.site_logo, anonymous.site_icon, anonymous.site_icon_url], [0, 0, '']);
    assert.deepEqual(anonymous._links, { help: [HELP] });
    assert.deepEqual(await iconTags(), []);
  });

  it('shows a square icon at the sizes WordPress picks, in the index and the head', async () => {
    const icon = await upload('Site Icon.png', 512, 512);
    const folder = icon.source_url.slice(0, icon.source_url.lastIndexOf('/') + 1);
    const res = await site.call('cms/v2/settings', { json: { site_icon: icon.id }, auth: site.admin });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).site_icon, icon.id);

    const anonymous = await index();
    assert.deepEqual([anonymous.site_logo, anonymous.site_icon, anonymous.site_icon_url], [0, icon.id, `${folder}Site-Icon.png`]);
    assert.deepEqual(anonymous._links, { help: [HELP], 'wp:featuredmedia': [{ embeddable: true, type: 'site_icon', href: `${site.api}cms/v2/media/${icon.id}` }], curies: CURIES });
    // 32 px: the 150 px thumbnail (the smallest square at least that large); 192, 180, 270: the 300 px medium size
    assert.deepEqual(await iconTags(), [
      `<link rel="icon" href="${folder}Site-Icon-150x150.png" sizes="32x32" />`,
      `<link rel="icon" href="${folder}Site-Icon-300x300.png" sizes="192x192" />`,
      `<link rel="apple-touch-icon" href="${folder}Site-Icon-300x300.png" />`,
      `<meta name="msapplication-TileImage" content="${folder}Site-Icon-300x300.png" />`,
    ]);
  });

  it('falls back to the full image where no generated size has the icon’s ratio', async () => {
    const wide = await upload('Wide.png', 600, 400);
    const folder = wide.source_url.slice(0, wide.source_url.lastIndexOf('/') + 1);
    await site.json('cms/v2/settings', { json: { site_icon: wide.id } });
    // the 150 px square thumbnail serves 32 px; 300×200 is not square and the thumbnail too small for the others
    assert.deepEqual(await iconTags(), [
      `<link rel="icon" href="${folder}Wide-150x150.png" sizes="32x32" />`,
      `<link rel="icon" href="${folder}Wide.png" sizes="192x192" />`,
      `<link rel="apple-touch-icon" href="${folder}Wide.png" />`,
      `<meta name="msapplication-TileImage" content="${folder}Wide.png" />`,
    ]);
  });

  it('lists the logo before the icon, and the active theme after help for a user who may see it', async () => {
    const logo = await upload('Logo.png', 400, 100);
    const { site_icon: iconId } = await site.json('cms/v2/settings', { json: { site_logo: logo.id } });
    const media = (id: number, type: string) => ({ embeddable: true, type, href: `${site.api}cms/v2/media/${id}` });
    const anonymous = await index();
    assert.equal(anonymous.site_logo, logo.id);
    assert.deepEqual(anonymous._links, { help: [HELP], 'wp:featuredmedia': [media(logo.id, 'site_logo'), media(iconId, 'site_icon')], curies: CURIES });
    const admin = await index(site.admin);
    assert.deepEqual(Object.keys(admin._links), ['help', 'wp:active-theme', 'wp:featuredmedia', 'curies']);
    // unset again: null in the settings, 0 in the index, no tags
    await site.json('cms/v2/settings', { json: { site_logo: null, site_icon: null } });
    assert.deepEqual([(await index()).site_logo, (await index()).site_icon], [0, 0]);
    assert.deepEqual(await iconTags(), []);
  });

  it('has no icon once the icon’s image is deleted (WP_Site_Icon::delete_attachment_data)', async () => {
    const icon = await upload('Gone.png', 256, 256);
    await site.json('cms/v2/settings', { json: { site_icon: icon.id } });
    assert.equal((await iconTags()).length, 4);
    await site.json(`cms/v2/media/${icon.id}?force=true`, { method: 'DELETE' });
    assert.equal((await site.json('cms/v2/settings')).site_icon, null);
    assert.deepEqual([(await index()).site_icon, (await index()).site_icon_url], [0, '']);
    assert.deepEqual(await iconTags(), []);
  });
});
