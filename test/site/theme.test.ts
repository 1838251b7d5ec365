import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { addContent, DATED_PERMALINKS, setOptions, sitePage } from './content.ts';

const { browser, label } = await launchBrowser();
after(() => browser.close());


const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const REGIONS = { header: '.site-header', title: '.site-title', nav: '.main-navigation', main: '.site-main', sidebar: '.widget-area', footer: '.site-footer' };

/** What the layout checks read off a rendered page: the boxes of the theme's regions and the page's width. */
async function layoutOf(page: Page) {
  // no named functions inside: the test loader would wrap them in a helper the page does not have
  const read = await page.evaluate((regions) => ({
    viewport: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    bodyFont: getComputedStyle(document.body).fontFamily,
    boxes: Object.entries(regions).map(([name, selector]) => {
      const r = document.querySelector(selector)?.getBoundingClientRect();
      return [name, r ? { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height } : null] as const;
    }),
  }), REGIONS);
  const boxes = Object.fromEntries(read.boxes) as Record<keyof typeof REGIONS, Box | null>;
  return { ...boxes, viewport: read.viewport, scrollWidth: read.scrollWidth, bodyFont: read.bodyFont };
}

const right = (b: Box) => b.x + b.width;
const bottom = (b: Box) => b.y + b.height;

