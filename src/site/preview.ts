import type { CmsEngine as Engine } from '../core/context.ts';
import type { PageRequest, PageResponse } from '../engine/server.ts';
import { wpDiePage } from '../engine/critical-error.ts';
import { BrowserSessions } from '../auth/session.ts';
import { toUser } from '../auth/users.ts';
import { canEdit, type Caller } from '../core/post-access.ts';
import { autosaveSlug, previewNonceAction } from '../core/revisions.ts';
import type { PostRow } from '../store/posts.ts';

/**
 * Previews, as WordPress 6.1's front end gives them (`_show_post_preview`, WP_Query's `preview`,
 * `_set_preview`): a page asked with `preview_id` and `preview_nonce` (an autosave's
 * `preview_link`) is refused unless the nonce is the viewer's for that post, in their browser
 * session; with `preview` too, a logged-in viewer who may edit the post sees it whatever its
 * status (a draft at `?p=ID`), and, when the nonce was checked, with the title, content and
 * excerpt of its newest autosave.
 */

/** A preview asked by a logged-in viewer; `autosave` when the nonce named the post and was theirs. */
export interface Preview {
  viewer: Caller;
  autosave: boolean;
}

const DENIED = 'Sorry, you are not allowed to preview drafts.';

/** The request's preview, null when it asks none a viewer can have, or the 403 of a nonce that is not the viewer's. */
export async function previewOf(engine: Engine, req: PageRequest): Promise<Preview | null | PageResponse> {
  const { preview, preview_id: id, preview_nonce: nonce } = req.query;
  const checked = id !== undefined && nonce !== undefined;
  if (preview === undefined && !checked) return null;
  const sessions = await BrowserSessions.of(engine.store);
  const session = await sessions.read(req.headers.cookie);
  const loggedIn = session?.user ? session : null;
  // _show_post_preview, on every front-end request: wp_verify_nonce( preview_nonce, 'post_preview_' . (int) preview_id )
  if (checked && !sessions.verifyNonce(loggedIn, previewNonceAction(Math.trunc(Number(id)) || 0), String(nonce))) return wpDiePage(DENIED, 403, 'noindex, nofollow');
  // is_preview: a non-empty `preview` query var
  if (!preview || !loggedIn?.user) return null;
  const user = toUser(loggedIn.user, engine.site.roles);
  return { viewer: { user, can: (cap) => user.caps.has(cap) }, autosave: checked };
}

/** Whether the preview shows this post: the viewer may edit it (WP_Query shows a draft to them only in a preview). */
export function previewShows(engine: Engine, preview: Preview, post: PostRow): boolean {
  const type = engine.site.types.postType(post.type);
  return type !== undefined && post.status !== 'trash' && canEdit(preview.viewer, type, post);
}

/** `_set_preview`: the post with its newest autosave's title, content and excerpt, when the nonce was checked and it has one. */
export async function previewed(engine: Engine, preview: Preview, post: PostRow): Promise<PostRow> {
  if (!preview.autosave || !previewShows(engine, preview, post)) return post;
  const autosave = await engine.store.posts.newestRevision(post.id, autosaveSlug(post.id));
  return autosave ? { ...post, title: autosave.title, content: autosave.content, excerpt: autosave.excerpt } : post;
}
