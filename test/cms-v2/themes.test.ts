import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

// WP_REST_Themes_Controller and WP_REST_Global_Styles_Controller (WordPress 6.1) for the theme
// this server renders: who may read it, its headers and supports, and the site's global styles.

let editor: TestUser;
let subscriber: TestUser;

const server = useServer({}, async (s) => {
  editor = await userAuth(s, 'editor');
  subscriber = await userAuth(s, 'subscriber');
});

type Json = Record<string, any>;

async function call(path: string, init: { method?: string; json?: unknown; auth?: string | null } = {}): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await server.call(path, { method: init.method, json: init.json, auth: init.auth === null ? undefined : (init.auth ?? server.admin) });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const error = (code: string, message: string, status: number) => ({ code, message, data: { status } });


describe('cms/v2 themes', () => {
  it('answers the active theme with its style.css headers, status and supports', async () => {
    const { status, body, headers } = await call('cms/v2/themes');
    assert.equal(status, 200);
    assert.equal(headers.get('x-wp-total'), '1');
    assert.equal(headers.get('x-wp-totalpages'), '1');
    assert.equal(body.length, 1);
    const theme = body[0];
    assert.deepEqual(Object.keys(theme), ['stylesheet', 'template', 'requires_php', 'requires_wp', 'textdomain', 'version', 'screenshot', 'author', 'author_uri', 'description', 'name', 'tags', 'theme_uri', 'status', 'theme_supports', '_links']);
    assert.deepEqual({ ...theme, theme_supports: undefined, _links: undefined }, {
      stylesheet: 'default',
      template: 'default',
      requires_php: '',
      requires_wp: '6.1',
      textdomain: 'default',
      version: '1.0.0',
      screenshot: '',
      author: { raw: 'cms-spec', rendered: 'cms-spec' },
      author_uri: { raw: '', rendered: '' },
      description: {
        raw: 'The theme this server renders. One column on phones; from 56em on, the main column with the widgets area beside it.',
        rendered: 'The theme this server renders. One column on phones; from 56em on, the main column with the widgets area beside it.',
      },
      name: { raw: 'cms-spec Default', rendered: 'cms-spec Default' },
      tags: {
        raw: ['blog', 'one-column', 'two-columns', 'right-sidebar', 'accessibility-ready', 'full-site-editing'],
        rendered: 'blog, one-column, two-columns, right-sidebar, accessibility-ready, full-site-editing',
      },
      theme_uri: { raw: '', rendered: '' },
      status: 'active',
      theme_supports: undefined,
      _links: undefined,
    });
    // every feature WordPress 6.1 lists, in its order
    assert.deepEqual(Object.keys(theme.theme_supports), [
      'align-wide', 'automatic-feed-links', 'block-templates', 'block-template-parts', 'custom-background', 'custom-header', 'custom-logo',
      'customize-selective-refresh-widgets', 'dark-editor-style', 'disable-custom-colors', 'disable-custom-font-sizes', 'disable-custom-gradients',
      'disable-layout-styles', 'editor-color-palette', 'editor-font-sizes', 'editor-gradient-presets', 'editor-styles', 'html5', 'formats',
      'post-thumbnails', 'responsive-embeds', 'title-tag', 'wp-block-styles',
    ]);
    assert.equal(theme.theme_supports['block-templates'], true);
    assert.equal(theme.theme_supports['custom-logo'], false);
    assert.deepEqual(theme.theme_supports.formats, ['standard']);
    assert.deepEqual(theme._links.self, [{ href: `${server.api}cms/v2/themes/default` }]);
    assert.deepEqual(theme._links.collection, [{ href: `${server.api}cms/v2/themes` }]);
    assert.match(theme._links['wp:user-global-styles'][0].href, new RegExp(`^${server.api}cms/v2/global-styles/\\d+$`));
    assert.equal(theme._links.curies[0].name, 'wp');

    const one = await call('cms/v2/themes/default');
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, theme);
  });

  it('filters by status', async () => {
    assert.equal((await call('cms/v2/themes?status=active')).body.length, 1);
    const inactive = await call('cms/v2/themes?status=inactive');
    assert.deepEqual(inactive.body, []);
    assert.equal(inactive.headers.get('x-wp-total'), '0');
    const bad = await call('cms/v2/themes?status=broken');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'rest_invalid_param');
  });

  it('lets only theme switchers list themes, and post editors read the active one', async () => {
    assert.deepEqual((await call('cms/v2/themes', { auth: null })).body, error('rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.', 401));
    assert.deepEqual((await call('cms/v2/themes', { auth: editor.auth })).body, error('rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.', 403));
    assert.deepEqual((await call('cms/v2/themes?status=active', { auth: null })).body, error('rest_cannot_view_active_theme', 'Sorry, you are not allowed to view the active theme.', 401));
    assert.deepEqual((await call('cms/v2/themes?status=active', { auth: subscriber.auth })).body, error('rest_cannot_view_active_theme', 'Sorry, you are not allowed to view the active theme.', 403));
    const asEditor = await call('cms/v2/themes?status=active', { auth: editor.auth });
    assert.equal(asEditor.status, 200);
    assert.equal(asEditor.body[0].stylesheet, 'default');
    assert.equal((await call('cms/v2/themes/default', { auth: editor.auth })).status, 200);
    assert.deepEqual((await call('cms/v2/themes/default', { auth: subscriber.auth })).body, error('rest_cannot_view_active_theme', 'Sorry, you are not allowed to view the active theme.', 403));
  });

  it('answers 404 rest_theme_not_found for another theme, after the permission check', async () => {
    assert.deepEqual((await call('cms/v2/themes/twentytwentythree')).body, error('rest_theme_not_found', 'Theme not found.', 404));
    assert.deepEqual((await call('cms/v2/themes/parent/child')).body, error('rest_theme_not_found', 'Theme not found.', 404));
    assert.deepEqual((await call('cms/v2/themes/twentytwentythree', { auth: editor.auth })).body, error('rest_cannot_view_themes', 'Sorry, you are not allowed to view themes.', 403));
  });
});

