import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { useServer } from '../helpers/server.ts';
import { EncodingQueue } from '../../src/engine/compression.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they travelled, not decoded (fetch would decode them). */
  body: Buffer;
}

/** A request through node:http, which sends only the headers given and decodes nothing. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const decoded = (a: RawAnswer): Buffer => {
  const coding = a.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(a.body);
  if (coding === 'gzip') return gunzipSync(a.body);
  assert.equal(coding, undefined);
  return a.body;
};

/** Content-Length says how many bytes travelled, and Vary that Accept-Encoding chose them. */
function assertFraming(a: RawAnswer): void {
  assert.equal(a.headers['content-length'], String(a.body.length));
  assert.match(String(a.headers.vary), /(^|, )Accept-Encoding$/);
}

/**
 * The answer once its kept encoding is made: the first asks are compressed on the fly meanwhile,
 * at a faster setting that makes more bytes.
 */
async function kept(url: string, headers: Record<string, string>): Promise<{ onTheFly: RawAnswer; kept: RawAnswer }> {
  const onTheFly = await raw(url, headers);
  for (let i = 0; i < 200; i++) {
    const next = await raw(url, headers);
    if (next.body.length < onTheFly.body.length) return { onTheFly, kept: next };
    await sleep(50);
  }
  assert.fail(`${url} never answered its kept encoding`);
}

