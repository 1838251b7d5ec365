import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { useServer } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { routesOf, namespaceIndexRoute } from '../../helpers/route-index.ts';
import { until } from '../../helpers/until.ts';

const FIFTY_MB = 50 * 1024 * 1024;

/** A stock photo library: JPEGs per photo and size, counted per path; a 50 MB "photo"; a file that is no image. */
class PhotoLibrary {
  server!: Server;
  base = '';
  hits = new Map<string, number>();
  /** Bytes the 50 MB answers got out before the client hung up. */
  hugeSent: number[] = [];

  async start() {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } } }).jpeg().toBuffer();
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', this.base).pathname;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      if (/^\/photos\/\d+\/[\w%]+\.jpeg$/.test(path)) return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
      if (path === '/huge-declared.jpeg') return this.huge(res, true);
      if (path === '/huge-chunked.jpeg') return this.huge(res, false);
      if (path === '/not-an-image.jpeg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<?php echo "hi";');
      if (path === '/broken.jpeg') return res.writeHead(500).end('it broke');
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** 50 MB of JPEG-looking bytes, written as the client reads them; records how much went out. */
  private huge(res: ServerResponse, declared: boolean) {
    res.writeHead(200, { 'content-type': 'image/jpeg', ...(declared ? { 'content-length': String(FIFTY_MB) } : {}) });
    const chunk = Buffer.alloc(256 * 1024, 0xff);
    let sent = 0;
    const pump = () => {
      while (sent < FIFTY_MB) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => this.hugeSent.push(sent));
    pump();
  }

  hitsOf(path: string) {
    return this.hits.get(path) ?? 0;
  }
}

/** A picked photo as the picker sends it (Pexels' shape). */
const picked = (base: string, id: number, alt = `Blue sky ${id}`) => ({
  id, post_id: 0, width: 640, height: 480, alt, url: `https://www.pexels.com/photo/${id}/`, photographer: 'Jo Doe', photographer_url: 'https://www.pexels.com/@jo', avg_color: '#1E78C8',
  sizes: [{ name: 'original', src: `${base}/photos/${id}/original.jpeg` }, { name: 'large', src: `${base}/photos/${id}/large.jpeg` }, { name: 'medium', src: `${base}/photos/${id}/medium.jpeg` }],
});