describe('cms/v2 global styles', () => {
  const stylesId = async () => {
    const theme = (await call('cms/v2/themes/default')).body;
    return Number(/(\d+)$/.exec(theme._links['wp:user-global-styles'][0].href)![1]);
  };

  it('answers the theme’s base settings and styles, and no variations', async () => {
    const { status, body } = await call('cms/v2/global-styles/themes/default');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['settings', 'styles', '_links']);
    assert.deepEqual(body.settings.color.palette.theme.map((c: Json) => c.slug), ['foreground', 'muted', 'background', 'surface', 'divider', 'accent']);
    assert.deepEqual(body.settings.layout, { contentSize: '44rem' });
    assert.deepEqual(body.styles.elements.link, { color: { text: 'var(--wp--preset--color--accent)' } });
    assert.deepEqual(body._links, { self: [{ href: `${server.api}cms/v2/global-styles/themes/default` }] });
    assert.deepEqual((await call('cms/v2/global-styles/themes/default/variations')).body, []);
    for (const path of ['cms/v2/global-styles/themes/other', 'cms/v2/global-styles/themes/other/variations']) {
      assert.deepEqual((await call(path)).body, error('rest_theme_not_found', 'Theme not found.', 404));
    }
    for (const [auth, status] of [[null, 401], [editor.auth, 403]] as const) {
      for (const path of ['cms/v2/global-styles/themes/default', 'cms/v2/global-styles/themes/default/variations']) {
        assert.deepEqual((await call(path, { auth })).body, error('rest_cannot_manage_global_styles', 'Sorry, you are not allowed to access the global styles on this site.', status));
      }
    }
  });

  it('reads the site’s global styles, made with the theme’s first read', async () => {
    const id = await stylesId();
    assert.equal(await stylesId(), id, 'one post per theme');
    const { status, body } = await call(`cms/v2/global-styles/${id}`);
    assert.equal(status, 200);
    assert.deepEqual(body, { id, title: { raw: 'Custom Styles', rendered: 'Custom Styles' }, settings: {}, styles: {}, _links: body._links });
    assert.deepEqual(body._links.self, [{ href: `${server.api}cms/v2/global-styles/${id}` }]);
    assert.deepEqual(body._links['wp:action-edit-css'], [{ href: `${server.api}cms/v2/global-styles/${id}` }]);
    assert.deepEqual((await call(`cms/v2/global-styles/${id}`, { auth: null })).body, error('rest_cannot_view', 'Sorry, you are not allowed to view this global style.', 401));
    assert.deepEqual((await call(`cms/v2/global-styles/${id}`, { auth: editor.auth })).body, error('rest_cannot_view', 'Sorry, you are not allowed to view this global style.', 403));
    assert.deepEqual((await call(`cms/v2/global-styles/${id}?context=edit`, { auth: editor.auth })).body, error('rest_forbidden_context', 'Sorry, you are not allowed to edit this global style.', 403));
  });

  it('answers 404 rest_global_styles_not_found for any other id, before the permission check', async () => {
    const notFound = error('rest_global_styles_not_found', 'No global styles config exist with that id.', 404);
    for (const path of ['cms/v2/global-styles/999999', 'cms/v2/global-styles/abc', 'cms/v2/global-styles/1', 'cms/v2/global-styles/0']) {
      assert.deepEqual((await call(path, { auth: null })).body, notFound, path);
      assert.deepEqual((await call(path, { method: 'POST', json: { title: 'x' } })).body, notFound, path);
    }
  });

  it('writes styles and settings, keeping the other part, and drops what theme.json does not know', async () => {
    const id = await stylesId();
    const presetsOnly = /<style id="global-styles-inline-css">\n([^<]*)\n<\/style>/.exec(await (await fetch(`${server.home}/`)).text())?.[1];
    assert.ok(presetsOnly && !presetsOnly.includes('}body{'), 'no styles of its own yet: the presets only (test/site/global-styles.test.ts)');
    const styled = await call(`cms/v2/global-styles/${id}`, { method: 'POST', json: { styles: { color: { background: '#000000', sparkle: 'yes' }, bogus: 1, elements: { link: { color: { text: '#ff0' }, ':hover': { color: { text: '#fff' } } } } } } });
    assert.equal(styled.status, 200, JSON.stringify(styled.body));
    assert.deepEqual(styled.body.styles, { color: { background: '#000000' }, elements: { link: { color: { text: '#ff0' }, ':hover': { color: { text: '#fff' } } } } });
    assert.deepEqual(styled.body.settings, {});

    const palette = [{ slug: 'brand', color: '#123456', name: 'Brand' }];
    const set = await call(`cms/v2/global-styles/${id}`, { method: 'PUT', json: { settings: { color: { palette } }, title: 'My styles' } });
    assert.deepEqual(set.body.settings, { color: { palette: { custom: palette } } });
    assert.deepEqual(set.body.styles.color, { background: '#000000' });
    assert.deepEqual(set.body.title, { raw: 'My styles', rendered: 'My styles' });
    assert.deepEqual((await call(`cms/v2/global-styles/${id}`)).body.settings, { color: { palette: { custom: palette } } });

    // the site shows them over the theme's stylesheet, after the presets' custom properties (WordPress's first, then the theme's and the site's)
    const page = await (await fetch(`${server.home}/`)).text();
    const css = /<style id="global-styles-inline-css">\n([^<]*)\n<\/style>/.exec(page)?.[1];
    assert.ok(css, 'a global styles element');
    assert.ok(page.indexOf('id="theme-style"') < page.indexOf('global-styles-inline-css'));
    assert.match(css, /^body\{--wp--preset--color--black: #000000;/);
    assert.match(css, /--wp--preset--color--foreground: #1f2328;/);
    assert.match(css, /--wp--preset--color--brand: #123456;/);
    assert.match(css, /--wp--preset--font-family--system: system-ui/);
    assert.match(css, /\}body\{background-color: #000000;color: var\(--wp--preset--color--foreground\);font-family: var\(--wp--preset--font-family--system\);\}/);
    assert.match(css, /a:where\(:not\(\.wp-element-button\)\)\{color: #ff0;\}a:where\(:not\(\.wp-element-button\)\):hover\{color: #fff;\}/);
    // a value that would leave its declaration is not printed
    await call(`cms/v2/global-styles/${id}`, { method: 'POST', json: { styles: { color: { text: 'red;} body{display:none' }, typography: { fontSize: '</style><script>x</script>' } } } });
    const after = await (await fetch(`${server.home}/`)).text();
    assert.doesNotMatch(after, /display:none|<script>x/);
    // the new styles replaced the old ones: the theme's background shows again, the text colour is left out
    assert.match(after, /\}body\{background-color: var\(--wp--preset--color--background\);font-family: var\(--wp--preset--font-family--system\);\}/);

    const bad = await call(`cms/v2/global-styles/${id}`, { method: 'POST', json: { styles: 'red' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'rest_invalid_param');
    assert.deepEqual((await call(`cms/v2/global-styles/${id}`, { method: 'POST', json: { title: 'x' }, auth: editor.auth })).body, error('rest_cannot_edit', 'Sorry, you are not allowed to edit this global style.', 403));
  });
});
