import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT } from '../helpers/server.ts';
import { readWxrFile, type WxrRecord } from '../../src/import/wxr-parser.ts';
import { scanWxr } from '../../src/import/wxr-scan.ts';

/**
 * wordpress-importer's phpunit/tests/parser.php, ported: what its parsers read from its fixtures,
 * read by the importer's streaming parser. The assertions are WordPress's, on the same fields.
 */

const fixture = (name: string) => join(ROOT, 'test/fixtures/wxr', name);

async function parsed(name: string) {
  const records: WxrRecord[] = [];
  for await (const r of readWxrFile(fixture(name))) records.push(r);
  const of = <K extends WxrRecord['kind']>(kind: K) => records.filter((r): r is Extract<WxrRecord, { kind: K }> => r.kind === kind);
  return {
    header: of('header')[0].header,
    authors: of('author').map((r) => r.author),
    categories: of('category').map((r) => r.category),
    tags: of('tag').map((r) => r.tag),
    terms: of('term').map((r) => r.term),
    posts: of('post').map((r) => r.post),
  };
}

test('test_wxr_version_1_1', async () => {
  const r = await parsed('valid-wxr-1.1.xml');
  assert.equal(r.header.baseUrl, 'http://localhost/');
  assert.deepEqual(r.authors[0], { author_id: 2, author_login: 'john', author_email: 'johndoe@example.org', author_display_name: 'John Doe', author_first_name: 'John', author_last_name: 'Doe' });
  assert.deepEqual(r.categories[0], { term_id: 3, category_nicename: 'alpha', category_parent: '', cat_name: 'alpha', category_description: 'The alpha category', termmeta: [] });
  assert.deepEqual(r.tags[0], { term_id: 22, tag_slug: 'clippable', tag_name: 'Clippable', tag_description: 'The Clippable post_tag', termmeta: [] });
  assert.deepEqual(r.terms[0], { term_id: 40, term_taxonomy: 'post_tax', slug: 'bieup', term_parent: '', term_name: 'bieup', term_description: 'The bieup post_tax', termmeta: [] });
  assert.equal(r.posts.length, 2);
  assert.deepEqual(r.posts[0].terms, [
    { name: 'alpha', slug: 'alpha', domain: 'category' },
    { name: 'Clippable', slug: 'clippable', domain: 'post_tag' },
    { name: 'bieup', slug: 'bieup', domain: 'post_tax' },
  ]);
  assert.deepEqual(r.posts[1].postmeta, [{ key: '_wp_page_template', value: 'default' }]);
});

test('test_wxr_version_1_0', async () => {
  const r = await parsed('valid-wxr-1.0.xml');
  assert.equal(r.header.version, '1.0');
  assert.equal(r.header.baseUrl, 'http://localhost/');
  assert.equal(r.categories[0].category_nicename, 'alpha');
  assert.equal(r.categories[0].cat_name, 'alpha');
  assert.equal(r.categories[0].category_parent, '');
  assert.equal(r.categories[0].category_description, 'The alpha category');
  assert.equal(r.tags[0].tag_slug, 'chicken');
  assert.equal(r.tags[0].tag_name, 'chicken');
  assert.equal(r.posts.length, 6);
  // a <category> without domain and nicename (WXR 1.0 writes both forms) is not a term
  assert.deepEqual(r.posts[0].terms, [{ name: 'Uncategorized', slug: 'uncategorized', domain: 'category' }]);
  assert.deepEqual(r.posts[2].terms, [
    { name: 'alpha', slug: 'alpha', domain: 'category' },
    { name: 'news', slug: 'news', domain: 'tag' },
    { name: 'roar', slug: 'roar', domain: 'tag' },
  ]);
  assert.deepEqual(r.posts[3].terms, [
    { name: 'chicken', slug: 'chicken', domain: 'tag' },
    { name: 'child', slug: 'child', domain: 'category' },
    { name: 'face', slug: 'face', domain: 'tag' },
  ]);
  assert.deepEqual(r.posts[1].postmeta, [{ key: '_wp_page_template', value: 'default' }]);
});

test('test_blank_lines_in_content', async () => {
  const r = await parsed('post-content-blank-lines.xml');
  assert.equal(r.posts[0].post_content.split('\n').length - 1, 3);
});

test('test_varied_taxonomy_term_spacing', async () => {
  const r = await parsed('term-formats.xml');
  assert.equal(r.header.baseUrl, 'http://localhost/');
  assert.deepEqual(r.authors, []);
  assert.deepEqual(r.posts, []);
  assert.equal(r.categories.length, 2);
  assert.equal(r.tags.length, 3);
  assert.equal(r.terms.length, 2);
});

test('test_escaped_cdata_closing_sequence', async () => {
  const r = await parsed('crazy-cdata-escaped.xml');
  const post = r.posts[0];
  assert.equal(post.post_content, 'Content with nested <![CDATA[ tags ]]> :)');
  const expected: Record<string, string> = { 'Plain string': 'Foo', 'Closing CDATA': ']]>', 'Alot of CDATA': 'This has <![CDATA[ opening and ]]> closing <![CDATA[ tags like this: ]]>' };
  assert.equal(post.postmeta.length, 3);
  for (const m of post.postmeta) assert.equal(m.value, expected[m.key], m.key);
});

const SERIALIZED_META = [
  { key: 'string', value: '¯\\_(ツ)_/¯' },
  { key: 'array', value: 'a:1:{s:3:"key";s:13:"¯\\_(ツ)_/¯";}' },
];

test('test_term_meta_parsing', async () => {
  const r = await parsed('test-serialized-term-meta.xml');
  assert.equal(r.categories.length, 1);
  assert.equal(r.tags.length, 1);
  assert.equal(r.terms.length, 1);
  assert.deepEqual(r.categories[0].termmeta, SERIALIZED_META);
  assert.deepEqual(r.tags[0].termmeta, SERIALIZED_META);
  assert.deepEqual(r.terms[0].termmeta, SERIALIZED_META);
});

test('test_comment_meta_parsing', async () => {
  const r = await parsed('test-serialized-comment-meta.xml');
  assert.equal(r.posts.length, 1);
  assert.deepEqual(r.posts[0].comments[0].commentmeta, SERIALIZED_META);
});

test('test_malformed_wxr and test_invalid_wxr: WordPress’s refusals, with the file and the line', async () => {
  await assert.rejects(scanWxr(fixture('malformed.xml')), /malformed\.xml:\d+: There was an error when reading this WXR file: /);
  for (const name of ['missing-version-tag.xml', 'invalid-version-tag.xml']) {
    await assert.rejects(scanWxr(fixture(name)), new RegExp(`${name.replace('.', '\\.')}:\\d+: This does not appear to be a WXR file, missing/invalid WXR version number$`));
  }
});

test('the unescaped CDATA closing sequence (crazy-cdata.xml), which only WordPress’s regex parser reads, is malformed XML here', async () => {
  await assert.rejects(scanWxr(fixture('crazy-cdata.xml')), /crazy-cdata\.xml:\d+: There was an error when reading this WXR file: /);
});
