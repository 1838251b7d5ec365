import type { BlockTypeDefinition } from '../blocks.ts';
import { block } from './block-definition.ts';
import { avatar } from './render/avatar.ts';
import { postAuthor, postContent, postDate, postExcerpt, postTerms, postTitle, readMore } from './render/post.ts';
import { postTemplate, queryNoResults, queryPagination, queryPaginationNext, queryPaginationNumbers, queryPaginationPrevious, queryTitle } from './render/query.ts';
import { loginout, termDescription } from './render/visitor.ts';

/**
 * The core blocks that show the posts of their context and of a query (WordPress 6.1's block.json
 * of each, its REST handles), rendered as their render_block_core_* callbacks by `render/post.ts`
 * and `render/query.ts`, and the blocks that show the page's visitor and term (`render/visitor.ts`).
 * `core/query` itself is static: it only provides its query as context to the blocks inside.
 */

export const POST_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/post-title', title: 'Post Title', category: 'theme',
    description: 'Displays the title of a post, page, or any other content-type.',
    attributes: { textAlign: { type: 'string' }, level: { type: 'number', default: 2 }, isLink: { type: 'boolean', default: false }, rel: { type: 'string', attribute: 'rel', default: '' }, linkTarget: { type: 'string', default: '_self' } },
    usesContext: ['postId', 'postType', 'queryId'],
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true, textTransform: true } } },
    editorStyleHandles: ['wp-block-post-title-editor'], styleHandles: ['wp-block-post-title'],
    render: postTitle,
  }),
  block({
    name: 'core/post-date', title: 'Post Date', category: 'theme',
    description: 'Add the date of this post.',
    attributes: { textAlign: { type: 'string' }, format: { type: 'string' }, isLink: { type: 'boolean', default: false }, displayType: { type: 'string', default: 'date' } },
    usesContext: ['postId', 'postType', 'queryId'],
    supports: { html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-date-editor'], styleHandles: ['wp-block-post-date'],
    render: postDate,
  }),
  block({
    name: 'core/post-excerpt', title: 'Post Excerpt', category: 'theme',
    description: 'Display a post\'s excerpt.',
    attributes: { textAlign: { type: 'string' }, moreText: { type: 'string' }, showMoreOnNewLine: { type: 'boolean', default: true } },
    usesContext: ['postId', 'postType', 'queryId'],
    supports: { html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-excerpt-editor'], styleHandles: ['wp-block-post-excerpt'],
    render: postExcerpt,
  }),
  block({
    name: 'core/read-more', title: 'Read More', category: 'theme',
    description: 'Displays the link of a post, page, or any other content-type.',
    attributes: { content: { type: 'string' }, linkTarget: { type: 'string', default: '_self' } },
    usesContext: ['postId'],
    supports: { html: false, color: { gradients: true, text: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalLetterSpacing: true, __experimentalTextDecoration: true, __experimentalDefaultControls: { fontSize: true, textDecoration: true } }, spacing: { margin: ['top', 'bottom'], padding: true, __experimentalDefaultControls: { padding: true } }, __experimentalBorder: { color: true, radius: true, width: true, __experimentalDefaultControls: { width: true } } },
    editorStyleHandles: ['wp-block-read-more-editor'], styleHandles: ['wp-block-read-more'],
    render: readMore,
  }),
  block({
    name: 'core/post-terms', title: 'Post Terms', category: 'theme',
    description: 'Post terms.',
    attributes: { term: { type: 'string' }, textAlign: { type: 'string' }, separator: { type: 'string', default: ', ' }, prefix: { type: 'string', default: '' }, suffix: { type: 'string', default: '' } },
    usesContext: ['postId', 'postType'],
    supports: { html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-terms-editor'], styleHandles: ['wp-block-post-terms'],
    render: postTerms,
  }),
  block({
    name: 'core/post-author', title: 'Post Author', category: 'theme',
    description: 'Display post author details such as name, avatar, and bio.',
    attributes: { textAlign: { type: 'string' }, avatarSize: { type: 'number', default: 48 }, showAvatar: { type: 'boolean', default: true }, showBio: { type: 'boolean' }, byline: { type: 'string' } },
    usesContext: ['postType', 'postId', 'queryId'],
    supports: { html: false, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } }, color: { gradients: true, link: true, __experimentalDuotone: '.wp-block-post-author__avatar img', __experimentalDefaultControls: { background: true, text: true } } },
    editorStyleHandles: ['wp-block-post-author-editor'], styleHandles: ['wp-block-post-author'],
    render: postAuthor,
  }),
  block({
    name: 'core/post-content', title: 'Post Content', category: 'theme',
    description: 'Displays the contents of a post or page.',
    usesContext: ['postId', 'postType', 'queryId'],
    supports: { align: ['wide', 'full'], html: false, __experimentalLayout: true, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-content-editor'], styleHandles: ['wp-block-post-content'],
    render: postContent,
  }),
  block({
    name: 'core/avatar', title: 'Avatar', category: 'theme',
    description: 'Add a user\'s avatar.',
    attributes: { userId: { type: 'number' }, size: { type: 'number', default: 96 }, isLink: { type: 'boolean', default: false }, linkTarget: { type: 'string', default: '_self' } },
    usesContext: ['postType', 'postId', 'commentId'],
    supports: { html: false, align: true, alignWide: false, spacing: { margin: true, padding: true }, __experimentalBorder: { __experimentalSkipSerialization: true, radius: true, width: true, color: true, style: true, __experimentalDefaultControls: { radius: true } }, color: { text: false, background: false, __experimentalDuotone: 'img' } },
    editorStyleHandles: ['wp-block-avatar-editor'], styleHandles: ['wp-block-avatar'],
    render: avatar,
  }),
  block({
    name: 'core/query', title: 'Query Loop', category: 'theme',
    description: 'An advanced block that allows displaying post types based on different query parameters and visual configurations.',
    attributes: { queryId: { type: 'number' }, query: { type: 'object', default: { perPage: null, pages: 0, offset: 0, postType: 'post', order: 'desc', orderBy: 'date', author: '', search: '', exclude: [], sticky: '', inherit: true, taxQuery: null, parents: [] } }, tagName: { type: 'string', default: 'div' }, displayLayout: { type: 'object', default: { type: 'list' } }, namespace: { type: 'string' } },
    providesContext: { queryId: 'queryId', query: 'query', displayLayout: 'displayLayout' },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, __experimentalLayout: true },
    editorStyleHandles: ['wp-block-query-editor'], styleHandles: ['wp-block-query'],
  }),
  block({
    name: 'core/post-template', title: 'Post Template', category: 'theme', parent: ['core/query'],
    description: 'Contains the block elements used to render a post, like the title, date, featured image, content or excerpt, and more.',
    usesContext: ['queryId', 'query', 'queryContext', 'displayLayout', 'templateSlug', 'previewPostType'],
    supports: { reusable: false, html: false, align: true, __experimentalLayout: { allowEditing: false }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-post-template-editor'], styleHandles: ['wp-block-post-template'],
    skipInnerBlocks: true,
    render: postTemplate,
  }),
  block({
    name: 'core/query-pagination', title: 'Pagination', category: 'theme', parent: ['core/query'],
    description: 'Displays a paginated navigation to next/previous set of posts, when applicable.',
    attributes: { paginationArrow: { type: 'string', default: 'none' } },
    providesContext: { paginationArrow: 'paginationArrow' },
    usesContext: ['queryId', 'query'],
    supports: { align: true, reusable: false, html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, default: { type: 'flex' } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-query-pagination-editor'], styleHandles: ['wp-block-query-pagination'],
    render: queryPagination,
  }),
  block({
    name: 'core/query-pagination-next', title: 'Next Page', category: 'theme', parent: ['core/query-pagination'],
    description: 'Displays the next posts page link.',
    attributes: { label: { type: 'string' } },
    usesContext: ['queryId', 'query', 'paginationArrow'],
    supports: { reusable: false, html: false, color: { gradients: true, text: false, __experimentalDefaultControls: { background: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-query-pagination-next-editor'], styleHandles: ['wp-block-query-pagination-next'],
    render: queryPaginationNext,
  }),
  block({
    name: 'core/query-pagination-previous', title: 'Previous Page', category: 'theme', parent: ['core/query-pagination'],
    description: 'Displays the previous posts page link.',
    attributes: { label: { type: 'string' } },
    usesContext: ['queryId', 'query', 'paginationArrow'],
    supports: { reusable: false, html: false, color: { gradients: true, text: false, __experimentalDefaultControls: { background: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-query-pagination-previous-editor'], styleHandles: ['wp-block-query-pagination-previous'],
    render: queryPaginationPrevious,
  }),
  block({
    name: 'core/query-pagination-numbers', title: 'Page Numbers', category: 'theme', parent: ['core/query-pagination'],
    description: 'Displays a list of page numbers for pagination',
    usesContext: ['queryId', 'query'],
    supports: { reusable: false, html: false, color: { gradients: true, text: false, __experimentalDefaultControls: { background: true } }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-query-pagination-numbers-editor'], styleHandles: ['wp-block-query-pagination-numbers'],
    render: queryPaginationNumbers,
  }),
  block({
    name: 'core/query-no-results', title: 'No results', category: 'theme', parent: ['core/query'],
    description: 'Contains the block elements used to render content when no query results are found.',
    usesContext: ['queryId', 'query'],
    supports: { align: true, reusable: false, html: false, color: { gradients: true, link: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-query-no-results-editor'], styleHandles: ['wp-block-query-no-results'],
    render: queryNoResults,
  }),
  block({
    name: 'core/query-title', title: 'Query Title', category: 'theme',
    description: 'Display the query title.',
    attributes: { type: { type: 'string' }, textAlign: { type: 'string' }, level: { type: 'number', default: 1 }, showPrefix: { type: 'boolean', default: true }, showSearchTerm: { type: 'boolean', default: true } },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true, textTransform: true } } },
    editorStyleHandles: ['wp-block-query-title-editor'], styleHandles: ['wp-block-query-title'],
    render: queryTitle,
  }),
  block({
    name: 'core/term-description', title: 'Term Description', category: 'theme',
    description: 'Display the description of categories, tags and custom taxonomies when viewing an archive.',
    attributes: { textAlign: { type: 'string' } },
    supports: { align: ['wide', 'full'], html: false, color: { link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { padding: true, margin: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-term-description-editor'], styleHandles: ['wp-block-term-description'],
    render: termDescription,
  }),
  block({
    name: 'core/loginout', title: 'Login/out', category: 'theme',
    description: 'Show login & logout links.',
    keywords: ['login', 'logout', 'form'],
    attributes: { displayLoginAsForm: { type: 'boolean', default: false }, redirectToCurrent: { type: 'boolean', default: true } },
    supports: { className: true, typography: { fontSize: false } },
    editorStyleHandles: ['wp-block-loginout-editor'], styleHandles: ['wp-block-loginout'],
    render: loginout,
  }),
];
