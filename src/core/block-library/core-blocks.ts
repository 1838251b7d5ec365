import type { BlockSet, BlockTypeDefinition } from '../blocks.ts';
import { block, CONTENT, TYPOGRAPHY } from './block-definition.ts';
import { COMMENT_BLOCKS } from './comment-blocks.ts';
import { DESIGN_BLOCKS } from './design-blocks.ts';
import { MEDIA_BLOCKS } from './media-blocks.ts';
import { POST_BLOCKS } from './post-blocks.ts';
import { TEXT_BLOCKS } from './text-blocks.ts';
import { THEME_BLOCKS } from './theme-blocks.ts';
import { WIDGET_BLOCKS } from './widget-blocks.ts';
import { archives, categories, tagCloud } from './render/archives.ts';
import { calendar } from './render/calendar.ts';
import { latestComments } from './render/latest-comments.ts';
import { latestPosts, latestPostsCategories } from './render/latest-posts.ts';
import { homeLink, navigation, navigationLink, navigationSubmenu } from './render/navigation.ts';
import { pageList } from './render/page-list.ts';
import { search } from './render/search.ts';
import { gallery, galleryImageIds, image } from './render/gallery.ts';
import { cover, file } from './render/media.ts';
import { rss } from './render/rss.ts';
import { siteTagline, siteTitle } from './render/site-identity.ts';
import { socialLink } from './render/social-links.ts';
import { PATTERN_CATEGORIES, PATTERNS } from './patterns.ts';

/**
 * The core blocks this site renders, with WordPress 6.1's block.json metadata (name, title,
 * category, description, keywords, attributes, supports, styles), and the core's block patterns
 * and pattern categories. Static blocks print their saved markup; the dynamic ones (latest posts
 * and comments, calendar, archives, categories, tag cloud, search, page list, site title and
 * tagline, those of `post-blocks.ts` that show posts and queries and those of `comment-blocks.ts`) are rendered from the stored
 * content, as their render_block_core_* callbacks do (social icons from the links inside them), by `render/` (a module per block family);
 * the patterns and their categories are `patterns.ts`. The rest of the 90 blocks WordPress 6.1
 * registers are defined by family: `media-blocks.ts`, `text-blocks.ts`, `design-blocks.ts` (static),
 * `theme-blocks.ts` (site logo, template part, pattern, reusable block) and `widget-blocks.ts`.
 */

