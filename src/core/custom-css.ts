import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import { STYLESHEET } from './active-theme.ts';
import { changeThemeMods, themeMods } from './theme-mods.ts';

/**
 * The Additional CSS of the active theme, kept as WordPress keeps it (wp-includes/theme.php): a
 * published post of type `custom_css` titled and named after the theme's stylesheet, whose
 * content is the CSS, found through the theme mod `custom_css_post_id`, else by its name.
 */

export const CUSTOM_CSS_TYPE = 'custom_css';
const POST_ID_MOD = 'custom_css_post_id';

/**
 * wp_get_custom_css_post for the active theme: the post, or none. WordPress also writes the id it
 * found (or -1) back to the mod; a page view here writes nothing, so the lookup by name is kept.
 */
export async function customCssPost(store: Store): Promise<PostRow | undefined> {
  const postId = Number((await themeMods(store))[POST_ID_MOD]) || 0;
  if (postId > 0) {
    const post = await store.posts.get(postId);
    if (post && post.type === CUSTOM_CSS_TYPE) return post;
  }
  return (await store.posts.query({ types: [CUSTOM_CSS_TYPE], slugs: [STYLESHEET], orderby: 'id', order: 'asc', offset: 0, limit: 1 })).rows[0];
}

/** wp_get_custom_css: the active theme's Additional CSS, '' when it has none. */
export async function customCss(store: Store): Promise<string> {
  return (await customCssPost(store))?.content ?? '';
}

/**
 * wp_update_custom_css_post for the active theme: the post's content replaced, or the post created
 * (published, `author` its author) and named in the theme mod. Answers the post's id and its CSS
 * before (null when it was created).
 */
export async function updateCustomCss(store: Store, css: string, author: number): Promise<{ id: number; previous: string | null }> {
  const post = await customCssPost(store);
  if (post) {
    await store.posts.update(post.id, { content: css });
    return { id: post.id, previous: post.content };
  }
  const id = await store.posts.insert({ type: CUSTOM_CSS_TYPE, title: STYLESHEET, slug: STYLESHEET, content: css, status: 'publish', author, comment_status: 'closed', ping_status: 'closed' });
  await changeThemeMods(store, (mods) => ({ ...mods, [POST_ID_MOD]: id }));
  return { id, previous: null };
}
