/** The core's pattern categories (_register_core_block_patterns_and_categories). */
export const PATTERN_CATEGORIES = [
  { name: 'buttons', label: 'Buttons' },
  { name: 'columns', label: 'Columns' },
  { name: 'featured', label: 'Featured' },
  { name: 'footer', label: 'Footers' },
  { name: 'gallery', label: 'Gallery' },
  { name: 'header', label: 'Headers' },
  { name: 'text', label: 'Text' },
  { name: 'query', label: 'Query' },
];

/** The core's patterns, made of blocks this site renders. */
export const PATTERNS = [
  {
    name: 'core/heading-paragraph',
    title: 'Heading and paragraph',
    description: 'A heading followed by a paragraph of text.',
    categories: ['text'],
    keywords: ['heading', 'paragraph', 'intro'],
    content: '<!-- wp:heading -->\n<h2>Start with a heading</h2>\n<!-- /wp:heading -->\n\n<!-- wp:paragraph -->\n<p>Follow it with a paragraph that says what the section is about.</p>\n<!-- /wp:paragraph -->',
  },
  {
    name: 'core/text-two-columns',
    title: 'Two columns of text',
    description: 'Two columns of text side by side.',
    categories: ['columns', 'text'],
    keywords: ['columns', 'text'],
    viewportWidth: 1000,
    content:
      '<!-- wp:columns -->\n<div class="wp-block-columns"><!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>The first column of text.</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column -->\n\n<!-- wp:column -->\n<div class="wp-block-column"><!-- wp:paragraph -->\n<p>The second column of text.</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:column --></div>\n<!-- /wp:columns -->',
  },
  {
    name: 'core/two-buttons',
    title: 'Two buttons',
    description: 'Two buttons side by side, one filled and one outlined.',
    categories: ['buttons'],
    keywords: ['buttons', 'call to action'],
    viewportWidth: 500,
    content:
      '<!-- wp:buttons {"layout":{"type":"flex","justifyContent":"center"}} -->\n<div class="wp-block-buttons"><!-- wp:button -->\n<div class="wp-block-button"><a class="wp-block-button__link wp-element-button">Get started</a></div>\n<!-- /wp:button -->\n\n<!-- wp:button {"className":"is-style-outline"} -->\n<div class="wp-block-button is-style-outline"><a class="wp-block-button__link wp-element-button">Learn more</a></div>\n<!-- /wp:button --></div>\n<!-- /wp:buttons -->',
  },
  {
    name: 'core/quote-with-citation',
    title: 'Quote',
    description: 'A quote with its citation.',
    categories: ['text'],
    keywords: ['quote', 'testimonial'],
    content: '<!-- wp:quote -->\n<blockquote class="wp-block-quote"><p>A sentence worth repeating.</p><cite>Someone who said it</cite></blockquote>\n<!-- /wp:quote -->',
  },
  {
    name: 'core/latest-posts-with-heading',
    title: 'Latest posts with a heading',
    description: 'A heading above the five latest posts, with their dates.',
    categories: ['query'],
    keywords: ['latest posts', 'recent', 'blog'],
    blockTypes: ['core/latest-posts'],
    content: '<!-- wp:heading -->\n<h2>From the blog</h2>\n<!-- /wp:heading -->\n\n<!-- wp:latest-posts {"displayPostDate":true} /-->',
  },
];