const STATIC_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/paragraph', title: 'Paragraph', category: 'text',
    description: 'Start with the basic building block of all narrative.', keywords: ['text'],
    attributes: {
      align: { type: 'string' },
      content: { type: 'string', source: 'html', selector: 'p', default: '', [CONTENT]: 'content' },
      dropCap: { type: 'boolean', default: false },
      placeholder: { type: 'string' },
      direction: { type: 'string', enum: ['ltr', 'rtl'] },
    },
    supports: { anchor: true, className: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalTextDecoration: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalDefaultControls: { fontSize: true } }, __experimentalSelector: 'p', __unstablePasteTextInline: true },
    editorStyleHandles: ['wp-block-paragraph-editor'], styleHandles: ['wp-block-paragraph'],
  }),
  block({
    name: 'core/heading', title: 'Heading', category: 'text',
    description: 'Introduce new sections and organize content to help visitors (and search engines) understand the structure of your content.', keywords: ['title', 'subtitle'],
    attributes: { textAlign: { type: 'string' }, content: { type: 'string', source: 'html', selector: 'h1,h2,h3,h4,h5,h6', default: '', [CONTENT]: 'content' }, level: { type: 'number', default: 2 }, placeholder: { type: 'string' } },
    supports: { align: ['wide', 'full'], anchor: true, className: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true, textTransform: true } }, __experimentalSelector: 'h1,h2,h3,h4,h5,h6', __unstablePasteTextInline: true, __experimentalSlashInserter: true },
    editorStyleHandles: ['wp-block-heading-editor'], styleHandles: ['wp-block-heading'],
  }),
  block({
    name: 'core/list', title: 'List', category: 'text',
    description: 'Create a bulleted or numbered list.', keywords: ['bullet list', 'ordered list', 'numbered list'],
    attributes: {
      ordered: { type: 'boolean', default: false, [CONTENT]: 'content' },
      values: { type: 'string', source: 'html', selector: 'ol,ul', multiline: 'li', __unstableMultilineWrapperTags: ['ol', 'ul'], default: '', [CONTENT]: 'content' },
      type: { type: 'string' },
      start: { type: 'number' },
      reversed: { type: 'boolean' },
      placeholder: { type: 'string' },
    },
    supports: { anchor: true, className: false, typography: TYPOGRAPHY, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, __unstablePasteTextInline: true, __experimentalSelector: 'ol,ul', __experimentalSlashInserter: true },
    editorStyleHandles: ['wp-block-list-editor'], styleHandles: ['wp-block-list'],
  }),
  block({
    name: 'core/list-item', title: 'List item', category: 'text', parent: ['core/list'],
    description: 'Create a list item.',
    attributes: { placeholder: { type: 'string' }, content: { type: 'string', source: 'html', selector: 'li', default: '', [CONTENT]: 'content' } },
    supports: { className: false, __experimentalSelector: 'li' },
    editorStyleHandles: ['wp-block-list-item-editor'], styleHandles: ['wp-block-list-item'],
  }),
  block({
    name: 'core/quote', title: 'Quote', category: 'text',
    description: 'Give quoted text visual emphasis. "In quoting others, we cite ourselves." — Julio Cortázar', keywords: ['blockquote', 'cite'],
    attributes: { value: { type: 'string', source: 'html', selector: 'blockquote', multiline: 'p', default: '', [CONTENT]: 'content' }, citation: { type: 'string', source: 'html', selector: 'cite', default: '', [CONTENT]: 'content' }, align: { type: 'string' } },
    supports: { anchor: true, __experimentalOnEnter: true, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, fontAppearance: true } }, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'plain', label: 'Plain' }],
    editorStyleHandles: ['wp-block-quote-editor'], styleHandles: ['wp-block-quote'],
  }),
  block({
    name: 'core/image', title: 'Image', category: 'media',
    description: 'Insert an image to make a visual statement.', keywords: ['img', 'photo', 'picture'],
    attributes: {
      align: { type: 'string' },
      url: { type: 'string', source: 'attribute', selector: 'img', attribute: 'src', [CONTENT]: 'content' },
      alt: { type: 'string', source: 'attribute', selector: 'img', attribute: 'alt', default: '', [CONTENT]: 'content' },
      caption: { type: 'string', source: 'html', selector: 'figcaption', [CONTENT]: 'content' },
      title: { type: 'string', source: 'attribute', selector: 'img', attribute: 'title', [CONTENT]: 'content' },
      href: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'href', [CONTENT]: 'content' },
      rel: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'rel' },
      linkClass: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'class' },
      id: { type: 'number', [CONTENT]: 'content' },
      width: { type: 'number' },
      height: { type: 'number' },
      sizeSlug: { type: 'string' },
      linkDestination: { type: 'string' },
      linkTarget: { type: 'string', source: 'attribute', selector: 'figure > a', attribute: 'target' },
    },
    usesContext: ['allowResize', 'imageCrop', 'fixedHeight'],
    supports: { anchor: true, color: { __experimentalDuotone: 'img, .components-placeholder', text: false, background: false }, __experimentalBorder: { color: true, radius: true, width: true, __experimentalSelector: 'img, .wp-block-image__crop-area', __experimentalSkipSerialization: true, __experimentalDefaultControls: { color: true, radius: true, width: true } } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'rounded', label: 'Rounded' }],
    editorStyleHandles: ['wp-block-image-editor'], styleHandles: ['wp-block-image'],
    render: image, pure: true,
  }),
  block({
    name: 'core/gallery', title: 'Gallery', category: 'media',
    description: 'Display multiple images in a rich gallery.', keywords: ['images', 'photos'],
    attributes: {
      images: {
        type: 'array', default: [], source: 'query', selector: '.blocks-gallery-item',
        query: {
          url: { type: 'string', source: 'attribute', selector: 'img', attribute: 'src' },
          fullUrl: { type: 'string', source: 'attribute', selector: 'img', attribute: 'data-full-url' },
          link: { type: 'string', source: 'attribute', selector: 'img', attribute: 'data-link' },
          alt: { type: 'string', source: 'attribute', selector: 'img', attribute: 'alt', default: '' },
          id: { type: 'string', source: 'attribute', selector: 'img', attribute: 'data-id' },
          caption: { type: 'string', source: 'html', selector: '.blocks-gallery-item__caption' },
        },
      },
      ids: { type: 'array', items: { type: 'number' }, default: [] },
      shortCodeTransforms: { type: 'array', default: [], items: { type: 'object' } },
      columns: { type: 'number', minimum: 1, maximum: 8 },
      caption: { type: 'string', source: 'html', selector: '.blocks-gallery-caption' },
      imageCrop: { type: 'boolean', default: true },
      fixedHeight: { type: 'boolean', default: true },
      linkTarget: { type: 'string' },
      linkTo: { type: 'string' },
      sizeSlug: { type: 'string', default: 'large' },
      allowResize: { type: 'boolean', default: false },
    },
    providesContext: { allowResize: 'allowResize', imageCrop: 'imageCrop', fixedHeight: 'fixedHeight' },
    supports: { anchor: true, align: true, html: false, units: ['px', 'em', 'rem', 'vh', 'vw'], spacing: { margin: true, padding: true, blockGap: ['horizontal', 'vertical'], __experimentalSkipSerialization: ['blockGap'], __experimentalDefaultControls: { blockGap: true } }, color: { text: false, background: true, gradients: true }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, allowEditing: false, default: { type: 'flex' } } },
    editorStyleHandles: ['wp-block-gallery-editor'], styleHandles: ['wp-block-gallery'],
    render: gallery, pure: true, blockData: galleryImageIds,
  }),
  block({
    name: 'core/cover', title: 'Cover', category: 'media',
    description: 'Add an image or video with a text overlay — great for headers.',
    attributes: {
      url: { type: 'string' },
      useFeaturedImage: { type: 'boolean', default: false },
      id: { type: 'number' },
      alt: { type: 'string', source: 'attribute', selector: 'img', attribute: 'alt', default: '' },
      hasParallax: { type: 'boolean', default: false },
      isRepeated: { type: 'boolean', default: false },
      dimRatio: { type: 'number', default: 100 },
      overlayColor: { type: 'string' },
      customOverlayColor: { type: 'string' },
      backgroundType: { type: 'string', default: 'image' },
      focalPoint: { type: 'object' },
      minHeight: { type: 'number' },
      minHeightUnit: { type: 'string' },
      gradient: { type: 'string' },
      customGradient: { type: 'string' },
      contentPosition: { type: 'string' },
      isDark: { type: 'boolean', default: true },
      allowedBlocks: { type: 'array' },
      templateLock: { type: ['string', 'boolean'], enum: ['all', 'insert', 'contentOnly', false] },
    },
    usesContext: ['postId', 'postType'],
    supports: { anchor: true, align: true, html: false, spacing: { padding: true, margin: ['top', 'bottom'], __experimentalDefaultControls: { padding: true } }, color: { __experimentalDuotone: '> .wp-block-cover__image-background, > .wp-block-cover__video-background', text: false, background: false }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-cover-editor'], styleHandles: ['wp-block-cover'],
    render: cover, pure: true,
  }),
  block({
    name: 'core/file', title: 'File', category: 'media',
    description: 'Add a link to a downloadable file.', keywords: ['document', 'pdf', 'download'],
    attributes: {
      id: { type: 'number' },
      href: { type: 'string' },
      fileId: { type: 'string', source: 'attribute', selector: 'a:not([download])', attribute: 'id' },
      fileName: { type: 'string', source: 'html', selector: 'a:not([download])' },
      textLinkHref: { type: 'string', source: 'attribute', selector: 'a:not([download])', attribute: 'href' },
      textLinkTarget: { type: 'string', source: 'attribute', selector: 'a:not([download])', attribute: 'target' },
      showDownloadButton: { type: 'boolean', default: true },
      downloadButtonText: { type: 'string', source: 'html', selector: 'a[download]' },
      displayPreview: { type: 'boolean' },
      previewHeight: { type: 'number', default: 600 },
    },
    supports: { anchor: true, align: true },
    editorStyleHandles: ['wp-block-file-editor'], styleHandles: ['wp-block-file'], viewScriptHandles: ['wp-block-file-view'],
    render: file, pure: true,
  }),
  block({
    name: 'core/code', title: 'Code', category: 'text',
    description: 'Display code snippets that respect your spacing and tabs.',
    attributes: { content: { type: 'string', source: 'html', selector: 'code' } },
    supports: { anchor: true, typography: TYPOGRAPHY, spacing: { margin: ['top', 'bottom'], padding: true }, __experimentalBorder: { radius: true, color: true, width: true, style: true, __experimentalDefaultControls: { width: true, color: true } }, color: { text: true, background: true, gradients: true, __experimentalDefaultControls: { background: true, text: true } } },
    editorStyleHandles: ['wp-block-code-editor'], styleHandles: ['wp-block-code'],
  }),
  block({
    name: 'core/preformatted', title: 'Preformatted', category: 'text',
    description: 'Add text that respects your spacing and tabs, and also allows styling.',
    attributes: { content: { type: 'string', source: 'html', selector: 'pre', default: '', __unstablePreserveWhiteSpace: true, [CONTENT]: 'content' } },
    supports: { anchor: true, color: { gradients: true, __experimentalDefaultControls: { background: true, text: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-preformatted-editor'], styleHandles: ['wp-block-preformatted'],
  }),
  block({
    name: 'core/separator', title: 'Separator', category: 'design',
    description: 'Create a break between ideas or sections with a horizontal separator.', keywords: ['horizontal-line', 'hr', 'divider'],
    attributes: { opacity: { type: 'string', default: 'alpha-channel' } },
    supports: { anchor: true, align: ['center', 'wide', 'full'], color: { enableContrastChecker: false, __experimentalSkipSerialization: true, gradients: true, background: true, text: false, __experimentalDefaultControls: { background: true } }, spacing: { margin: ['top', 'bottom'] } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'wide', label: 'Wide Line' }, { name: 'dots', label: 'Dots' }],
    editorStyleHandles: ['wp-block-separator-editor'], styleHandles: ['wp-block-separator'],
  }),
  block({
    name: 'core/html', title: 'Custom HTML', category: 'widgets',
    description: 'Add custom HTML code and preview it as you edit.', keywords: ['embed'],
    attributes: { content: { type: 'string', source: 'html' } },
    supports: { customClassName: false, className: false, html: false },
    editorStyleHandles: ['wp-block-html-editor'], styleHandles: ['wp-block-html'],
  }),
  block({
    name: 'core/group', title: 'Group', category: 'design',
    description: 'Gather blocks in a layout container.', keywords: ['container', 'wrapper', 'row', 'section'],
    attributes: { tagName: { type: 'string', default: 'div' }, templateLock: { type: ['string', 'boolean'], enum: ['all', 'insert', 'contentOnly', false] } },
    supports: { __experimentalOnEnter: true, __experimentalSettings: true, align: ['wide', 'full'], anchor: true, ariaLabel: true, html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: ['top', 'bottom'], padding: true, blockGap: true, __experimentalDefaultControls: { padding: true, blockGap: true } }, __experimentalBorder: { color: true, radius: true, style: true, width: true, __experimentalDefaultControls: { color: true, radius: true, style: true, width: true } }, typography: TYPOGRAPHY, __experimentalLayout: true },
    editorStyleHandles: ['wp-block-group-editor'], styleHandles: ['wp-block-group'],
  }),
  block({
    name: 'core/columns', title: 'Columns', category: 'design',
    description: 'Display content in multiple columns, with blocks added to each column.',
    attributes: { verticalAlignment: { type: 'string' }, isStackedOnMobile: { type: 'boolean', default: true } },
    supports: { anchor: true, align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { blockGap: { __experimentalDefault: '2em', sides: ['horizontal', 'vertical'] }, margin: ['top', 'bottom'], padding: true, __experimentalDefaultControls: { padding: true } }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, allowEditing: false, default: { type: 'flex', flexWrap: 'nowrap' } }, __experimentalBorder: { color: true, radius: true, style: true, width: true, __experimentalDefaultControls: { color: true, radius: true, style: true, width: true } }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-columns-editor'], styleHandles: ['wp-block-columns'],
  }),
  block({
    name: 'core/column', title: 'Column', category: 'text', parent: ['core/columns'],
    description: 'A single column within a columns block.',
    attributes: { verticalAlignment: { type: 'string' }, width: { type: 'string' }, allowedBlocks: { type: 'array' }, templateLock: { type: ['string', 'boolean'], enum: ['all', 'insert', 'contentOnly', false] } },
    supports: { anchor: true, reusable: false, html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { blockGap: true, padding: true, __experimentalDefaultControls: { padding: true } }, __experimentalBorder: { color: true, style: true, width: true, __experimentalDefaultControls: { color: true, style: true, width: true } }, typography: TYPOGRAPHY, __experimentalLayout: true },
    editorStyleHandles: ['wp-block-column-editor'], styleHandles: ['wp-block-column'],
  }),
  block({
    name: 'core/buttons', title: 'Buttons', category: 'design',
    description: 'Prompt visitors to take action with a group of button-style links.', keywords: ['link'],
    supports: { anchor: true, align: ['wide', 'full'], __experimentalExposeControlsToChildren: true, spacing: { blockGap: true, margin: ['top', 'bottom'], __experimentalDefaultControls: { blockGap: true } }, typography: TYPOGRAPHY, __experimentalLayout: { allowSwitching: false, allowInheriting: false, default: { type: 'flex' } } },
    editorStyleHandles: ['wp-block-buttons-editor'], styleHandles: ['wp-block-buttons'],
  }),
  block({
    name: 'core/button', title: 'Button', category: 'design', parent: ['core/buttons'],
    description: 'Prompt visitors to take action with a button-style link.', keywords: ['link'],
    attributes: {
      url: { type: 'string', source: 'attribute', selector: 'a', attribute: 'href' },
      title: { type: 'string', source: 'attribute', selector: 'a', attribute: 'title' },
      text: { type: 'string', source: 'html', selector: 'a' },
      linkTarget: { type: 'string', source: 'attribute', selector: 'a', attribute: 'target' },
      rel: { type: 'string', source: 'attribute', selector: 'a', attribute: 'rel' },
      placeholder: { type: 'string' },
      backgroundColor: { type: 'string' },
      textColor: { type: 'string' },
      gradient: { type: 'string' },
      width: { type: 'number' },
    },
    supports: { anchor: true, align: true, alignWide: false, color: { __experimentalSkipSerialization: true, gradients: true, __experimentalDefaultControls: { background: true, text: true } }, typography: TYPOGRAPHY, reusable: false, spacing: { __experimentalSkipSerialization: true, padding: ['horizontal', 'vertical'], __experimentalDefaultControls: { padding: true } }, __experimentalBorder: { radius: true, __experimentalSkipSerialization: true, __experimentalDefaultControls: { radius: true } }, __experimentalSelector: '.wp-block-button .wp-block-button__link' },
    styles: [{ name: 'fill', label: 'Fill', isDefault: true }, { name: 'outline', label: 'Outline' }],
    editorStyleHandles: ['wp-block-button-editor'], styleHandles: ['wp-block-button'],
  }),
];

const DYNAMIC_BLOCKS: BlockTypeDefinition[] = [
  block({
    name: 'core/latest-posts', title: 'Latest Posts', category: 'widgets',
    description: 'Display a list of your most recent posts.', keywords: ['recent posts'],
    attributes: {
      categories: { type: 'array', items: { type: 'object' } },
      selectedAuthor: { type: 'number' },
      postsToShow: { type: 'number', default: 5 },
      displayPostContent: { type: 'boolean', default: false },
      displayPostContentRadio: { type: 'string', default: 'excerpt' },
      excerptLength: { type: 'number', default: 55 },
      displayAuthor: { type: 'boolean', default: false },
      displayPostDate: { type: 'boolean', default: false },
      postLayout: { type: 'string', default: 'list' },
      columns: { type: 'number', default: 3 },
      order: { type: 'string', default: 'desc' },
      orderBy: { type: 'string', default: 'date' },
      displayFeaturedImage: { type: 'boolean', default: false },
      featuredImageAlign: { type: 'string', enum: ['left', 'center', 'right'] },
      featuredImageSizeSlug: { type: 'string', default: 'thumbnail' },
      featuredImageSizeWidth: { type: 'number', default: null },
      featuredImageSizeHeight: { type: 'number', default: null },
      addLinkToFeaturedImage: { type: 'boolean', default: false },
    },
    supports: { align: true, html: false, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-latest-posts-editor'], styleHandles: ['wp-block-latest-posts'],
    render: latestPosts, blockData: latestPostsCategories,
  }),
  block({
    name: 'core/latest-comments', title: 'Latest Comments', category: 'widgets',
    description: 'Display a list of your most recent comments.',
    keywords: ['recent comments'],
    attributes: { commentsToShow: { type: 'number', default: 5, minimum: 1, maximum: 100 }, displayAvatar: { type: 'boolean', default: true }, displayDate: { type: 'boolean', default: true }, displayExcerpt: { type: 'boolean', default: true } },
    supports: { align: true, html: false },
    editorStyleHandles: ['wp-block-latest-comments-editor'], styleHandles: ['wp-block-latest-comments'],
    render: latestComments,
  }),
  block({
    name: 'core/calendar', title: 'Calendar', category: 'widgets',
    description: 'A calendar of your site’s posts.',
    keywords: ['posts', 'archive'],
    attributes: { month: { type: 'integer' }, year: { type: 'integer' } },
    supports: { align: true, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-calendar-editor'], styleHandles: ['wp-block-calendar'],
    render: calendar,
  }),
  block({
    name: 'core/archives', title: 'Archives', category: 'widgets',
    description: 'Display a date archive of your posts.',
    attributes: { displayAsDropdown: { type: 'boolean', default: false }, showLabel: { type: 'boolean', default: true }, showPostCounts: { type: 'boolean', default: false }, type: { type: 'string', default: 'monthly' } },
    supports: { align: true, html: false, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-archives-editor'], styleHandles: ['wp-block-archives'],
    render: archives,
  }),
  block({
    name: 'core/categories', title: 'Categories List', category: 'widgets',
    description: 'Display a list of all categories.',
    attributes: {
      displayAsDropdown: { type: 'boolean', default: false },
      showHierarchy: { type: 'boolean', default: false },
      showPostCounts: { type: 'boolean', default: false },
      showOnlyTopLevel: { type: 'boolean', default: false },
      showEmpty: { type: 'boolean', default: false },
    },
    supports: { align: true, html: false, spacing: { margin: true, padding: true }, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-categories-editor'], styleHandles: ['wp-block-categories'],
    render: categories,
  }),
  block({
    name: 'core/tag-cloud', title: 'Tag Cloud', category: 'widgets',
    description: 'A cloud of your most used tags.',
    attributes: {
      numberOfTags: { type: 'number', default: 45, minimum: 1, maximum: 100 },
      taxonomy: { type: 'string', default: 'post_tag' },
      showTagCounts: { type: 'boolean', default: false },
      smallestFontSize: { type: 'string', default: '8pt' },
      largestFontSize: { type: 'string', default: '22pt' },
    },
    supports: { html: false, align: true, spacing: { margin: true, padding: true } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'outline', label: 'Outline' }],
    editorStyleHandles: ['wp-block-tag-cloud-editor'], styleHandles: ['wp-block-tag-cloud'],
    render: tagCloud,
  }),
  block({
    name: 'core/search', title: 'Search', category: 'widgets',
    description: 'Help visitors find your content.', keywords: ['find'],
    attributes: {
      label: { type: 'string', [CONTENT]: 'content' },
      showLabel: { type: 'boolean', default: true },
      placeholder: { type: 'string', default: '', [CONTENT]: 'content' },
      width: { type: 'number' },
      widthUnit: { type: 'string' },
      buttonText: { type: 'string', [CONTENT]: 'content' },
      buttonPosition: { type: 'string', default: 'button-outside' },
      buttonUseIcon: { type: 'boolean', default: false },
      // block.json's `default: {}`: json_decode gives PHP an empty array, which REST answers as `[]`
      query: { type: 'object', default: [] },
    },
    supports: { align: ['left', 'center', 'right'], color: { gradients: true, __experimentalSkipSerialization: true, __experimentalDefaultControls: { background: true, text: true } }, typography: { __experimentalSkipSerialization: true, __experimentalSelector: '.wp-block-search__label, .wp-block-search__input, .wp-block-search__button', fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalFontWeight: true, __experimentalFontStyle: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } }, __experimentalBorder: { color: true, radius: true, width: true, __experimentalSkipSerialization: true, __experimentalDefaultControls: { color: true, radius: true, width: true } }, html: false },
    editorStyleHandles: ['wp-block-search-editor'], styleHandles: ['wp-block-search'],
    render: search,
  }),
  block({
    name: 'core/navigation', title: 'Navigation', category: 'theme',
    description: 'A collection of blocks that allow visitors to get around your site.',
    keywords: ['menu', 'navigation', 'links'],
    attributes: { ref: { type: 'number' }, textColor: { type: 'string' }, customTextColor: { type: 'string' }, rgbTextColor: { type: 'string' }, backgroundColor: { type: 'string' }, customBackgroundColor: { type: 'string' }, rgbBackgroundColor: { type: 'string' }, showSubmenuIcon: { type: 'boolean', default: true }, openSubmenusOnClick: { type: 'boolean', default: false }, overlayMenu: { type: 'string', default: 'mobile' }, icon: { type: 'string', default: 'handle' }, hasIcon: { type: 'boolean', default: true }, __unstableLocation: { type: 'string' }, overlayBackgroundColor: { type: 'string' }, customOverlayBackgroundColor: { type: 'string' }, overlayTextColor: { type: 'string' }, customOverlayTextColor: { type: 'string' }, maxNestingLevel: { type: 'number', default: 5 } },
    providesContext: { textColor: 'textColor', customTextColor: 'customTextColor', backgroundColor: 'backgroundColor', customBackgroundColor: 'customBackgroundColor', overlayTextColor: 'overlayTextColor', customOverlayTextColor: 'customOverlayTextColor', overlayBackgroundColor: 'overlayBackgroundColor', customOverlayBackgroundColor: 'customOverlayBackgroundColor', fontSize: 'fontSize', customFontSize: 'customFontSize', showSubmenuIcon: 'showSubmenuIcon', openSubmenusOnClick: 'openSubmenusOnClick', style: 'style', orientation: 'orientation', maxNestingLevel: 'maxNestingLevel' },
    supports: { align: ['wide', 'full'], html: false, inserter: true, typography: { fontSize: true, lineHeight: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalTextTransform: true, __experimentalFontFamily: true, __experimentalLetterSpacing: true, __experimentalTextDecoration: true, __experimentalSkipSerialization: ['textDecoration'], __experimentalDefaultControls: { fontSize: true } }, spacing: { blockGap: true, units: ['px', 'em', 'rem', 'vh', 'vw'], __experimentalDefaultControls: { blockGap: true } }, __experimentalLayout: { allowSwitching: false, allowInheriting: false, allowVerticalAlignment: false, default: { type: 'flex' } }, __experimentalStyle: { elements: { link: { color: { text: 'inherit' } } } } },
    viewScriptHandles: ['wp-block-navigation-view', 'wp-block-navigation-view-2'], editorStyleHandles: ['wp-block-navigation-editor'], styleHandles: ['wp-block-navigation'],
    render: navigation,
  }),
  block({
    name: 'core/home-link', title: 'Home Link', category: 'design', parent: ['core/navigation'],
    description: 'Create a link that always points to the homepage of the site. Usually not necessary if there is already a site title link present in the header.',
    attributes: { label: { type: 'string' } },
    usesContext: ['textColor', 'customTextColor', 'backgroundColor', 'customBackgroundColor', 'fontSize', 'customFontSize', 'style'],
    supports: { reusable: false, html: false, typography: TYPOGRAPHY },
    editorStyleHandles: ['wp-block-home-link-editor'], styleHandles: ['wp-block-home-link'],
    render: homeLink,
  }),
  block({
    name: 'core/navigation-link', title: 'Custom Link', category: 'design', parent: ['core/navigation'],
    description: 'Add a page, link, or another item to your navigation.',
    attributes: { label: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' }, rel: { type: 'string' }, id: { type: 'number' }, opensInNewTab: { type: 'boolean', default: false }, url: { type: 'string' }, title: { type: 'string' }, kind: { type: 'string' }, isTopLevelLink: { type: 'boolean' } },
    usesContext: ['textColor', 'customTextColor', 'backgroundColor', 'customBackgroundColor', 'overlayTextColor', 'customOverlayTextColor', 'overlayBackgroundColor', 'customOverlayBackgroundColor', 'fontSize', 'customFontSize', 'showSubmenuIcon', 'maxNestingLevel', 'style'],
    supports: { reusable: false, html: false, __experimentalSlashInserter: true, typography: TYPOGRAPHY },
    // build_variations_for_navigation_link: the core's post types and taxonomies shown in nav menus (a plugin's are not added)
    variations: [
      { name: 'post', title: 'Post Link', description: 'A link to a post.', attributes: { type: 'post', kind: 'post-type' } },
      { name: 'page', title: 'Page Link', description: 'A link to a page.', attributes: { type: 'page', kind: 'post-type' } },
      { name: 'category', title: 'Category Link', description: 'A link to a category.', attributes: { type: 'category', kind: 'taxonomy' } },
      { name: 'tag', title: 'Tag Link', description: 'A link to a tag.', attributes: { type: 'tag', kind: 'taxonomy' } },
    ],
    editorStyleHandles: ['wp-block-navigation-link-editor'], styleHandles: ['wp-block-navigation-link'],
    render: navigationLink,
  }),
  block({
    name: 'core/navigation-submenu', title: 'Submenu', category: 'design', parent: ['core/navigation'],
    description: 'Add a submenu to your navigation.',
    attributes: { label: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' }, rel: { type: 'string' }, id: { type: 'number' }, opensInNewTab: { type: 'boolean', default: false }, url: { type: 'string' }, title: { type: 'string' }, kind: { type: 'string' }, isTopLevelItem: { type: 'boolean' } },
    usesContext: ['textColor', 'customTextColor', 'backgroundColor', 'customBackgroundColor', 'overlayTextColor', 'customOverlayTextColor', 'overlayBackgroundColor', 'customOverlayBackgroundColor', 'fontSize', 'customFontSize', 'showSubmenuIcon', 'maxNestingLevel', 'openSubmenusOnClick', 'style'],
    supports: { reusable: false, html: false },
    editorStyleHandles: ['wp-block-navigation-submenu-editor'], styleHandles: ['wp-block-navigation-submenu'],
    render: navigationSubmenu,
  }),
  block({
    name: 'core/rss', title: 'RSS', category: 'widgets',
    description: 'Display entries from any RSS or Atom feed.', keywords: ['atom', 'feed'],
    attributes: {
      columns: { type: 'number', default: 2 },
      blockLayout: { type: 'string', default: 'list' },
      feedURL: { type: 'string', default: '' },
      itemsToShow: { type: 'number', default: 5 },
      displayExcerpt: { type: 'boolean', default: false },
      displayAuthor: { type: 'boolean', default: false },
      displayDate: { type: 'boolean', default: false },
      excerptLength: { type: 'number', default: 55 },
    },
    supports: { align: true, html: false },
    editorStyleHandles: ['wp-block-rss-editor'], styleHandles: ['wp-block-rss'],
    render: rss,
  }),
  block({
    name: 'core/page-list', title: 'Page List', category: 'widgets',
    description: 'Display a list of all pages.', keywords: ['menu', 'navigation'],
    usesContext: ['textColor', 'customTextColor', 'backgroundColor', 'customBackgroundColor', 'overlayTextColor', 'customOverlayTextColor', 'overlayBackgroundColor', 'customOverlayBackgroundColor', 'fontSize', 'customFontSize', 'showSubmenuIcon', 'style', 'openSubmenusOnClick'],
    supports: { reusable: false, html: false },
    editorStyleHandles: ['wp-block-page-list-editor'], styleHandles: ['wp-block-page-list'],
    render: pageList,
  }),
  block({
    name: 'core/social-links', title: 'Social Icons', category: 'widgets',
    description: 'Display icons linking to your social media profiles or sites.',
    keywords: ['links'],
    attributes: { iconColor: { type: 'string' }, customIconColor: { type: 'string' }, iconColorValue: { type: 'string' }, iconBackgroundColor: { type: 'string' }, customIconBackgroundColor: { type: 'string' }, iconBackgroundColorValue: { type: 'string' }, openInNewTab: { type: 'boolean', default: false }, showLabels: { type: 'boolean', default: false }, size: { type: 'string' } },
    providesContext: { openInNewTab: 'openInNewTab', showLabels: 'showLabels', iconColorValue: 'iconColorValue', iconBackgroundColorValue: 'iconBackgroundColorValue' },
    supports: { align: ['left', 'center', 'right'], anchor: true, __experimentalExposeControlsToChildren: true, __experimentalLayout: { allowSwitching: false, allowInheriting: false, allowVerticalAlignment: false, default: { type: 'flex' } }, color: { enableContrastChecker: false, background: true, gradients: true, text: false, __experimentalDefaultControls: { background: false } }, spacing: { blockGap: ['horizontal', 'vertical'], margin: true, padding: true, units: ['px', 'em', 'rem', 'vh', 'vw'], __experimentalDefaultControls: { blockGap: true } } },
    styles: [{ name: 'default', label: 'Default', isDefault: true }, { name: 'logos-only', label: 'Logos Only' }, { name: 'pill-shape', label: 'Pill Shape' }],
    editorStyleHandles: ['wp-block-social-links-editor'], styleHandles: ['wp-block-social-links'],
  }),
  block({
    name: 'core/social-link', title: 'Social Icon', category: 'widgets', parent: ['core/social-links'],
    description: 'Display an icon linking to a social media profile or site.',
    attributes: { url: { type: 'string' }, service: { type: 'string' }, label: { type: 'string' } },
    usesContext: ['openInNewTab', 'showLabels', 'iconColorValue', 'iconBackgroundColorValue'],
    supports: { reusable: false, html: false },
    editorStyleHandles: ['wp-block-social-link-editor'], styleHandles: ['wp-block-social-link'],
    render: socialLink,
  }),
  block({
    name: 'core/site-title', title: 'Site Title', category: 'theme',
    description: 'Displays the name of this site. Update the block, and the changes apply everywhere it’s used. This will also appear in the browser title bar and in search results.',
    attributes: { level: { type: 'number', default: 1 }, textAlign: { type: 'string' }, isLink: { type: 'boolean', default: true }, linkTarget: { type: 'string', default: '_self' } },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, link: true, __experimentalDefaultControls: { background: true, text: true, link: true } }, spacing: { padding: true, margin: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true, lineHeight: true, fontAppearance: true, letterSpacing: true, textTransform: true } } },
    example: { viewportWidth: 500 },
    editorStyleHandles: ['wp-block-site-title-editor'], styleHandles: ['wp-block-site-title'],
    render: siteTitle,
  }),
  block({
    name: 'core/site-tagline', title: 'Site Tagline', category: 'theme',
    description: 'Describe in a few words what the site is about. The tagline can be used in search results or when sharing on social networks even if it\'s not displayed in the theme design.', keywords: ['description'],
    attributes: { textAlign: { type: 'string' } },
    supports: { align: ['wide', 'full'], html: false, color: { gradients: true, __experimentalDefaultControls: { background: true, text: true } }, spacing: { margin: true, padding: true }, typography: { fontSize: true, lineHeight: true, __experimentalFontFamily: true, __experimentalTextTransform: true, __experimentalTextDecoration: true, __experimentalFontStyle: true, __experimentalFontWeight: true, __experimentalLetterSpacing: true, __experimentalDefaultControls: { fontSize: true } } },
    editorStyleHandles: ['wp-block-site-tagline-editor'], styleHandles: ['wp-block-site-tagline'],
    render: siteTagline,
  }),
];

/**
 * The order WordPress 6.1 registers its blocks in, which block-types lists them in: legacy widget
 * and widget group (blocks/index.php requires them first), the dynamic blocks in
 * require-dynamic-blocks.php's order, the static ones of require-static-blocks.php, and the legacy
 * post comments block last (init, priority 21).
 */
const REGISTRATION_ORDER: readonly string[] = [
  'legacy-widget', 'widget-group', 'archives', 'avatar', 'block', 'calendar', 'categories', 'comment-author-name',
  'comment-content', 'comment-date', 'comment-edit-link', 'comment-reply-link', 'comment-template', 'comments',
  'comments-pagination', 'comments-pagination-next', 'comments-pagination-numbers', 'comments-pagination-previous',
  'comments-title', 'cover', 'file', 'gallery', 'home-link', 'image', 'latest-comments', 'latest-posts', 'loginout',
  'navigation', 'navigation-link', 'navigation-submenu', 'page-list', 'pattern', 'post-author',
  'post-author-biography', 'post-comments-form', 'post-content', 'post-date', 'post-excerpt', 'post-featured-image',
  'post-navigation-link', 'post-template', 'post-terms', 'post-title', 'query', 'query-no-results',
  'query-pagination', 'query-pagination-next', 'query-pagination-numbers', 'query-pagination-previous',
  'query-title', 'read-more', 'rss', 'search', 'shortcode', 'site-logo', 'site-tagline', 'site-title', 'social-link',
  'tag-cloud', 'template-part', 'term-description', 'audio', 'button', 'buttons', 'code', 'column', 'columns',
  'embed', 'freeform', 'group', 'heading', 'html', 'list', 'list-item', 'media-text', 'missing', 'more', 'nextpage',
  'paragraph', 'preformatted', 'pullquote', 'quote', 'separator', 'social-links', 'spacer', 'table', 'text-columns',
  'verse', 'video', 'post-comments',
].map((name) => `core/${name}`);

const inRegistrationOrder = (blocks: readonly BlockTypeDefinition[]): BlockTypeDefinition[] =>
  [...blocks].sort((a, b) => REGISTRATION_ORDER.indexOf(a.name) - REGISTRATION_ORDER.indexOf(b.name));

export const CORE_BLOCKS: BlockSet = {
  owner: 'core',
  blocks: inRegistrationOrder([...STATIC_BLOCKS, ...DYNAMIC_BLOCKS, ...POST_BLOCKS, ...COMMENT_BLOCKS, ...MEDIA_BLOCKS, ...TEXT_BLOCKS, ...DESIGN_BLOCKS, ...THEME_BLOCKS, ...WIDGET_BLOCKS]),
  patterns: PATTERNS,
  patternCategories: PATTERN_CATEGORIES,
};
