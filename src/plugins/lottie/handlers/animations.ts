import { createHash } from 'node:crypto';
import { RestError, RestResponse } from '../../../engine/index.ts';
import type { Ctx } from '../../../core/context.ts';
import { contentChanged } from '../../../core/events.ts';
import { LOTTIE_TYPE } from '../plugin.ts';
import { lottieProblems } from '../validate.ts';

/** The animation in the request: a JSON object, or a string holding one (the block sends either). */
function animationOf(ctx: Ctx, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw ctx.fail('invalid_json');
  }
}

/** POST animations: checks the Lottie document, stores it as a published designkit_lottie post, answers `{value, label}`. */
export async function create(ctx: Ctx<'lottie:animations.create'>) {
  const title = ctx.args.title?.trim() ?? '';
  if (!title) throw ctx.fail('missing_title');
  if (ctx.args.lottieFile === undefined || ctx.args.lottieFile === null) throw ctx.fail('missing_file');
  const animation = animationOf(ctx, ctx.args.lottieFile);
  const problems = lottieProblems(animation);
  if (problems.length) throw ctx.fail('invalid_lottie', { problem: problems[0] }, { problems: problems.slice(0, 20) });
  const id = await ctx.store.posts.insert({
    type: LOTTIE_TYPE,
    status: 'publish',
    author: ctx.user!.id,
    title,
    content: JSON.stringify(animation),
    mime_type: 'application/json',
    comment_status: 'closed',
    ping_status: 'closed',
  });
  await contentChanged(ctx, { type: 'postSaved', postId: id, postType: LOTTIE_TYPE });
  return { value: id, label: title };
}

/**
 * GET animations/{id} (or {id}.json): the stored animation, public while it is published, with an
 * ETag of its stored bytes; a matching If-None-Match is answered 304 without a body.
 */
export async function get(ctx: Ctx<'lottie:animations.get'>) {
  const id = Number(String(ctx.args.id).replace(/\.json$/i, ''));
  const post = Number.isSafeInteger(id) ? await ctx.store.posts.get(id) : undefined;
  if (!post || post.type !== LOTTIE_TYPE || post.status !== 'publish') throw ctx.fail('not_found');
  let animation: unknown;
  try {
    animation = JSON.parse(post.content);
  } catch {
    // invalid_json's other wording and status: the real plugin's, for a stored animation that is broken
    throw new RestError('invalid_json', 'Lottie animation file contains invalid json', 404);
  }
  const etag = `"${createHash('sha256').update(post.content).digest('base64url').slice(0, 27)}"`;
  const headers = { ETag: etag, 'Cache-Control': 'public, max-age=0, must-revalidate', 'Last-Modified': new Date(`${post.modified_gmt.replace(' ', 'T')}Z`).toUTCString() };
  if (ctx.request.headers['if-none-match'] === etag) return new RestResponse(null, 304, headers);
  return new RestResponse(animation, 200, headers);
}
