import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';

// The legacy Post Comments block (core/post-comments) and the comment links a rendering leaves
// out. Expected values are WordPress 6.1.9's content.rendered of posts of the same content written
// through its REST API by an administrator, and its GET wp/v2/block-types answers.

describe('legacy post comments and the comment links', () => {
  const site = useServer();
  const post = (content: string, commentStatus: string) =>
    site.json('cms/v2/posts', { method: 'POST', json: { title: 'blocksfam pc', status: 'publish', comment_status: commentStatus, content } }, 201);

  it('renders the legacy Post Comments block as its empty wrapper outside a post’s page, nothing when closed without comments', async () => {
    const open = await post('<!-- wp:post-comments {"textAlign":"center","fontSize":"small"} /-->\n\n<!-- wp:post-comments /-->', 'open');
    assert.equal(open.content.rendered, '<div class="has-text-align-center wp-block-post-comments has-small-font-size"></div>\n\n<div class="wp-block-post-comments"></div>');
    const closed = await post('<!-- wp:post-comments /-->', 'closed');
    assert.equal(closed.content.rendered, '');
  });

  it('answers the legacy block as register_block_type makes it of its arguments, and the links as dynamic blocks', async () => {
    const legacy = await site.json('cms/v2/block-types/core/post-comments');
    assert.deepEqual(
      [legacy.is_dynamic, legacy.api_version, legacy.title, legacy.description, legacy.uses_context, legacy.style_handles, legacy.editor_style_handles, legacy.style, legacy.editor_style],
      [true, 1, '', '', ['postId', 'postType'], ['wp-block-post-comments', 'wp-block-buttons', 'wp-block-button'], [], 'wp-block-post-comments', null],
    );
    assert.deepEqual(legacy.attributes, {
      textAlign: { type: 'string' }, lock: { type: 'object' }, align: { type: 'string', enum: ['left', 'center', 'right', 'wide', 'full', ''] },
      style: { type: 'object' }, backgroundColor: { type: 'string' }, textColor: { type: 'string' }, gradient: { type: 'string' }, className: { type: 'string' }, fontSize: { type: 'string' },
    });
    for (const name of ['comment-edit-link', 'comments-pagination-previous', 'comments-pagination-numbers', 'comments-pagination-next']) {
      const type = await site.json(`cms/v2/block-types/core/${name}`);
      assert.equal(type.is_dynamic, true, name);
    }
    const next = await site.json('cms/v2/block-types/core/comments-pagination-next');
    assert.deepEqual([next.title, next.parent, next.uses_context], ['Comments Next Page', ['core/comments-pagination'], ['postId', 'comments/paginationArrow']]);
  });
});