describe('compressed answers', () => {
  const site = useServer({ variant: 'A' });

  it('sends the Variant A index in brotli or gzip as asked, decoding to the identity bytes; neither without Accept-Encoding', async () => {
    const identity = await raw(site.api);
    assert.equal(identity.status, 200);
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.equal(identity.headers.vary, 'Origin, Accept-Encoding');
    assertFraming(identity);
    assert.ok(identity.body.length > 300_000, `identity ${identity.body.length} bytes`);

    // the first compressed ask starts making both kept encodings (off the main thread) and is itself compressed on the fly
    const { onTheFly, kept: br } = await kept(site.api, { 'accept-encoding': 'br' });
    // gzip's kept bytes, made beside brotli's and faster, are there by then
    const gzip = await raw(site.api, { 'accept-encoding': 'gzip' });
    for (const [made, a, coding] of [['brotli on the fly', onTheFly, 'br'], ['brotli kept', br, 'br'], ['gzip kept', gzip, 'gzip']] as const) {
      assert.equal(a.headers['content-encoding'], coding, made);
      assertFraming(a);
      assert.ok(decoded(a).equals(identity.body), `${made} decodes to the identity answer`);
      if (made !== 'brotli on the fly') assert.ok((await raw(site.api, { 'accept-encoding': coding })).body.equals(a.body), `${made}: the same bytes from then on`);
    }
    const sizes = { identity: identity.body.length, br: br.body.length, gzip: gzip.body.length, brOnTheFly: onTheFly.body.length };
    console.log(`Variant A index: ${JSON.stringify(sizes)} bytes`);
    assert.ok(sizes.br < 60 * 1024, `brotli index ${sizes.br} bytes`);
    assert.ok(sizes.br < sizes.gzip);
  });

  it('keeps the compressed index of a user the host adds links for, as the anonymous one', async () => {
    const auth = { authorization: site.admin };
    const identity = await raw(site.api, auth);
    assert.match(identity.body.toString(), /"wp:active-theme"/);
    const { onTheFly, kept: br } = await kept(site.api, { ...auth, 'accept-encoding': 'br' });
    for (const a of [onTheFly, br]) {
      assert.equal(a.headers['content-encoding'], 'br');
      assertFraming(a);
      assert.ok(decoded(a).equals(identity.body));
    }
    assert.ok((await raw(site.api, { ...auth, 'accept-encoding': 'br' })).body.equals(br.body), 'the same kept bytes for the next request');
  });

  it('reads Accept-Encoding as RFC 9110 does: q-values, refusals, *, identity, case and x-gzip', async () => {
    const cases: [string, string | undefined][] = [
      ['gzip, deflate, br', 'br'],
      ['br;q=0.8, gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br;q=0', undefined],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      ['*;q=0', undefined],
      ['identity', undefined],
      ['', undefined],
      ['gzip;q=0.5, identity', undefined],
      ['deflate, compress', undefined],
      ['GZIP', 'gzip'],
      ['x-gzip', 'gzip'],
      ['br;q=banana, gzip', 'gzip'],
    ];
    for (const [accept, coding] of cases) {
      const a = await raw(`${site.api}cms/v2`, { 'accept-encoding': accept });
      assert.equal(a.status, 200);
      assert.equal(a.headers['content-encoding'], coding, `Accept-Encoding: ${accept}`);
      assertFraming(a);
    }
  });

  it('compresses the /wp-json/ alias, namespace indexes, ?context=help and OPTIONS descriptors too', async () => {
    for (const [url, method] of [
      [`${site.home}/wp-json/`, 'GET'],
      [`${site.home}/wp-json/wp/v2`, 'GET'],
      [`${site.api}?context=help`, 'GET'],
      [`${site.api}cms/v2/posts`, 'OPTIONS'],
    ]) {
      const identity = await raw(url, {}, method);
      const br = await raw(url, { 'accept-encoding': 'br' }, method);
      assert.equal(br.status, 200, url);
      assert.equal(br.headers['content-encoding'], 'br', `${method} ${url}`);
      assertFraming(br);
      assert.ok(decoded(br).equals(identity.body), `${method} ${url} decodes to the identity answer`);
    }
  });

  it('leaves a small answer as it is, still saying it varies by Accept-Encoding', async () => {
    const a = await raw(`${site.api}cms/v2/posts/999999`, { 'accept-encoding': 'br, gzip' });
    assert.equal(a.status, 404);
    assert.equal(a.headers['content-encoding'], undefined);
    assertFraming(a);
    assert.equal(a.body.toString(), '{"code":"rest_post_invalid_id","message":"Invalid post ID.","data":{"status":404}}');
  });

  it('answers HEAD with the headers of its GET and no body', async () => {
    const get = await raw(site.api, { 'accept-encoding': 'gzip' });
    const head = await raw(site.api, { 'accept-encoding': 'gzip' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], 'gzip');
    assert.equal(head.headers['content-length'], String(get.body.length));
    assert.equal(head.headers.vary, 'Accept-Encoding'); // Origin is a GET's only, as WordPress says it
    assert.equal(head.body.length, 0);
  });

  it('compresses a JSON answer made for the request, and the site’s HTML pages', async () => {
    for (let i = 0; i < 3; i++) await site.json('cms/v2/posts', { method: 'POST', json: { title: `Post ${i}`, content: 'Words. '.repeat(200), status: 'publish' } }, 201);
    for (const url of [`${site.api}cms/v2/posts`, `${site.home}/`]) {
      const identity = await raw(url);
      assert.equal(identity.status, 200, url);
      assert.ok(identity.body.length >= 1024, `${url}: ${identity.body.length} bytes`);
      const gz = await raw(url, { 'accept-encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip', url);
      assertFraming(gz);
      assert.ok(decoded(gz).equals(identity.body), `${url} decodes to the identity answer`);
    }
    assert.match(String((await raw(`${site.home}/`, { 'accept-encoding': 'br' })).headers['content-type']), /^text\/html/);
  });

  it('answers a 304 without a body or Content-Encoding, saying it varies by Accept-Encoding', async () => {
    // a dot moving across in 60 keyframes: an animation well over the compression threshold
    const k = Array.from({ length: 60 }, (_, t) => ({ i: { x: 0.5, y: 1 }, o: { x: 0.5, y: 0 }, t, s: [50 + t, 100, 0] }));
    const layer = {
      ddd: 0, ind: 1, ty: 4, nm: 'Circle', sr: 1, ao: 0, ip: 0, op: 60, st: 0, bm: 0,
      ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 1, k }, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } },
      shapes: [{ ty: 'gr', nm: 'g', it: [
        { ty: 'el', d: 1, s: { a: 0, k: [40, 40] }, p: { a: 0, k: [0, 0] }, nm: 'e' },
        { ty: 'fl', c: { a: 0, k: [1, 0, 0, 1] }, o: { a: 0, k: 100 }, r: 1, nm: 'f' },
        { ty: 'tr', p: { a: 0, k: [0, 0] }, a: { a: 0, k: [0, 0] }, s: { a: 0, k: [100, 100] }, r: { a: 0, k: 0 }, o: { a: 0, k: 100 }, sk: { a: 0, k: 0 }, sa: { a: 0, k: 0 }, nm: 't' },
      ] }],
    };
    const animation = { v: '5.7.4', fr: 30, ip: 0, op: 60, w: 200, h: 200, nm: 'Dot', ddd: 0, assets: [], markers: [], layers: [layer] };
    const created = await site.json('kb-lottieanimation/v1/animations', { method: 'POST', json: { title: 'Long', lottieFile: animation } });
    const url = `${site.api}kb-lottieanimation/v1/animations/${created.value}.json`;
    const full = await raw(url, { 'accept-encoding': 'br' });
    assert.equal(full.status, 200);
    assert.equal(full.headers['content-encoding'], 'br');
    assertFraming(full);
    const etag = String(full.headers.etag);
    const again = await raw(url, { 'accept-encoding': 'br', 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.headers['content-encoding'], undefined);
    assert.equal(again.headers['content-length'], undefined);
    assert.match(String(again.headers.vary), /Accept-Encoding/);
    assert.equal(again.body.length, 0);
  });

  it('leaves files streamed from the uploads folder as they are', async () => {
    const notes = Buffer.from('plain notes, repeated. '.repeat(200));
    const res = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: notes, headers: { authorization: site.admin, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' } });
    assert.equal(res.status, 201);
    const file = await raw((await res.json()).source_url, { 'accept-encoding': 'br, gzip' });
    assert.equal(file.status, 200);
    assert.equal(file.headers['content-encoding'], undefined);
    assert.ok(file.body.equals(notes));
  });
});

describe('the queue of kept encodings', () => {
  it('never holds more than a second of work: past it a document is refused, and taken again once the queue has room', async () => {
    // a queue whose thread is taken to make 100,000 bytes a second
    const queue = new EncodingQueue(100_000);
    const document = (fill: string) => Buffer.from(fill.repeat(60_000));
    const made: string[] = [];
    let firstMade!: () => void;
    const first = new Promise<void>((resolve) => (firstMade = resolve));
    assert.equal(
      queue.offer(document('a'), (e) => {
        made.push(`a: ${Object.keys(e).join(', ')}`);
        firstMade();
      }),
      true,
      'the first 60,000 bytes are queued',
    );
    assert.equal(queue.offer(document('b'), () => made.push('b')), false, '60,000 more would be 1.2 s of work: refused');
    await first;
    assert.deepEqual(made, ['a: br, gzip']);
    assert.equal(queue.offer(document('c'), () => made.push('c')), true, 'once the first is made, there is room again');
  });
});
