import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { assertNamespace, type Arg } from '../../helpers/route-index.ts';

type Obj = Record<string, any>;

const COLLECTION_KBP: Arg[] = [['context', 'string'], ['page', 'integer', 1, { minimum: 1 }], ['per_page', 'number', 25], ['search', 'string']];
const POST_QUERY: Arg[] = [...COLLECTION_KBP, ['type', 'string'], ['include', 'array'], ['query', 'string'], ['order', 'string'], ['order_by', 'string'], ['allow_sticky', 'boolean'], ['exclude', 'string'], ['offset', 'number', 0]];
const TAX_SELECT: Arg[] = [['context', 'string'], ['page', 'number', 1], ['per_page', 'number', 25], ['search', 'string'], ['source', 'string', '']];
const PRO_LIST: Arg[] = [['context', 'string'], ['page', 'integer', 1, { minimum: 1 }], ['per_page', 'integer', 10, { minimum: 1, maximum: 100 }], ['search', 'string']];
const POST_SELECT = (types: string[]): Arg[] => [
  ['context', 'string'], ['page', 'number', 1], ['per_page', 'number', 25], ['search', 'string'], ['type', 'array', types], ['include', 'array'], ['categories', 'array', []], ['tags', 'array', []],
];
const KTP_TYPES = ['post', 'page', 'nav_menu_item', 'cms_block', 'cms_template', 'cms_template_part', 'cms_global_styles', 'cms_navigation', 'cms_font_family', 'cms_font_face', 'designkit_form', 'designkit_navigation', 'designkit_header', 'designkit_custom_svg', 'designkit_query', 'designkit_query_card', 'designkit_lottie', 'designkit_vector', 'kb_icon'];

const EXPECTED: Record<string, Record<string, Arg[]>> = {
  'kbp/v1': {
    '/post-query': [...POST_QUERY, ['post_id', 'string'], ['custom_tax', 'boolean'], ['tax_type', 'string'], ['category', 'string'], ['tags', 'string']],
    '/taxonomies-select': TAX_SELECT,
    '/term-select': TAX_SELECT,
  },
  'kbpp/v1': {
    '/post-select': POST_SELECT(['post', 'page']),
    '/post-query': [...POST_QUERY, ['post_tax', 'boolean'], ['tax_type', 'string'], ['category', 'string'], ['author', 'string'], ['tags', 'string']],
    '/tax-query': [...PRO_LIST, ['type', 'string']],
    '/term-query': [...PRO_LIST, ['tax_type', 'string'], ['source', 'string', 'current']],
  },
  'ktp/v1': { '/post-select': [...POST_SELECT(KTP_TYPES), ['menus', 'array', []]] },
};

describe('the route index shows the content-query namespaces as the interface gives them', () => {
  describe('Variant A', () => {
    const site = useServer();
    test('kbp/v1, kbpp/v1 and ktp/v1, in the interface order', async () => {
      for (const [ns, routes] of Object.entries(EXPECTED)) await assertNamespace(site, ns, routes);
      const { namespaces } = (await (await site.call('')).json()) as Obj;
      assert.ok(namespaces.indexOf('kbp/v1') < namespaces.indexOf('kbpp/v1') && namespaces.indexOf('kbpp/v1') < namespaces.indexOf('ktp/v1'));
      assert.ok(namespaces.indexOf('code-snippets/v1') < namespaces.indexOf('kbp/v1'));
    });
  });
  describe('Variant B', () => {
    const site = useServer({ variant: 'B' });
    test('kbp/v1 only', async () => {
      await assertNamespace(site, 'kbp/v1', EXPECTED['kbp/v1']);
      const index = (await (await site.call('')).json()) as Obj;
      for (const ns of ['kbpp/v1', 'ktp/v1']) {
        assert.ok(!index.namespaces.includes(ns), ns);
        assert.equal((await site.call(ns)).status, 404);
      }
      const res = await site.call('kbp/v1/post-query?query=category', { auth: site.admin });
      assert.equal(res.status, 200, 'and it answers');
    });
  });
});
