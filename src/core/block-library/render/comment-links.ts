/**
 * The links of the Comments block that a rendering never shows.
 *
 * render_block_core_comment_edit_link prints the link only for a user who may edit the comment;
 * a rendering knows no visitor (it is the same for everyone, as it is kept), so, as for a visitor
 * who is not logged in, it renders nothing.
 *
 * render_block_core_comments_pagination_previous, _next and _numbers link to the other pages of a
 * post's comments; this site shows a post's comments on one page (comment-template lists them
 * all, as WordPress does with its default `page_comments` off, when get_comment_pages_count is 1),
 * so there is no other page and each renders nothing, as WordPress's do then.
 */
export const nothingToLink = (): string => '';
