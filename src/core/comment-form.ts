import { escapeAttr, escapeHtml } from '../format/format.ts';
import { isOn, type DiscussionOptions } from './comments.ts';
import type { Commenter } from './comment-visitor.ts';

/**
 * comment_form (WordPress 6.1's comment-template.php, html5 format, as a visitor who is not logged
 * in sees it): made here once, for the site's comments section (src/site/comments.ts) and for the
 * Post Comments Form block (block-library/render/comments.ts). What differs between them comes in
 * as arguments: the block's button classes (post_comments_form_block_form_defaults), and what the
 * site's page knows of its visitor (their remembered details, the form token its POST needs).
 */

export interface CommentFormArgs {
  postId: number;
  options: DiscussionOptions;
  /** Where the form posts: site_url('/wp-comments-post.php'). */
  action: string;
  /** wp_login_url(get_permalink()): the link of the must-log-in note. */
  loginUrl: string;
  /** The request's path and query (REQUEST_URI), which the cancel-reply link goes back to. */
  requestUri: { path: string; query: Readonly<Record<string, unknown>> };
  /** The comment replied to (?replytocom=), its id and author's name. */
  replyTo?: { id: number; author: string };
  commenter?: Commenter;
  /** post_comments_form_block_form_defaults on a block theme: the submit button styled as a button block. */
  buttonBlock?: boolean;
  /** The form token, printed where the `comment_form` action's hidden fields go. */
  token?: string;
}

/** PHP's urlencode: all but letters, digits and `-_.` percent-encoded, spaces as `+`. */
const urlencode = (s: string) => encodeURIComponent(s).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');

/**
 * remove_query_arg(['replytocom', 'unapproved', 'moderation-hash']) of the request URI, as
 * add_query_arg rebuilds it: the other args encoded again, an empty value without its `=`, no
 * trailing `?`.
 */
export function cancelReplyUri(path: string, query: Readonly<Record<string, unknown>>): string {
  const kept = Object.entries(query).filter(([k]) => !['replytocom', 'unapproved', 'moderation-hash'].includes(k));
  const pairs = kept.flatMap(([k, v]) => (Array.isArray(v) ? v.map((x, i) => [`${k}[${i}]`, x] as const) : [[k, v] as const]));
  const built = pairs.map(([k, v]) => (v === '' || v === undefined || v === null ? k : `${k}=${urlencode(String(v))}`)).join('&');
  return built ? `${path}?${built}` : path;
}

/** The comment form of a post that takes comments; comment_form prints nothing for one that does not. */
export function commentForm(a: CommentFormArgs): string {
  const o = a.options;
  const threaded = isOn(o.thread_comments);
  const cancel = `<a rel="nofollow" id="cancel-comment-reply-link" href="${escapeHtml(cancelReplyUri(a.requestUri.path, a.requestUri.query))}#respond"${a.replyTo ? '' : ' style="display:none;"'}>Cancel reply</a>`;
  // comment_form_title prints the author's name as stored (comment fields are kses-filtered on the way in)
  const title = a.replyTo ? `Leave a Reply to <a href="#comment-${a.replyTo.id}">${a.replyTo.author}</a>` : 'Leave a Reply';
  const head = `\t<div id="respond" class="comment-respond">\n\t\t<h3 id="reply-title" class="comment-reply-title">${title}${threaded ? ` <small>${cancel}</small>` : ''}</h3>`;
  const tail = '\t</div><!-- #respond -->\n\t';
  if (isOn(o.comment_registration)) return `${head}<p class="must-log-in">You must be <a href="${escapeHtml(a.loginUrl)}">logged in</a> to post a comment.</p>${tail}`;
  const required = isOn(o.require_name_email);
  const star = ' <span class="required">*</span>';
  const mark = required ? star : '';
  const req = required ? ' required' : '';
  const c = a.commenter;
  const fields = [
    `<p class="comment-form-author"><label for="author">Name${mark}</label> <input id="author" name="author" type="text" value="${escapeAttr(c?.name ?? '')}" size="30" maxlength="245" autocomplete="name"${req} /></p>`,
    `<p class="comment-form-email"><label for="email">Email${mark}</label> <input id="email" name="email" type="email" value="${escapeAttr(c?.email ?? '')}" size="30" maxlength="100" aria-describedby="email-notes" autocomplete="email"${req} /></p>`,
    `<p class="comment-form-url"><label for="url">Website</label> <input id="url" name="url" type="url" value="${escapeAttr(c?.url ?? '')}" size="30" maxlength="200" autocomplete="url" /></p>`,
  ];
  if (isOn(o.show_comments_cookies_opt_in)) {
    fields.push(
      `<p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consent" name="wp-comment-cookies-consent" type="checkbox" value="yes"${c?.email ? ' checked' : ''} /> <label for="wp-comment-cookies-consent">Save my name, email, and website in this browser for the next time I comment.</label></p>`,
    );
  }
  const button = a.buttonBlock
    ? '<input name="submit" type="submit" id="submit" class="wp-block-button__link wp-element-button" value="Post Comment" />'
    : '<input name="submit" type="submit" id="submit" class="submit" value="Post Comment" />';
  const ids = `<input type='hidden' name='comment_post_ID' value='${a.postId}' id='comment_post_ID' />\n<input type='hidden' name='comment_parent' id='comment_parent' value='${a.replyTo?.id ?? 0}' />\n`;
  const submit = `<p class="form-submit${a.buttonBlock ? ' wp-block-button' : ''}">${button} ${ids}</p>`;
  const token = a.token === undefined ? '' : `<input type="hidden" name="_token" value="${escapeAttr(a.token)}" />\n`;
  return (
    `${head}<form action="${escapeAttr(a.action)}" method="post" id="commentform" class="comment-form" novalidate>` +
    `<p class="comment-notes"><span id="email-notes">Your email address will not be published.</span> <span class="required-field-message">Required fields are marked${star}</span></p>` +
    `<p class="comment-form-comment"><label for="comment">Comment${star}</label> <textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p>` +
    fields.map((f) => `${f}\n`).join('') +
    `${submit}${token}</form>${tail}`
  );
}
