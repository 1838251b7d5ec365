import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { useServer } from '../../helpers/server.ts';
import { launchBrowser } from '../../helpers/browser.ts';
import { setEnv } from '../../helpers/env.ts';
import { addContent } from '../../site/content.ts';
import { KadenceServices } from './fakes.ts';

const { browser, label } = await launchBrowser();
after(() => browser.close());

/**
 * A starter site imported (pages, menus, settings) and a site icon chosen, then the home page
 * looked at in a browser: what a visitor sees is what the import and the settings said they did.
 */
describe(`an imported starter on the rendered site, in ${label}`, () => {
  const services = new KadenceServices();
  let restoreEnv = () => {};
  before(() => (restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' })));
  after(() => restoreEnv());
  const site = useServer({ variant: 'B' }, async (s) => {
    await services.start();
    await s.app.store.options.set('design_library_starter_base_url', `${services.base}/base/`);
    // more posts than the starter's posts_per_page (7) lets the blog show
    for (let i = 1; i <= 9; i++) await addContent(s, { title: `Clinic news ${i}`, slug: `clinic-news-${i}`, date: `2024-05-0${i} 09:00:00` });
  });
  after(() => services.close());
  const starter = async (path: string, json: unknown) => {
    const res = await site.call(`designkit-starter-library/v1/${path}`, { method: 'POST', json, auth: site.admin });
    assert.equal(res.status, 200, path);
    return res.json();
  };

  it('shows the starter’s menu in the header, its CSS and tagline, its posts per page, and the site icon', async () => {
    const [home, about] = await starter('install-pages', { pages: [{ title: 'Home', content: '<p>Welcome</p>' }, { title: 'About', content: '<p>About us</p>' }] });
    await starter('install-navigation?key=site1', {});
    await starter('install-settings?key=site1', {});
    const upload = await fetch(`${site.api}cms/v2/media`, {
      method: 'POST',
      body: await sharp({ create: { width: 512, height: 512, channels: 3, background: { r: 51, g: 102, b: 153 } } }).png().toBuffer(),
      headers: { authorization: site.admin, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="tooth.png"' },
    });
    assert.equal(upload.status, 201);
    await site.json('cms/v2/settings', { json: { site_icon: (await upload.json()).id } });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      assert.equal((await page.goto(`${site.home}/`))?.status(), 200);
      // the menu assigned to the theme's primary location, its items linking where the import pointed them
      const menu = page.locator('.main-navigation #menu-main-menu');
      assert.ok(await menu.isVisible(), 'the starter’s menu is in the header');
      const topLinks = await menu.locator(':scope > li > a').evaluateAll((links) => links.map((a) => [a.textContent, (a as HTMLAnchorElement).href]));
      assert.deepEqual(topLinks, [['Home', home.link], ['About', about.link]]);
      assert.equal(await menu.locator('.sub-menu a', { hasText: 'Team' }).getAttribute('href'), 'https://demo.example/team/');
      // the Additional CSS applies: the site title takes the starter's colour
      assert.equal(await page.locator('.site-title a').evaluate((a) => getComputedStyle(a).color), 'rgb(51, 102, 153)');
      assert.equal(await page.locator('.site-description').textContent(), 'Smiles for everyone');
      assert.equal(await page.locator('.site-main article').count(), 7, 'the starter’s posts_per_page');
      // the site icon's four tags, each naming an image the site serves
      const icons = await page.evaluate(() => [...document.querySelectorAll('link[rel="icon"], link[rel="apple-touch-icon"], meta[name="msapplication-TileImage"]')].map((el) => [el.getAttribute('rel') ?? el.getAttribute('name'), el.getAttribute('sizes'), el.getAttribute('href') ?? el.getAttribute('content')]));
      assert.deepEqual(icons.map(([kind, sizes]) => [kind, sizes]), [['icon', '32x32'], ['icon', '192x192'], ['apple-touch-icon', null], ['msapplication-TileImage', null]]);
      for (const [, , href] of icons) {
        const image = await page.evaluate(async (url) => {
          const res = await fetch(url!);
          return [res.status, res.headers.get('content-type')];
        }, href);
        assert.deepEqual(image, [200, 'image/png'], String(href));
      }
    } finally {
      await context.close();
    }
  });
});
