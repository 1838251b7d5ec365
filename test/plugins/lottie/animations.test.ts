import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../../helpers/server.ts';
import { namespaceIndexRoute, routesOf } from '../../helpers/route-index.ts';
import { userAuth } from '../../helpers/auth.ts';

/** A Lottie animation as bodymovin exports it: a red dot moving across, 2 seconds at 30 fps. */
const DOT = {
  v: '5.7.4', fr: 30, ip: 0, op: 60, w: 200, h: 200, nm: 'Dot', ddd: 0, assets: [], markers: [],
  layers: [{
    ddd: 0, ind: 1, ty: 4, nm: 'Circle', sr: 1, ao: 0, ip: 0, op: 60, st: 0, bm: 0,
    ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 1, k: [{ i: { x: 0.5, y: 1 }, o: { x: 0.5, y: 0 }, t: 0, s: [50, 100, 0] }, { t: 60, s: [150, 100, 0] }] }, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } },
    shapes: [{ ty: 'gr', nm: 'g', it: [
      { ty: 'el', d: 1, s: { a: 0, k: [40, 40] }, p: { a: 0, k: [0, 0] }, nm: 'e' },
      { ty: 'fl', c: { a: 0, k: [1, 0, 0, 1] }, o: { a: 0, k: 100 }, r: 1, nm: 'f' },
      { ty: 'tr', p: { a: 0, k: [0, 0] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, r: { a: 0, k: 0 }, o: { a: 0, k: 100 }, sk: { a: 0, k: 0 }, sa: { a: 0, k: 0 }, nm: 't' },
    ] }],
  }],
};

const LOTTIE_ROUTES = {
  '/kb-lottieanimation/v1': namespaceIndexRoute('kb-lottieanimation/v1'),
  '/kb-lottieanimation/v1/animations/(?P<id>[\\a-zA-Z0-9]+(?:\\.json)?)': { methods: ['GET'], endpoints: [{ methods: ['GET'], args: [] }] },
  '/kb-lottieanimation/v1/animations': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: [] }] },
};
const VECTOR_ROUTES = {
  '/kb-vector/v1': namespaceIndexRoute('kb-vector/v1'),
  '/kb-vector/v1/vectors': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: [] }] },
};

