/**
 * The visitor of a site's page as the comment forms printed on it see them, kept apart from the
 * form's markup (comment-form.ts) so that the page context (site.ts) can name it without an import cycle.
 */

/** Who the browser says it is (wp_get_current_commenter). */
export interface Commenter {
  name: string;
  email: string;
  url: string;
}

/**
 * The visitor of a site's page, lent to the blocks through the page context: a REST rendering has
 * none, so its form is the one every anonymous visitor gets, without a token.
 */
export interface CommentFormVisitor {
  /** The hidden `_token` field's value for a post's form, bound to the browser (POST /wp-comments-post.php requires it). */
  formToken(postId: number): string;
  commenter?: Commenter;
  /** Set once a form (id="respond") is on the page, so the theme's comments section prints no second one with the same ids. */
  formShown: boolean;
}