describe('kb-image-picker/v1/process_images', () => {
  const library = new PhotoLibrary();
  let savedAllow: string | undefined;
  const site = useServer({}, () => library.start());
  before(() => {
    savedAllow = process.env.CMS_SPEC_OUTBOUND_ALLOW;
    process.env.CMS_SPEC_OUTBOUND_ALLOW = '127.0.0.1';
  });
  after(() => {
    if (savedAllow === undefined) delete process.env.CMS_SPEC_OUTBOUND_ALLOW;
    else process.env.CMS_SPEC_OUTBOUND_ALLOW = savedAllow;
    library.server.close();
  });
  const process_ = (json: unknown, auth = site.admin) => site.call('kb-image-picker/v1/process_images', { json, auth });

  it('is in the Variant A index exactly as the interface lists it', async () => {
    assert.deepEqual(await routesOf(site, /^\/kb-image-picker\//), {
      '/kb-image-picker/v1': namespaceIndexRoute('kb-image-picker/v1'),
      '/kb-image-picker/v1/process_images': {
        methods: ['POST'],
        endpoints: [{
          methods: ['POST'],
          args: {
            context: { type: 'string', required: false },
            page: { type: 'integer', default: 1, minimum: 1, required: false },
            per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100, required: false },
            search: { type: 'string', required: false },
            image_type: { type: 'string', required: false },
            image_sizes: { type: 'array', required: false },
          },
        }],
      },
    });
  });

  it('imports the chosen size of each image into the media library, with its sizes and alt text', async () => {
    const res = await process_({ images: [picked(library.base, 101)], image_sizes: ['large'] });
    assert.equal(res.status, 200);
    const [first, ...rest] = await res.json();
    assert.deepEqual(rest, []);
    assert.equal(library.hitsOf('/photos/101/large.jpeg'), 1);
    assert.equal(library.hitsOf('/photos/101/original.jpeg'), 0);
    const media = await (await site.call(`cms/v2/media/${first.id}`)).json();
    assert.equal(first.url, media.source_url);
    assert.equal(media.alt_text, 'Blue sky 101');
    assert.equal(media.mime_type, 'image/jpeg');
    assert.deepEqual([media.media_details.width, media.media_details.height], [640, 480]);
    assert.ok(media.media_details.sizes.thumbnail && media.media_details.sizes.medium);
    assert.equal((await fetch(first.url)).status, 200);
  });

  it('imports an image whose URL has malformed percent-encoding (a 500 once)', async () => {
    const broken = `${library.base}/photos/104/%E0%A4%A.jpeg`;
    const image = { ...picked(library.base, 104, ''), sizes: [{ name: 'original', src: broken }, { name: 'large', src: broken }] };
    const res = await process_({ images: [image], image_sizes: ['large'] });
    assert.equal(res.status, 200, await res.clone().text());
    const [first] = await res.json();
    assert.ok(first.id > 0, JSON.stringify(first));
    assert.equal(library.hitsOf('/photos/104/%E0%A4%A.jpeg'), 1);
    assert.equal((await fetch(first.url)).status, 200);
  });

  it('does not download an image twice: imported ones come back first, as they are', async () => {
    const again = await process_({ images: [picked(library.base, 102), picked(library.base, 101)] });
    const answer = await again.json();
    const before = await (await site.call('cms/v2/media?search=101')).json();
    assert.equal(answer.length, 2);
    assert.equal(answer[0].id, before[0].id, 'the image imported before is listed first');
    assert.equal(library.hitsOf('/photos/101/large.jpeg'), 1);
    assert.equal(library.hitsOf('/photos/101/original.jpeg'), 0, 'nor fetched at another size');
    // the same new image twice in one request: one download, one attachment
    const twice = await (await process_({ images: [picked(library.base, 103), picked(library.base, 103)] })).json();
    assert.equal(twice[0].id, twice[1].id);
    // the default choice of size: large2x, else large
    assert.equal(library.hitsOf('/photos/103/large.jpeg'), 1);
  });

  it('reports each failure in its place and keeps the rest: not found, a failing host, not an image, a private address, bad entries', async () => {
    const port = new URL(library.base).port;
    const bad = (id: number, src: string) => ({ ...picked(library.base, id), sizes: [{ name: 'original', src }] });
    const res = await process_({
      images: [
        bad(201, `${library.base}/gone.jpeg`),
        bad(205, `${library.base}/broken.jpeg`),
        picked(library.base, 202),
        bad(203, `${library.base}/not-an-image.jpeg`),
        bad(204, `http://127.0.0.2:${port}/photos/204/original.jpeg`),
        { alt: 'no id' },
        'not an object',
      ],
    });
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.equal(answer.length, 7);
    assert.ok(answer[0].id > 0, 'the good image is imported');
    const errors = Object.fromEntries(answer.slice(1).map((a: { source_id: string; error: { code: string } }) => [a.source_id, a.error.code]));
    assert.deepEqual(errors, { 201: 'http_404', 205: 'http_404', 203: 'rest_upload_not_an_image', 204: 'rest_invalid_url', '': 'invalid_image' });
    // download_url's answer to any status but 200 is `http_404`, worded with the status text
    const errorOf = (id: string) => answer.find((a: { source_id: string }) => a.source_id === id).error;
    assert.deepEqual(errorOf('201'), { code: 'http_404', message: 'Not Found', status: 502 });
    assert.deepEqual(errorOf('205'), { code: 'http_404', message: 'Internal Server Error', status: 502 });
    assert.ok(answer.slice(1).every((a: { id: number }) => a.id === 0));
    assert.equal(library.hitsOf('/photos/204/original.jpeg'), 0, 'the private address was never asked');
  });

  it('refuses a 50 MB image at the size cap without reading it whole, declared or streamed', async () => {
    const cases = [['/huge-declared.jpeg', 301], ['/huge-chunked.jpeg', 302]] as const;
    for (const [path, id] of cases) {
      const res = await process_({ images: [{ ...picked(library.base, id), sizes: [{ name: 'original', src: `${library.base}${path}` }] }] });
      assert.equal(res.status, 200);
      const [entry] = await res.json();
      assert.equal(entry.error.code, 'rest_upload_file_too_big', path);
    }
    await until(() => library.hugeSent.length >= 2, 'the library seeing both its sockets close');
    assert.equal(library.hugeSent.length, 2);
    // the declared one is refused on its headers; the streamed one is cut off at the 32 MiB cap
    for (const sent of library.hugeSent) assert.ok(sent < FIFTY_MB - 8 * 1024 * 1024, `sent ${sent} bytes`);
    const temp = join(site.app.site.media.uploadsDir, '.tmp');
    assert.deepEqual(readdirSync(temp), [], 'no partial download is left behind');
  });

  it('refuses a request without a list of images, and callers without upload_files', async () => {
    const res = await process_({ images: 'all' });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).code, 'rest_invalid_param');
    assert.equal((await site.call('kb-image-picker/v1/process_images', { json: { images: [] } })).status, 401);
    const contributor = await userAuth(site, 'contributor');
    const refused = await process_({ images: [picked(library.base, 401)] }, contributor.auth);
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).code, 'rest_forbidden');
    assert.equal(library.hitsOf('/photos/401/original.jpeg'), 0);
    const author = await userAuth(site, 'author');
    assert.equal((await process_({ images: [] }, author.auth)).status, 200);
  });
});
