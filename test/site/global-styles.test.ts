import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useServer } from '../helpers/server.ts';

// The global stylesheet every page prints (wp_enqueue_global_styles → wp_get_global_stylesheet):
// the presets of WordPress's own theme.json, the theme's and the site's, as custom properties and
// classes. Expected: what WordPress 6.1.9 prints for this theme's theme.json (test/fixtures/wordpress-6.1/README.md
// says how each file was read off it).

const server = useServer();

const wordpress = (name: string) => readFileSync(new URL(`../fixtures/wordpress-6.1/${name}`, import.meta.url), 'utf8');

async function globalStylesheet(path = '/'): Promise<string | undefined> {
  const page = await (await fetch(`${server.home}${path}`)).text();
  return /<style id="global-styles-inline-css">\n([^<]*)\n<\/style>/.exec(page)?.[1];
}

describe('the global stylesheet', () => {
  it('prints WordPress’s default presets and the theme’s, spacing sizes included, on every page', async () => {
    const expected = wordpress('global-stylesheet-theme.css');
    assert.equal(await globalStylesheet('/'), expected);
    assert.equal(await globalStylesheet('/no-such-page/'), expected, 'the 404 page too');
    // what a block's saved markup refers to (a spacer of spacing 50, a red text, a large font size)
    assert.match(expected, /--wp--preset--spacing--50: 1\.5rem;/);
    assert.match(expected, /\.has-vivid-red-color\{color: var\(--wp--preset--color--vivid-red\) !important;\}/);
    assert.match(expected, /\.has-large-font-size\{font-size: var\(--wp--preset--font-size--large\) !important;\}/);
    // the theme names no colour `text`, `border` or `link`: their classes would be the ones WordPress
    // gives every block of a custom colour, and would force the preset over that colour
    assert.doesNotMatch(expected, /\.has-(text|border|link)-color\{/);
  });

  it('merges the site’s own settings over them: presets, a spacing scale and custom properties', async () => {
    const theme = await (await server.call('cms/v2/themes/default', { auth: server.admin })).json();
    const id = Number(/(\d+)$/.exec(theme._links['wp:user-global-styles'][0].href)![1]);
    const settings = {
      color: { palette: [{ slug: 'brand', color: '#123456', name: 'Brand' }, { slug: 'black', color: '#111111', name: 'Ink' }] },
      typography: { fontSizes: [{ slug: 'hugeText', size: '4rem', name: 'Huge' }] },
      spacing: { spacingScale: { steps: 5, operator: '+', increment: 0.5 } },
      custom: { lineHeight: { body: 1.7 }, gap: '2rem' },
    };
    const saved = await server.call(`cms/v2/global-styles/${id}`, { method: 'POST', json: { settings }, auth: server.admin });
    assert.equal(saved.status, 200, await saved.text());
    assert.equal(await globalStylesheet('/'), wordpress('global-stylesheet-user.css'));
  });
});
