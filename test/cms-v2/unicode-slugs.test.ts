import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

/**
 * Slugs as sanitize_title saves them (WordPress 6.1.9's remove_accents and
 * sanitize_title_with_dashes): letters of other scripts percent-encoded as UTF-8, Latin accents
 * folded. Each expected slug is WordPress's sanitize_title of the same text; the Greek title with
 * a capital is the Theme Unit Test data's, whose slug (`%ce%b5%cf%80…`) a WordPress on PHP with
 * mbstring made: the reference WordPress's PHP has no mbstring and leaves the capital (`%ce%95`).
 */

const server = useServer();

type Obj = Record<string, any>;

describe('non-ASCII slugs, percent-encoded as sanitize_title stores them', () => {
  it('encodes a post’s slug made from its title, and serves the post at that address', async () => {
    const post: Obj = await server.json('cms/v2/posts', { method: 'POST', json: { title: 'Επίπεδο 2 -Second Greek level', status: 'publish', content: 'Level two' } }, 201);
    assert.equal(post.slug, '%ce%b5%cf%80%ce%af%cf%80%ce%b5%ce%b4%ce%bf-2-second-greek-level');
    assert.ok(post.link.endsWith('/%ce%b5%cf%80%ce%af%cf%80%ce%b5%ce%b4%ce%bf-2-second-greek-level/'), post.link);
    const page = await fetch(post.link);
    assert.equal(page.status, 200);
    assert.ok((await page.text()).includes('Level two'));
    // the slug filter is sanitized as wp_parse_slug_list does: the text as typed finds it
    const found: Obj[] = await server.json(`cms/v2/posts?slug=${encodeURIComponent('επίπεδο-2-second-greek-level')}`);
    assert.deepEqual(found.map((p) => p.id), [post.id]);
  });

  it('folds Latin accents, drops quotes, turns dashes and slashes into hyphens, keeps octets and encodes the rest', async () => {
    // WordPress 6.1.9's sanitize_title of each
    const cases: [string, string][] = [
      ['Ünïcode Straße & Æon', 'unicode-strase-aeon'],
      ['“Quotes” — and ‘more’…', 'quotes-and-more'],
      ['café/bar.baz', 'cafe-bar-baz'],
      ['日本語のタイトル', '%e6%97%a5%e6%9c%ac%e8%aa%9e%e3%81%ae%e3%82%bf%e3%82%a4%e3%83%88%e3%83%ab'],
      ['100% sure 50%off', '100-sure-50off'],
      ['x × y', 'x-x-y'],
      ['Ölçü şişli', 'olcu-sisli'],
      ['emoji 😀 here', 'emoji-%f0%9f%98%80-here'],
    ];
    for (const [name, slug] of cases) {
      const tag: Obj = await server.json('cms/v2/tags', { method: 'POST', json: { name } }, 201);
      assert.equal(tag.slug, slug, name);
    }
  });
});
