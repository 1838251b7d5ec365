import type { BlockTypeDefinition } from '../blocks.ts';
import { block, TYPOGRAPHY } from './block-definition.ts';
import { nothingToLink } from './render/comment-links.ts';
import { postComments } from './render/post-comments.ts';
import { commentAuthorName, commentContent, commentDate, commentReplyLink, comments, commentsPagination, commentsTitle, commentTemplate, postCommentsForm } from './render/comments.ts';

/**
 * The Comments block and the blocks of its thread (WordPress 6.1's block.json of each, its REST
 * handles), rendered as their render_block_core_* callbacks by `render/comments.ts`.
 */

export const COMMENT_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/comments', title: 'Comments', category: 'theme',
    description: 'An advanced block that allows displaying post comments using different visual configurations.',
    attributes: { tagName: { type: 'string', default: 'div' }, legacy: { type: 'boolean', default: false } },
    usesContext: ['postId', 'postType'],
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comments-editor'], styleHandles: ['wp-block-comments'],
    skipInnerBlocks: true,
    render: comments,
  }),
  block({
    name: 'core/comment-template', title: 'Comment Template', category: 'design', parent: ['core/comments'],
    description: 'Contains the block elements used to display a comment, like the title, date, author, avatar and more.',
    usesContext: ['postId'],
    supports: { reusable: false, html: false, align: true, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comment-template-editor'], styleHandles: ['wp-block-comment-template'],
    skipInnerBlocks: true,
    render: commentTemplate,
  }),
  block({
    name: 'core/comments-title', title: 'Comments Title', category: 'theme', ancestor: ['core/comments'],
    description: 'Displays a title with the number of comments',
    attributes: { textAlign: { type: 'string' }, showPostTitle: { type: 'boolean', default: true }, showCommentsCount: { type: 'boolean', default: true }, level: { type: 'number', default: 2 } },
    usesContext: ['postId', 'postType'],
    supports: { anchor: false, align: true, html: false, __experimentalBorder: { radius: true, color: true, width: true, style: true }, color: { gradients: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, __experimentalFontFamily: true, __experimentalFontStyle: true, __experimentalFontWeight: true } } },
    editorStyleHandles: ['wp-block-comments-title-editor'], styleHandles: ['wp-block-comments-title'],
    render: commentsTitle,
  }),
  block({
    name: 'core/comment-author-name', title: 'Comment Author Name', category: 'theme', ancestor: ['core/comment-template'],
    description: 'Displays the name of the author of the comment.',
    attributes: { isLink: { type: 'boolean', default: true }, linkTarget: { type: 'string', default: '_self' }, textAlign: { type: 'string' } },
    usesContext: ['commentId'],
    supports: { html: false, spacing: { margin: true, padding: true }, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comment-author-name-editor'], styleHandles: ['wp-block-comment-author-name'],
    render: commentAuthorName,
  }),
  block({
    name: 'core/comment-content', title: 'Comment Content', category: 'theme', ancestor: ['core/comment-template'],
    description: 'Displays the contents of a comment.',
    attributes: { textAlign: { type: 'string' } },
    usesContext: ['commentId'],
    supports: { color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, typography: TYPOGRAPHY, spacing: { padding: ['horizontal', 'vertical'], __experimentalDefaultControls: { padding: true } }, html: false },
    editorStyleHandles: ['wp-block-comment-content-editor'], styleHandles: ['wp-block-comment-content'],
    render: commentContent,
  }),
  block({
    name: 'core/comment-date', title: 'Comment Date', category: 'theme', ancestor: ['core/comment-template'],
    description: 'Displays the date on which the comment was posted.',
    attributes: { format: { type: 'string' }, isLink: { type: 'boolean', default: true } },
    usesContext: ['commentId'],
    supports: { html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comment-date-editor'], styleHandles: ['wp-block-comment-date'],
    render: commentDate,
  }),
  block({
    name: 'core/comment-reply-link', title: 'Comment Reply Link', category: 'theme', ancestor: ['core/comment-template'],
    description: 'Displays a link to reply to a comment.',
    attributes: { textAlign: { type: 'string' } },
    usesContext: ['commentId'],
    supports: { color: { gradients: true, link: true, text: false, __experimentalDefaultControls: { background: true, link: true } }, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY, html: false },
    editorStyleHandles: ['wp-block-comment-reply-link-editor'], styleHandles: ['wp-block-comment-reply-link'],
    render: commentReplyLink,
  }),
  block({
    name: 'core/comments-pagination', title: 'Comments Pagination', category: 'theme', parent: ['core/comments'],
    description: 'Displays a paginated navigation to next/previous set of comments, when applicable.',
    attributes: { paginationArrow: { type: 'string', default: 'none' } },
    providesContext: { "comments/paginationArrow": 'paginationArrow' },
    supports: { align: true, reusable: false, html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, default: { type: 'flex' } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comments-pagination-editor'], styleHandles: ['wp-block-comments-pagination'],
    render: commentsPagination,
  }),
  block({
    name: 'core/post-comments-form', title: 'Post Comments Form', category: 'theme',
    description: "Display a post's comments form.",
    attributes: { textAlign: { type: 'string' } },
    usesContext: ['postId', 'postType'],
    supports: { html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-comments-form-editor'], styleHandles: ['wp-block-post-comments-form', 'wp-block-buttons', 'wp-block-button'],
    render: postCommentsForm,
  }),
  block({
    name: 'core/comment-edit-link', title: 'Comment Edit Link', category: 'theme', ancestor: ['core/comment-template'],
    description: 'Displays a link to edit the comment in the WordPress Dashboard. This link is only visible to users with the edit comment capability.',
    attributes: { linkTarget: { type: 'string', default: '_self' }, textAlign: { type: 'string' } },
    usesContext: ['commentId'],
    supports: { html: false, color: { link: true, gradients: true, text: false, __experimentalDefaultControls: { background: true, link: true } }, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comment-edit-link-editor'], styleHandles: ['wp-block-comment-edit-link'],
    render: nothingToLink, pure: true,
  }),
  block({
    name: 'core/comments-pagination-previous', title: 'Comments Previous Page', category: 'theme', parent: ['core/comments-pagination'],
    description: 'Displays the previous comment\'s page link.',
    attributes: { label: { type: 'string' } },
    usesContext: ['postId', 'comments/paginationArrow'],
    supports: { reusable: false, html: false, color: { gradients: true, text: false, __experimentalDefaultControls: { background: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comments-pagination-previous-editor'], styleHandles: ['wp-block-comments-pagination-previous'],
    render: nothingToLink, pure: true,
  }),
  block({
    name: 'core/comments-pagination-numbers', title: 'Comments Page Numbers', category: 'theme', parent: ['core/comments-pagination'],
    description: 'Displays a list of page numbers for comments pagination.',
    usesContext: ['postId'],
    supports: { reusable: false, html: false, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comments-pagination-numbers-editor'], styleHandles: ['wp-block-comments-pagination-numbers'],
    render: nothingToLink, pure: true,
  }),
  block({
    name: 'core/comments-pagination-next', title: 'Comments Next Page', category: 'theme', parent: ['core/comments-pagination'],
    description: 'Displays the next comment\'s page link.',
    attributes: { label: { type: 'string' } },
    usesContext: ['postId', 'comments/paginationArrow'],
    supports: { reusable: false, html: false, color: { gradients: true, text: false, __experimentalDefaultControls: { background: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-comments-pagination-next-editor'], styleHandles: ['wp-block-comments-pagination-next'],
    render: nothingToLink, pure: true,
  }),
  // register_legacy_post_comments_block: registered by register_block_type with its metadata as
  // arguments, so no title, description or API version 2, and its camelCase `editorStyle` is no handle
  block({
    name: 'core/post-comments', title: '', category: 'theme', apiVersion: 1,
    attributes: { textAlign: { type: 'string' } },
    usesContext: ['postId', 'postType'],
    supports: { html: false, align: ['wide', 'full'], typography: { fontSize: true, lineHeight: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalDefaultControls: { fontSize: true } }, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, inserter: false },
    styleHandles: ['wp-block-post-comments', 'wp-block-buttons', 'wp-block-button'],
    skipInnerBlocks: true,
    render: postComments,
  }),
];
