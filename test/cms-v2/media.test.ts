import { describe, it } from 'node:test';
import { TEST_STORE } from '../helpers/store.ts';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

/** A real image made with sharp: a gradient-free solid block is enough for sizes and types. */
const image = (width: number, height: number, format: 'png' | 'jpeg' | 'gif' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })[format]().toBuffer();

const BODY_LIMIT = 64 * 1024;
const UPLOAD_LIMIT = 256 * 1024;

describe('cms/v2/media: the media library', () => {
  const site = useServer({ bodyLimit: BODY_LIMIT, uploadLimit: UPLOAD_LIMIT });
  let author: TestUser;
  let contributor: TestUser;

  const upload = (body: Buffer | FormData, headers: Record<string, string>, auth = site.admin) =>
    fetch(`${site.api}cms/v2/media`, { method: 'POST', body: body as unknown as BodyInit, headers: { authorization: auth, ...headers } });
  const raw = (body: Buffer, name: string, type: string, auth?: string) =>
    upload(body, { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` }, auth);

  it('takes a raw upload named by Content-Disposition: stored under YYYY/MM, sizes made, WordPress meta kept', async () => {
    author = await userAuth(site, 'author');
    contributor = await userAuth(site, 'contributor');
    const res = await raw(await image(1200, 800), 'Sunset Photo.png', 'image/png', author.auth);
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.equal(res.headers.get('location'), `${site.api}cms/v2/media/${body.id}`);
    assert.equal(body.type, 'attachment');
    assert.equal(body.status, 'inherit');
    assert.equal(body.title.raw, 'Sunset Photo');
    assert.equal(body.media_type, 'image');
    assert.equal(body.mime_type, 'image/png');
    assert.match(body.source_url, /\/cms-content\/uploads\/\d{4}\/\d{2}\/Sunset-Photo\.png$/);
    const d = body.media_details;
    assert.equal(d.width, 1200);
    assert.equal(d.height, 800);
    assert.ok(d.filesize > 0);
    assert.deepEqual(Object.keys(d.sizes).sort(), ['full', 'large', 'medium', 'medium_large', 'thumbnail']);
    assert.deepEqual([d.sizes.thumbnail.width, d.sizes.thumbnail.height], [150, 150]);
    assert.deepEqual([d.sizes.medium.width, d.sizes.medium.height], [300, 200]);
    assert.deepEqual([d.sizes.large.width, d.sizes.large.height], [1024, 683]);
    assert.deepEqual(body.missing_image_sizes, []);
    // the stored meta is WordPress's
    const meta = await site.app.store.posts.meta.all(body.id);
    assert.match(meta._wp_attached_file, /^\d{4}\/\d{2}\/Sunset-Photo\.png$/);
    const stored = JSON.parse(meta._wp_attachment_metadata);
    assert.equal(stored.file, meta._wp_attached_file);
    assert.equal(stored.sizes.thumbnail['mime-type'], 'image/png');
    // every size is served, as an image of that size
    for (const s of Object.values(d.sizes) as { source_url: string; width: number; height: number }[]) {
      const file = await fetch(s.source_url);
      assert.equal(file.status, 200, s.source_url);
      assert.equal(file.headers.get('content-type'), 'image/png');
      assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
      const got = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
      assert.deepEqual([got.width, got.height], [s.width, s.height]);
    }
  });

  it('takes multipart/form-data with a file part and form fields, as the block editor sends it', async () => {
    const form = new FormData();
    form.append('file', new Blob([await image(40, 30, 'jpeg')], { type: 'image/jpeg' }), 'small.jpg');
    form.append('alt_text', 'A small red block');
    form.append('caption', 'Caught at dawn');
    const res = await upload(form, {});
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.equal(body.alt_text, 'A small red block');
    assert.equal(body.caption.raw, 'Caught at dawn');
    assert.equal(body.mime_type, 'image/jpeg');
    // smaller than every registered size: no sizes, and no `full` either (WordPress 6.1's attachments
    // controller adds `full` only beside the sizes made; its answer is "sizes": {})
    assert.deepEqual(body.media_details.sizes, {});
  });

  it('lists, reads, filters by media type, updates and deletes for good with force', async () => {
    const text = await raw(Buffer.from('plain notes'), 'notes.txt', 'text/plain');
    assert.equal(text.status, 201);
    const doc = await text.json();
    assert.equal(doc.media_type, 'file');
    const list = await site.call('cms/v2/media?per_page=100');
    assert.equal(list.status, 200);
    const all = await list.json();
    assert.equal(list.headers.get('x-wp-total'), String(all.length));
    assert.ok(all.some((m: { id: number }) => m.id === doc.id));
    const images = await (await site.call('cms/v2/media?media_type=image&per_page=100')).json();
    assert.ok(images.length >= 2 && images.every((m: { media_type: string }) => m.media_type === 'image'));
    const jpegs = await (await site.call('cms/v2/media?mime_type=image/jpeg')).json();
    assert.deepEqual(jpegs.map((m: { mime_type: string }) => m.mime_type), ['image/jpeg']);

    const read = await (await site.call(`cms/v2/media/${doc.id}`)).json();
    assert.equal(read.source_url, doc.source_url);
    assert.equal(await (await fetch(doc.source_url)).text(), 'plain notes');

    const updated = await site.call(`cms/v2/media/${doc.id}`, { method: 'POST', json: { title: 'Meeting notes', alt_text: 'notes', description: 'From Monday' }, auth: site.admin });
    assert.equal(updated.status, 200);
    const u = await updated.json();
    assert.equal(u.title.raw, 'Meeting notes');
    assert.equal(u.description.raw, 'From Monday');

    const trash = await site.call(`cms/v2/media/${doc.id}`, { method: 'DELETE', auth: site.admin });
    assert.equal(trash.status, 501);
    assert.equal((await trash.json()).code, 'rest_trash_not_supported');
    const gone = await site.call(`cms/v2/media/${doc.id}?force=true`, { method: 'DELETE', auth: site.admin });
    assert.equal(gone.status, 200);
    const g = await gone.json();
    assert.equal(g.deleted, true);
    assert.equal(g.previous.id, doc.id);
    assert.equal((await site.call(`cms/v2/media/${doc.id}`)).status, 404);
    assert.equal((await fetch(doc.source_url)).status, 404);
  });

  it('deletes an image with all its sizes from disk', async () => {
    const made = await (await raw(await image(400, 400), 'square.png', 'image/png')).json();
    const urls = Object.values(made.media_details.sizes).map((s) => (s as { source_url: string }).source_url);
    assert.equal(urls.length, 3);
    assert.equal((await site.call(`cms/v2/media/${made.id}?force=true`, { method: 'DELETE', auth: site.admin })).status, 200);
    for (const url of urls) assert.equal((await fetch(url)).status, 404, url);
  });

  it('refuses what WordPress refuses, with its codes, and stores nothing', async () => {
    const before = Number((await site.call('cms/v2/media?per_page=1', { auth: site.admin })).headers.get('x-wp-total'));
    const noDisposition = await upload(Buffer.from('x'), { 'content-type': 'image/png' });
    assert.equal((await noDisposition.json()).code, 'rest_upload_no_content_disposition');
    const badDisposition = await upload(Buffer.from('x'), { 'content-type': 'image/png', 'content-disposition': 'attachment' });
    assert.equal((await badDisposition.json()).code, 'rest_upload_invalid_disposition');
    const empty = await upload(Buffer.alloc(0), { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' });
    assert.equal(empty.status, 400);
    assert.equal((await empty.json()).code, 'rest_upload_no_data');
    // a script renamed as an image, an HTML page, an SVG: not uploadable types
    for (const [name, type, bytes] of [['evil.png', 'image/png', '<?php system($_GET[1]);'], ['page.html', 'text/html', '<script>x</script>'], ['icon.svg', 'image/svg+xml', '<svg/>']]) {
      const res = await raw(Buffer.from(bytes), name, type);
      assert.equal(res.status, 400, name);
      assert.equal((await res.json()).code, 'rest_upload_sideload_error', name);
    }
    const md5 = await upload(Buffer.from('abc'), { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="a.txt"', 'content-md5': createHash('md5').update('abd').digest('hex') });
    assert.equal(md5.status, 412);
    assert.equal((await md5.json()).code, 'rest_upload_hash_mismatch');
    const after = Number((await site.call('cms/v2/media?per_page=1', { auth: site.admin })).headers.get('x-wp-total'));
    assert.equal(after, before);
  });

  it('gives an image whose extension lies the extension of what it is', async () => {
    const res = await raw(await image(20, 20, 'png'), 'photo.jpg', 'image/jpeg');
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.equal(body.mime_type, 'image/png');
    assert.match(body.source_url, /photo\.png$/);
  });

  it('holds uploads to their own limit, not the JSON body limit, and refuses a larger one with 413', async () => {
    // 200 KiB: over the 64 KiB body limit a JSON request has, under the 256 KiB upload limit
    const json = await site.call('cms/v2/posts', { method: 'POST', json: { title: 'x', content: 'a'.repeat(200 * 1024) }, auth: site.admin });
    assert.equal(json.status, 413);
    const ok = await raw(Buffer.alloc(200 * 1024, 'a'), 'big.txt', 'text/plain');
    assert.equal(ok.status, 201);
    const tooBig = await raw(Buffer.alloc(UPLOAD_LIMIT + 1, 'a'), 'bigger.txt', 'text/plain');
    assert.equal(tooBig.status, 413);
    assert.equal((await tooBig.json()).code, 'rest_payload_too_large');
    // sent without a length, cut off while streaming
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new Uint8Array(64 * 1024));
        c.close();
      },
    });
    const chunked = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: stream, duplex: 'half', headers: { authorization: site.admin, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="s.txt"' } } as RequestInit);
    assert.equal(chunked.status, 413);
    // nothing of either was kept in the uploads folder
    const names = readdirSync(join(site.app.site.media.uploadsDir), { recursive: true }).map(String);
    assert.ok(!names.some((n) => n.endsWith('bigger.txt') || n.endsWith('s.txt')), names.join(', '));
  });

  it('checks permissions: upload_files to upload, edit rights to change, anonymous readers see files', async () => {
    const anonymous = await raw(Buffer.from('x'), 'a.txt', 'text/plain', '');
    assert.equal(anonymous.status, 401);
    const denied = await raw(Buffer.from('x'), 'a.txt', 'text/plain', contributor.auth);
    assert.equal(denied.status, 403);
    assert.equal((await denied.json()).code, 'rest_cannot_create');
    const mine = await (await raw(Buffer.from('mine'), 'mine.txt', 'text/plain', author.auth)).json();
    const other = await userAuth(site, 'author');
    const edit = await site.call(`cms/v2/media/${mine.id}`, { method: 'POST', json: { title: 'taken' }, auth: other.auth });
    assert.equal(edit.status, 403);
    const del = await site.call(`cms/v2/media/${mine.id}?force=true`, { method: 'DELETE', auth: other.auth });
    assert.equal(del.status, 403);
    assert.equal((await site.call(`cms/v2/media/${mine.id}?context=edit`)).status, 401);
    assert.equal((await site.call(`cms/v2/media/${mine.id}`)).status, 200);
  });

  it('serves files with revalidation, and an SVG in the folder under a policy that runs no script', async () => {
    const made = await (await raw(Buffer.from('cache me'), 'cache.txt', 'text/plain')).json();
    const first = await fetch(made.source_url);
    const etag = first.headers.get('etag')!;
    assert.ok(etag);
    const again = await fetch(made.source_url, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    const dir = join(site.app.site.media.uploadsDir, 'by-hand');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svg = await fetch(`${site.home}/cms-content/uploads/by-hand/logo.svg`);
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.match(svg.headers.get('content-security-policy') ?? '', /default-src 'none'.*sandbox/);
    for (const path of ['../site.sqlite', '%2e%2e/site.sqlite', '.tmp/x', 'by-hand']) {
      assert.equal((await fetch(`${site.home}/cms-content/uploads/${path}`)).status, 404, path);
    }
    if (TEST_STORE === 'sqlite') assert.ok(existsSync(site.dbPath), 'the database beside the uploads is still there');
  });
});
