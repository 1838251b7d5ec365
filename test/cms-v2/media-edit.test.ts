import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { unlink } from 'node:fs/promises';
import sharp from 'sharp';
import { useServer } from '../helpers/server.ts';
import { userAuth } from '../helpers/auth.ts';

type Obj = Record<string, any>;

/** A 400x200 PNG: red on the left half, blue on the right, so rotations and crops can be told apart. */
const halves = () =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .composite([{ input: { create: { width: 200, height: 200, channels: 3, background: { r: 0, g: 0, b: 255 } } }, left: 200, top: 0 }])
    .png()
    .toBuffer();

/** The colour of one pixel of an image file served by the site. */
async function pixel(url: string, x: number, y: number): Promise<'red' | 'blue' | string> {
  const buf = Buffer.from(await (await fetch(url)).arrayBuffer());
  const { data, info } = await sharp(buf).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
  return r > 200 && b < 50 && g < 50 ? 'red' : b > 200 && r < 50 && g < 50 ? 'blue' : `rgb(${r},${g},${b})`;
}

describe('cms/v2/media/{id}/edit and post-process (WP_REST_Attachments_Controller)', () => {
  const site = useServer();
  const upload = async (body: Buffer, name: string, type: string, auth = site.admin) => {
    const res = await fetch(`${site.api}cms/v2/media`, { method: 'POST', body: body as unknown as BodyInit, headers: { authorization: auth, 'content-type': type, 'content-disposition': `attachment; filename="${name}"` } });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as Obj;
  };
  /** `auth` '' sends no credentials. */
  const edit = (id: number, json: unknown, auth = site.admin) => site.call(`cms/v2/media/${id}/edit`, { method: 'POST', json, auth });
  const errorOf = (code: string, message: string, status: number) => ({ status, body: { code, message, data: { status } } });
  const error = async (res: Response) => ({ status: res.status, body: (await res.json()) as Obj });

  it('lists both routes in the index with WordPress 6.1 args', async () => {
    const index = (await (await site.call('cms/v2')).json()) as Obj;
    const process = index.routes['/cms/v2/media/(?P<id>[\\d]+)/post-process'];
    assert.deepEqual(process.methods, ['POST']);
    assert.deepEqual(process.endpoints[0].args, {
      id: { description: 'Unique identifier for the attachment.', type: 'integer', required: false },
      action: { type: 'string', enum: ['create-image-subsizes'], required: true },
    });
    const editRoute = index.routes['/cms/v2/media/(?P<id>[\\d]+)/edit'];
    const args = editRoute.endpoints[0].args;
    assert.deepEqual(Object.keys(args), ['src', 'modifiers', 'rotation', 'x', 'y', 'width', 'height']);
    assert.deepEqual(args.src, { description: 'URL to the edited image file.', type: 'string', format: 'uri', required: true });
    assert.deepEqual(args.rotation, {
      description: 'The amount to rotate the image clockwise in degrees. DEPRECATED: Use `modifiers` instead.',
      type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true, required: false,
    });
    assert.deepEqual(args.modifiers.items.oneOf.map((o: Obj) => o.title), ['Rotation', 'Crop']);
    assert.deepEqual(args.modifiers.items.oneOf[1].properties.args.required, ['left', 'top', 'width', 'height']);
  });

  it('rotates an image into a new "-edited" attachment that keeps the title, caption, description and alt text', async () => {
    const original = await upload(await halves(), 'Halves.png', 'image/png');
    await site.call(`cms/v2/media/${original.id}`, { method: 'POST', json: { alt_text: 'Two halves', caption: 'A caption', description: 'A description' }, auth: site.admin });
    const res = await edit(original.id, { src: original.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] });
    assert.equal(res.status, 201, await res.clone().text());
    const body = (await res.json()) as Obj;
    assert.notEqual(body.id, original.id);
    assert.equal(res.headers.get('location'), `${site.api}cms/v2/media/${body.id}`);
    assert.equal(res.headers.get('x-wp-upload-attachment-id'), String(body.id));
    // the view context
    assert.equal(body.title.raw, undefined);
    assert.equal(body.title.rendered, 'Halves');
    assert.equal(body.alt_text, 'Two halves');
    assert.equal(body.caption.rendered, '<p>A caption</p>\n');
    assert.equal(body.post, null);
    assert.match(body.source_url, /\/\d{4}\/\d{2}\/Halves-edited\.png$/);
    assert.deepEqual([body.media_details.width, body.media_details.height], [200, 400]);
    assert.deepEqual(body.media_details.parent_image, { attachment_id: original.id, file: original.media_details.file });
    assert.ok(body.media_details.sizes.thumbnail, 'the new attachment has its sizes');
    // clockwise: the left (red) half is now on top
    assert.equal(await pixel(body.source_url, 100, 10), 'red');
    assert.equal(await pixel(body.source_url, 100, 390), 'blue');
    const stored = (await (await site.call(`cms/v2/media/${body.id}?context=edit`, { auth: site.admin })).json()) as Obj;
    assert.deepEqual([stored.description.raw, stored.caption.raw, stored.author], ['A description', 'A caption', 1]);
    // the original is unchanged
    const again = (await (await site.call(`cms/v2/media/${original.id}`)).json()) as Obj;
    assert.deepEqual([again.media_details.width, again.media_details.height], [400, 200]);
  });

  it('crops in percentages of the image as it is after the steps before, and takes the deprecated args', async () => {
    const original = await upload(await halves(), 'Crop Me.png', 'image/png');
    const cropped = (await (await edit(original.id, { src: original.media_details.sizes.medium.source_url, modifiers: [{ type: 'crop', args: { left: 50, top: 0, width: 50, height: 100 } }] })).json()) as Obj;
    assert.deepEqual([cropped.media_details.width, cropped.media_details.height], [200, 200]);
    assert.equal(await pixel(cropped.source_url, 10, 10), 'blue');
    assert.equal(await pixel(cropped.source_url, 190, 190), 'blue');
    // rotate 180 first, then the left half is blue
    const both = (await (await edit(original.id, { src: original.source_url, modifiers: [{ type: 'rotate', args: { angle: 180 } }, { type: 'crop', args: { left: 0, top: 0, width: 50, height: 50 } }] })).json()) as Obj;
    assert.deepEqual([both.media_details.width, both.media_details.height], [200, 100]);
    assert.equal(await pixel(both.source_url, 10, 10), 'blue');
    // the deprecated args: rotation, then the crop
    const legacy = await edit(original.id, { src: original.source_url, rotation: 270, x: 0, y: 0, width: 100, height: 50 });
    assert.equal(legacy.status, 201);
    const l = (await legacy.json()) as Obj;
    assert.deepEqual([l.media_details.width, l.media_details.height], [200, 200]);
    // counter-clockwise by a quarter: the right (blue) half is on top
    assert.equal(await pixel(l.source_url, 100, 100), 'blue');
    // each edit is a file of its own; editing an edited image gives no "-edited-edited"
    assert.match(cropped.source_url, /\/Crop-Me-edited\.png$/);
    assert.match(both.source_url, /\/Crop-Me-edited-1\.png$/);
    const reedited = (await (await edit(cropped.id, { src: cropped.source_url, rotation: 90 })).json()) as Obj;
    assert.match(reedited.source_url, /\/Crop-Me-edited-\d+\.png$/);
    assert.deepEqual(reedited.media_details.parent_image, { attachment_id: cropped.id, file: cropped.media_details.file });
  });

  it("answers WordPress's errors", async () => {
    const image = await upload(await halves(), 'Errors.png', 'image/png');
    assert.deepEqual(await error(await edit(image.id, { src: image.source_url })), errorOf('rest_image_not_edited', 'The image was not edited. Edit the image before applying the changes.', 400));
    assert.deepEqual(await error(await edit(image.id, { src: `${site.home}/cms-content/uploads/2020/01/other.png`, rotation: 90 })), errorOf('rest_unknown_attachment', 'Unable to get meta information for file.', 404));
    assert.deepEqual(await error(await edit(image.id, { rotation: 90 })), {
      status: 400,
      body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): src', data: { status: 400, params: ['src'] } },
    });
    assert.deepEqual(await error(await edit(image.id, { src: image.source_url, modifiers: [{ type: 'crop', args: { left: 0, top: 0, width: 0, height: 50 } }] })), errorOf('rest_image_crop_failed', 'Unable to crop this image.', 400));
    const flip = await error(await edit(image.id, { src: image.source_url, modifiers: [{ type: 'flip', args: { flip: { horizontal: true } } }] }));
    assert.equal(flip.status, 400);
    assert.equal(flip.body.code, 'rest_invalid_param');
    assert.deepEqual(Object.keys(flip.body.data.params), ['modifiers']);
    const text = await upload(Buffer.from('plain text'), 'notes.txt', 'text/plain');
    assert.deepEqual(await error(await edit(text.id, { src: text.source_url, rotation: 90 })), errorOf('rest_unknown_attachment', 'Unable to get meta information for file.', 404));
    const postId = ((await (await site.call('cms/v2/posts', { json: { title: 'Not media', status: 'publish' }, auth: site.admin })).json()) as Obj).id;
    assert.deepEqual(await error(await edit(postId, { src: image.source_url, rotation: 90 })), errorOf('rest_post_invalid_id', 'Invalid post ID.', 404));
    // permissions: upload_files first, then edit_post on the attachment
    const contributor = await userAuth(site, 'contributor');
    const author = await userAuth(site, 'author');
    assert.deepEqual(await error(await edit(image.id, { src: image.source_url, rotation: 90 }, '')), errorOf('rest_cannot_edit_image', 'Sorry, you are not allowed to upload media on this site.', 401));
    assert.deepEqual(await error(await edit(image.id, { src: image.source_url, rotation: 90 }, contributor.auth)), errorOf('rest_cannot_edit_image', 'Sorry, you are not allowed to upload media on this site.', 403));
    assert.deepEqual(await error(await edit(image.id, { src: image.source_url, rotation: 90 }, author.auth)), errorOf('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', 403));
    const own = await upload(await halves(), 'Own.png', 'image/png', author.auth);
    const mine = await edit(own.id, { src: own.source_url, rotation: 90 }, author.auth);
    assert.equal(mine.status, 201);
    assert.equal(((await mine.json()) as Obj).author, author.userId);
  });

  it('post-process makes the sizes an image lacks, and all of them for an image without metadata', async () => {
    const image = await upload(await halves(), 'Process.png', 'image/png');
    const folder = image.media_details.file.slice(0, image.media_details.file.lastIndexOf('/'));
    const mediumFile = join(site.app.site.media.uploadsDir, folder, image.media_details.sizes.medium.file);
    // as if the upload had stopped before its medium size was made
    const meta = JSON.parse((await site.app.store.posts.meta.get(image.id, '_wp_attachment_metadata'))!);
    delete meta.sizes.medium;
    await site.app.store.posts.meta.set(image.id, '_wp_attachment_metadata', JSON.stringify(meta));
    await unlink(mediumFile);
    const before = (await (await site.call(`cms/v2/media/${image.id}?context=edit`, { auth: site.admin })).json()) as Obj;
    assert.deepEqual(before.missing_image_sizes, ['medium']);
    const res = await site.call(`cms/v2/media/${image.id}/post-process`, { method: 'POST', json: { action: 'create-image-subsizes' }, auth: site.admin });
    assert.equal(res.status, 200);
    const body = (await res.json()) as Obj;
    assert.deepEqual(body.missing_image_sizes, []);
    assert.equal(body.title.raw, 'Process');
    assert.deepEqual([body.media_details.sizes.medium.width, body.media_details.sizes.medium.height], [300, 150]);
    assert.ok(existsSync(mediumFile));
    // no metadata at all: made again from the file
    await site.app.store.posts.meta.delete(image.id, '_wp_attachment_metadata');
    const rebuilt = (await (await site.call(`cms/v2/media/${image.id}/post-process`, { method: 'POST', json: { action: 'create-image-subsizes' }, auth: site.admin })).json()) as Obj;
    assert.deepEqual([rebuilt.media_details.width, rebuilt.media_details.height], [400, 200]);
    assert.deepEqual(Object.keys(rebuilt.media_details.sizes).sort(), ['full', 'medium', 'thumbnail']);
  });

  it('post-process refuses a missing or unknown action, an unknown attachment and callers who may not edit it', async () => {
    const image = await upload(await halves(), 'Guarded.png', 'image/png');
    const processOf = (json: unknown, auth = site.admin, id = image.id) => site.call(`cms/v2/media/${id}/post-process`, { method: 'POST', json, auth });
    assert.deepEqual(await error(await processOf({})), {
      status: 400,
      body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): action', data: { status: 400, params: ['action'] } },
    });
    const unknown = await error(await processOf({ action: 'resize' }));
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.data.params.action, 'action is not create-image-subsizes.');
    assert.deepEqual(await error(await processOf({ action: 'create-image-subsizes' }, site.admin, 999999)), errorOf('rest_post_invalid_id', 'Invalid post ID.', 404));
    const author = await userAuth(site, 'author');
    assert.deepEqual(await error(await processOf({ action: 'create-image-subsizes' }, author.auth)), errorOf('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', 403));
    assert.deepEqual(await error(await processOf({ action: 'create-image-subsizes' }, '')), errorOf('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', 401));
  });
});