describe('kb-lottieanimation/v1', () => {
  const site = useServer();
  const lotties = async () => Number((await site.call('cms/v2/designkit_lottie?status=any&per_page=1', { auth: site.admin })).headers.get('x-wp-total'));

  it('is in the Variant A index exactly as the interface lists it', async () => {
    assert.deepEqual(await routesOf(site, /^\/kb-lottieanimation\//), LOTTIE_ROUTES);
  });

  it('stores an animation and serves it back publicly, at {id} and {id}.json, revalidated by its ETag', async () => {
    const res = await site.call('kb-lottieanimation/v1/animations', { json: { title: 'Moving dot', lottieFile: DOT }, auth: site.admin });
    assert.equal(res.status, 200);
    const { value, label } = await res.json();
    assert.equal(label, 'Moving dot');
    assert.ok(Number.isInteger(value));
    for (const path of [`${value}`, `${value}.json`]) {
      const got = await site.call(`kb-lottieanimation/v1/animations/${path}`);
      assert.equal(got.status, 200, path);
      assert.deepEqual(await got.json(), DOT);
    }
    const first = await site.call(`kb-lottieanimation/v1/animations/${value}.json`);
    const etag = first.headers.get('etag')!;
    assert.match(etag, /^"[\w-]+"$/);
    const again = await site.call(`kb-lottieanimation/v1/animations/${value}.json`, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    // the block editor reads it as a post of its type
    const post = await (await site.call(`cms/v2/designkit_lottie/${value}?context=edit`, { auth: site.admin })).json();
    assert.equal(post.type, 'designkit_lottie');
    assert.equal(post.title.raw, 'Moving dot');
    assert.deepEqual(JSON.parse(post.content.raw), DOT);
    assert.deepEqual(Object.keys(post).filter((k) => k !== '_links'), ['id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'password', 'slug', 'status', 'type', 'link', 'title', 'content', 'template', 'meta']);
  });

  it('takes the animation as a JSON string too', async () => {
    const res = await site.call('kb-lottieanimation/v1/animations', { json: { title: 'As text', lottieFile: JSON.stringify(DOT) }, auth: site.admin });
    assert.equal(res.status, 200);
    const { value, label } = await res.json();
    assert.equal(label, 'As text');
    // stored as the animation itself, not as a JSON string of it
    assert.deepEqual(await (await site.call(`kb-lottieanimation/v1/animations/${value}.json`)).json(), DOT);
  });

  it('refuses a broken Lottie with a 400 that says what is wrong, and stores nothing', async () => {
    const before = await lotties();
    const cases: [unknown, string, RegExp][] = [
      [{ ...DOT, fr: undefined }, 'invalid_lottie', /fr/],
      [{ ...DOT, fr: 0 }, 'invalid_lottie', /framerate/i],
      [{ ...DOT, op: 'end' }, 'invalid_lottie', /out point/i],
      [{ ...DOT, op: 0 }, 'invalid_lottie', /out point must come after/],
      [{ ...DOT, layers: 'none' }, 'invalid_lottie', /layers/],
      [{ ...DOT, layers: [{ nm: 'no type' }] }, 'invalid_lottie', /layers\/0/],
      [{ ...DOT, v: undefined }, 'invalid_lottie', /version/],
      [[1, 2], 'invalid_lottie', /object/],
      ['{"v": "5.7.4", "fr":', 'invalid_json', /JSON/],
    ];
    for (const [lottieFile, code, message] of cases) {
      const res = await site.call('kb-lottieanimation/v1/animations', { json: { title: 'Broken', lottieFile }, auth: site.admin });
      assert.equal(res.status, 400, JSON.stringify(lottieFile).slice(0, 60));
      const body = await res.json();
      assert.equal(body.code, code);
      assert.match(body.message, message);
      assert.equal(body.data.status, 400);
    }
    const noTitle = await site.call('kb-lottieanimation/v1/animations', { json: { lottieFile: DOT }, auth: site.admin });
    assert.equal((await noTitle.json()).code, 'missing_title');
    const noFile = await site.call('kb-lottieanimation/v1/animations', { json: { title: 'x' }, auth: site.admin });
    assert.equal((await noFile.json()).code, 'missing_file');
    assert.equal(await lotties(), before);
  });

  it('answers 404 for a missing id, another type, or an animation no longer published', async () => {
    const { value } = await (await site.call('kb-lottieanimation/v1/animations', { json: { title: 'Soon hidden', lottieFile: DOT }, auth: site.admin })).json();
    assert.equal((await site.call('kb-lottieanimation/v1/animations/999999')).status, 404);
    assert.equal((await site.call('kb-lottieanimation/v1/animations/1')).status, 404); // the first post
    const draft = await site.call(`cms/v2/designkit_lottie/${value}`, { json: { status: 'draft' }, auth: site.admin });
    assert.equal(draft.status, 200);
    const hidden = await site.call(`kb-lottieanimation/v1/animations/${value}`);
    assert.equal(hidden.status, 404);
    assert.equal((await hidden.json()).code, 'not_found');
  });

  it('needs publish_posts to store; reading edit context and deleting follow the type’s capabilities', async () => {
    assert.equal((await site.call('kb-lottieanimation/v1/animations', { json: { title: 'x', lottieFile: DOT } })).status, 401);
    const contributor = await userAuth(site, 'contributor');
    const refused = await site.call('kb-lottieanimation/v1/animations', { json: { title: 'x', lottieFile: DOT }, auth: contributor.auth });
    assert.equal(refused.status, 403);
    const author = await userAuth(site, 'author');
    const { value } = await (await site.call('kb-lottieanimation/v1/animations', { json: { title: 'Mine', lottieFile: DOT }, auth: author.auth })).json();
    assert.equal((await site.call(`cms/v2/designkit_lottie/${value}?context=edit`)).status, 401);
    assert.equal((await site.call(`cms/v2/designkit_lottie/${value}?context=edit`, { auth: contributor.auth })).status, 403);
    assert.equal((await site.call(`cms/v2/designkit_lottie/${value}?force=true`, { method: 'DELETE', auth: contributor.auth })).status, 403);
    const deleted = await site.call(`cms/v2/designkit_lottie/${value}?force=true`, { method: 'DELETE', auth: author.auth });
    assert.equal(deleted.status, 200);
    assert.equal((await deleted.json()).deleted, true);
    assert.equal((await site.call(`kb-lottieanimation/v1/animations/${value}`)).status, 404);
  });

  it('takes the type’s routes away with the plugin, and brings them back', async () => {
    const off = await site.call('cms/v2/plugins/lottie/lottie', { json: { status: 'inactive' }, auth: site.admin });
    assert.equal(off.status, 200);
    assert.equal((await site.call('cms/v2/designkit_lottie')).status, 404);
    assert.equal((await site.call('kb-lottieanimation/v1/animations/1')).status, 404);
    await site.call('cms/v2/plugins/lottie/lottie', { json: { status: 'active' }, auth: site.admin });
    assert.equal((await site.call('cms/v2/designkit_lottie')).status, 200);
  });
});

describe('Variant B lists the animation and vector namespaces, not the image picker or custom SVG', () => {
  const site = useServer({ variant: 'B' });

  it('has kb-lottieanimation/v1 and kb-vector/v1 exactly, and neither kb-image-picker/v1 nor kb-custom-svg/v1', async () => {
    assert.deepEqual(await routesOf(site, /^\/kb-(lottieanimation|vector)\//), { ...LOTTIE_ROUTES, ...VECTOR_ROUTES });
    const index = await (await site.call('')).json();
    assert.ok(!index.namespaces.includes('kb-image-picker/v1'));
    assert.ok(!index.namespaces.includes('kb-custom-svg/v1'));
    assert.deepEqual(await routesOf(site, /^\/kb-(image-picker|custom-svg)\//), {});
  });
});