describe(`the default theme in ${label}`, () => {
  let server: TestServer;
  const pages: Record<string, string> = {};

  before(async () => {
    server = await startTestServer();
    await setOptions(server, { permalink_structure: DATED_PERMALINKS });
    const news = await server.app.store.terms.insert({ taxonomy: 'category', name: 'Neighbourhood News', slug: 'news' });
    const long = 'A paragraph long enough to wrap over several lines on a phone, with a link to the <a href="https://example.org/guide/">neighbourhood guide</a> in it.';
    for (let i = 1; i <= 4; i++) {
      await addContent(server, { title: `Spring market day number ${i} brings stalls to the square`, slug: `market-${i}`, date: `2024-04-0${i} 10:00:00`, categories: [news], content: `${long}\n\n<h2>What to bring</h2>\n\n${long}` });
    }
    for (const [i, title] of ['About us', 'Contact', 'Events calendar', 'Volunteer'].entries()) await addContent(server, { type: 'page', title, slug: title.toLowerCase().replace(/ /g, '-'), menuOrder: i });
    Object.assign(pages, { home: '/', single: '/2024/04/01/market-1/', page: '/contact/', archive: '/category/news/', search: '/?s=market', notFound: '/no-such-page/' });
  });
  after(() => server?.close());

  for (const [name, viewport] of Object.entries(WIDTHS)) {
    test(`${name} (${viewport.width}px): header, menu, main column, widgets and footer in place, nothing wider than the screen`, async (t) => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      try {
        for (const [kind, path] of Object.entries(pages)) {
          const res = await page.goto(server.home + path);
          assert.equal(res?.status(), kind === 'notFound' ? 404 : 200, path);
          await screenshot(page, `cms-spec-theme-screenshots/${name}-${kind}.png`, t);
          const l = await layoutOf(page);
          assert.ok(l.header && l.title && l.nav && l.main && l.sidebar && l.footer, `${path}: every region is there`);
          assert.match(l.bodyFont, /system-ui/, `${path}: the theme's stylesheet applies`);
          assert.ok(l.scrollWidth <= l.viewport, `${path}: no horizontal overflow (${l.scrollWidth} > ${l.viewport})`);
          for (const b of [l.header, l.main, l.sidebar, l.footer]) assert.ok(b.x >= 0 && right(b) <= l.viewport + 0.5, `${path}: a region sticks out of the screen`);
          const volunteer = page.locator('.main-navigation a', { hasText: 'Volunteer' });
          const toggle = page.locator('.main-navigation .menu-toggle');
          if (name === 'desktop') {
            assert.ok(await volunteer.isVisible(), `${path}: the whole menu is visible`);
            assert.ok(!(await toggle.isVisible()), `${path}: no menu button on a wide screen`);
          } else {
            // folded behind its button: the header stays one row (it wrapped to four lines with seven pages)
            assert.ok(!(await volunteer.isVisible()), `${path}: the menu is folded`);
            assert.ok(await toggle.isVisible(), `${path}: the menu button shows`);
            assert.ok(l.header.height < 110, `${path}: a header of one row, not ${l.header.height}px`);
          }
          assert.ok(bottom(l.header) <= l.main.y && bottom(l.header) <= l.sidebar.y, `${path}: the header is above the content`);
          if (name === 'desktop') {
            assert.ok(l.sidebar.x >= right(l.main), `${path}: the widgets are beside the main column`);
            assert.ok(Math.abs(l.sidebar.y - l.main.y) < 2, `${path}: side by side, top-aligned`);
            assert.ok(l.main.width >= 500, `${path}: the main column is the wide one`);
          } else {
            assert.ok(l.sidebar.y >= bottom(l.main), `${path}: the widgets come after the main column`);
            assert.ok(l.main.width >= viewport.width - 64, `${path}: the main column takes the screen's width`);
          }
          assert.ok(l.footer.y >= Math.max(bottom(l.main), bottom(l.sidebar)), `${path}: the footer is last`);
        }
      } finally {
        await context.close();
      }
    });
  }

  test('keyboard: the first Tab shows a skip link to the content; the search form submits to search results', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    const page = await context.newPage();
    try {
      await page.goto(server.home + pages.single);
      await page.keyboard.press('Tab');
      const skip = page.locator('.skip-link');
      assert.ok(await skip.evaluate((el) => el === document.activeElement));
      const box = (await skip.boundingBox())!;
      assert.ok(box.width > 50 && box.height > 20, 'the focused skip link is visible');
      await page.fill('#sidebar-search', 'stalls');
      await Promise.all([page.waitForURL('**/?s=stalls'), page.press('#sidebar-search', 'Enter')]);
      assert.match((await page.textContent('.page-title')) ?? '', /Search Results for: “stalls”/);
      assert.equal(await page.locator('.site-main article').count(), 4);
    } finally {
      await context.close();
    }
  });

  test('phone: the menu button opens the menu by keyboard and pointer, says so to screen readers, and Escape closes it', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone });
    const page = await context.newPage();
    try {
      await page.goto(server.home + pages.single);
      const toggle = page.locator('.main-navigation .menu-toggle');
      const volunteer = page.locator('.main-navigation a', { hasText: 'Volunteer' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.equal(await toggle.getAttribute('aria-controls'), await page.locator('.main-navigation .menu').getAttribute('id'));
      // Tab past the skip link and the site's name to the button, open it with Enter
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      assert.ok(await toggle.evaluate((el) => el === document.activeElement), 'the button is the third stop');
      await page.keyboard.press('Enter');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.ok(await volunteer.isVisible(), 'open, the menu shows every page');
      await screenshot(page, 'cms-spec-theme-screenshots/phone-menu-open.png');
      await page.keyboard.press('Escape');
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      assert.ok(!(await volunteer.isVisible()));
      assert.ok(await toggle.evaluate((el) => el === document.activeElement), 'Escape gives focus back to the button');
      await toggle.click();
      await volunteer.click();
      assert.equal(new URL(page.url()).pathname, '/volunteer/');
    } finally {
      await context.close();
    }
  });

  test('without script the phone menu is not folded away', async () => {
    const context = await browser.newContext({ viewport: WIDTHS.phone, javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(server.home + pages.single);
      assert.ok(await page.locator('.main-navigation a', { hasText: 'Volunteer' }).isVisible());
      assert.ok(!(await page.locator('.main-navigation .menu-toggle').isVisible()));
    } finally {
      await context.close();
    }
  });

  test('the stylesheet is linked from every page with its version and cached for good at that URL', async () => {
    const hrefs = new Set<string>();
    for (const path of Object.values(pages)) {
      const html = await (await sitePage(server, path)).text();
      const href = /<link rel="stylesheet" id="theme-style" href="([^"]+)"/.exec(html)?.[1];
      assert.ok(href, path);
      hrefs.add(href);
    }
    assert.equal(hrefs.size, 1);
    const [href] = hrefs;
    assert.match(href, /\/cms-content\/themes\/default\/style\.css\?ver=[0-9a-f]{12}$/);
    const res = await fetch(href);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/css; charset=UTF-8');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.match(await res.text(), /\.widget-area/);
    const unversioned = await fetch(`${server.home}/cms-content/themes/default/style.css`);
    assert.equal(unversioned.headers.get('cache-control'), 'public, no-cache');
    const revalidated = await fetch(`${server.home}/cms-content/themes/default/style.css`, { headers: { 'if-none-match': unversioned.headers.get('etag')! } });
    assert.equal(revalidated.status, 304);
  });
});
