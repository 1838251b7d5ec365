import { RestError } from '../engine/errors.ts';
import { sanitizeUrl } from '../engine/arg-sanitizers.ts';
import { kses } from '../format/kses.ts';
import { capitalPDangit, convertChars, convertSmilies, stripAllTags, wpautop, wptexturize } from '../format/format.ts';
import { forceBalanceTags } from '../format/balance-tags.ts';
import { makeClickable } from '../format/make-clickable.ts';
import { relUgc, targetedLinkRel } from '../format/link-rel.ts';
import type { Store } from '../store/index.ts';
import type { CommentRow, NewComment } from '../store/comments.ts';
import type { PostRow } from '../store/posts.ts';
import { sqlDate } from '../store/transact.ts';
import type { Site } from './site.ts';
import { smiliesOn } from './hooks.ts';
import { shortcodeNames } from './shortcodes/registry.ts';

/**
 * The one way a comment is submitted, whether over REST (`POST comments`) or through the site's
 * comment form: WordPress's discussion options, wp_allow_comment (duplicates, floods, whether it is
 * held) and wp_new_comment's filtering and storage. Each caller does its own checks first (the
 * REST permission callback's, wp_handle_comment_submission's) and words the errors its own way.
 */

/** The discussion options, as WordPress's defaults give them until they are stored. */
const DISCUSSION_DEFAULTS = {
  comment_moderation: '0',
  comment_previously_approved: '1',
  require_name_email: '1',
  comment_registration: '0',
  thread_comments: '1',
  thread_comments_depth: '5',
  default_comment_status: 'open',
  comment_max_links: '2',
  moderation_keys: '',
  disallowed_keys: '',
  close_comments_for_old_posts: '0',
  close_comments_days_old: '14',
  show_avatars: '1',
  // the comment form's "Save my name, email, and website" checkbox (WordPress's default since 4.9.6)
  show_comments_cookies_opt_in: '1',
  // email the site's address when a comment is held, and the post's author when one is published
  moderation_notify: '1',
  comments_notify: '1',
  // WordPress's rest_allow_anonymous_comments filter, as an option: visitors may comment over REST
  rest_allow_anonymous_comments: '0',
};

export type DiscussionOptions = { [K in keyof typeof DISCUSSION_DEFAULTS]: string };

export async function discussionOptions(store: Store): Promise<DiscussionOptions> {
  const stored = await store.options.getMany(Object.keys(DISCUSSION_DEFAULTS));
  return { ...DISCUSSION_DEFAULTS, ...stored };
}

/** An option holding a boolean, as get_option's '1'/'0' (or 'yes', 'on'...) is read with `if`. */
export const isOn = (value: string) => value !== '' && value !== '0';

/** comments_open: the post's own switch, and _close_comments_for_old_post for posts past the age limit. */
export function commentsOpen(post: PostRow, o: DiscussionOptions, now = Date.now()): boolean {
  if (post.comment_status !== 'open') return false;
  if (post.type === 'post' && isOn(o.close_comments_for_old_posts)) {
    const days = Number(o.close_comments_days_old) || 0;
    if (days > 0 && Date.parse(`${post.date_gmt.replace(' ', 'T')}Z`) < now - days * 86_400_000) return false;
  }
  return true;
}

/** Who submits: the logged-in user (with what they may do) or a visitor, and where from. */
export interface Commenter {
  user: { id: number; can(cap: string): boolean } | null;
  ip: string;
  userAgent: string;
}

/** The comment as the caller prepared it (wp_handle_comment_submission's or the REST controller's commentdata). */
export type CommentData = Required<Pick<NewComment, 'post' | 'parent' | 'author' | 'author_name' | 'author_email' | 'author_url' | 'content'>> &
  Pick<NewComment, 'date' | 'date_gmt'>;

/** wp_get_comment_fields_max_lengths: the columns' sizes in WordPress's schema (bytes for the name and content). */
const MAX_LENGTHS: [keyof CommentData, number, string][] = [
  ['author_name', 245, 'comment_author_column_length'],
  ['author_email', 100, 'comment_author_email_column_length'],
  ['author_url', 200, 'comment_author_url_column_length'],
  ['content', 65525, 'comment_content_column_length'],
];

/** wp_check_comment_data_max_lengths: the code of the first field over its limit. */
export function tooLong(c: Partial<CommentData>): string | undefined {
  for (const [field, max, code] of MAX_LENGTHS) {
    const v = c[field];
    if (typeof v === 'string' && Buffer.byteLength(v) > max) return code;
  }
  return undefined;
}

/** The parent a reply names must be a comment on the same post. */
export async function checkParent(store: Store, post: number, parent: number): Promise<void> {
  if (!parent) return;
  const row = await store.comments.get(parent);
  if (!row || row.post !== post) throw new RestError('rest_comment_invalid_parent', 'Invalid parent comment ID.', 400);
}

const DUPLICATE_MESSAGE = 'Duplicate comment detected; it looks as though you&#8217;ve already said that!';
const FLOOD_MESSAGE = 'You are posting comments too quickly. Slow down.';

/** wp_throttle_comment_flood: a comment within this many seconds of the same commenter's last one is a flood. */
const FLOOD_SECONDS = 15;

/** Whether a word of a word-list option (moderation_keys, disallowed_keys: one a line) appears in any field, in any case. */
function listed(words: string, fields: string[]): boolean {
  for (const line of words.split('\n')) {
    const word = line.trim();
    if (!word) continue;
    const lower = word.toLowerCase();
    if (fields.some((f) => f.toLowerCase().includes(lower))) return true;
  }
  return false;
}

/**
 * check_comment: whether a comment may appear without moderation — never when every comment is
 * moderated, nor with too many links or a moderation word; with comment_previously_approved,
 * only from someone who has an approved comment already.
 */
async function passesModeration(store: Store, c: CommentData & { author_ip: string; author_user_agent: string }, o: DiscussionOptions): Promise<boolean> {
  if (isOn(o.comment_moderation)) return false;
  const maxLinks = Number(o.comment_max_links) || 0;
  if (maxLinks && (c.content.match(/<a [^>]*href/gi)?.length ?? 0) >= maxLinks) return false;
  const fields = [c.author_name, c.author_email, c.author_url, stripAllTags(c.content), c.author_ip, c.author_user_agent];
  if (listed(o.moderation_keys, fields)) return false;
  if (!isOn(o.comment_previously_approved)) return true;
  if (!c.author_name || !c.author_email) return false;
  const user = await store.users.byEmail(c.author_email);
  return store.comments.hasApproved(user ? { userId: user.id } : { name: c.author_name, email: c.author_email });
}

/**
 * wp_allow_comment: refuses a duplicate (409) or a flood (400, as the REST controller answers it),
 * else says whether the comment is approved ('1'), held ('0') or trashed (a disallowed word).
 */
async function approval(store: Store, who: Commenter, c: CommentData & { author_ip: string; author_user_agent: string; date_gmt: string }, o: DiscussionOptions, post: PostRow): Promise<string> {
  if (await store.comments.duplicateOf(c)) throw new RestError('comment_duplicate', DUPLICATE_MESSAGE, 409);
  const moderator = who.user !== null && (who.user.can('manage_options') || who.user.can('moderate_comments'));
  if (!moderator) {
    const hourAgo = sqlDate(new Date(Date.now() - 3_600_000));
    const last = await store.comments.lastCommentGmt(who.user ? { userId: who.user.id } : { ip: c.author_ip }, c.author_email, hourAgo);
    if (last && (Date.parse(`${c.date_gmt.replace(' ', 'T')}Z`) - Date.parse(`${last.replace(' ', 'T')}Z`)) / 1000 < FLOOD_SECONDS)
      throw new RestError('comment_flood', FLOOD_MESSAGE, 400);
  }
  // the post's author and the moderators get respect
  if (who.user && (who.user.id === post.author || who.user.can('moderate_comments'))) return '1';
  const fields = [c.author_name, c.author_email, c.author_url, stripAllTags(c.content), c.author_ip, c.author_user_agent];
  if (listed(o.disallowed_keys, fields)) return 'trash';
  return (await passesModeration(store, c, o)) ? '1' : '0';
}

/** esc_url_raw for a commenter's website: a bare address gets http://, a scheme WordPress does not allow leaves nothing. */
function commenterUrl(url: string): string {
  const s = stripAllTags(url).trim();
  if (!s) return '';
  return sanitizeUrl(/^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `http://${s}`);
}

/**
 * wp_filter_comment, for a new comment and an edited one alike: pre_comment_content's filters on
 * the content (`rel="noopener"` on links with a target, kses for anyone without unfiltered_html,
 * then `rel="nofollow ugc"` on links to other sites than `home`'s), no markup in the name, only
 * a safe URL as the website.
 */
export async function filterComment<T extends Partial<Pick<CommentData, 'content' | 'author_name' | 'author_url'>>>(fields: T, unfiltered: boolean, home: string): Promise<T> {
  const out = { ...fields };
  if (out.content !== undefined) {
    const targeted = targetedLinkRel(out.content);
    out.content = relUgc(unfiltered ? targeted : await kses(targeted, 'data'), home);
  }
  if (out.author_name !== undefined) out.author_name = stripAllTags(out.author_name);
  if (out.author_url !== undefined) out.author_url = commenterUrl(out.author_url);
  return out;
}

/**
 * wp_new_comment after the caller's checks on the site at `home`: filtered (filterComment), checked by wp_allow_comment,
 * stored, and read back. The post's comment_count follows in the store.
 */
export async function submitComment(store: Store, who: Commenter, post: PostRow, data: CommentData, home: string): Promise<CommentRow> {
  const o = await discussionOptions(store);
  const c = {
    ...(await filterComment(data, who.user?.can('unfiltered_html') ?? false, home)),
    author_ip: who.ip,
    author_user_agent: who.userAgent.slice(0, 254),
    date_gmt: data.date_gmt ?? (data.date ? undefined : sqlDate(new Date())),
  };
  const approved = await approval(store, who, { ...c, date_gmt: c.date_gmt ?? sqlDate(new Date()) }, o, post);
  const id = await store.comments.insert({ ...c, approved, type: 'comment' });
  return (await store.comments.get(id))!;
}

/** wp_get_comment_status's REST face: the status a comment shows (prepare_status_response). */
export function statusOf(approved: string): string {
  return approved === '1' ? 'approved' : approved === '0' ? 'hold' : approved;
}

const TRASH_STATUS_KEY = '_wp_trash_meta_status';
const TRASH_TIME_KEY = '_wp_trash_meta_time';

/**
 * handle_status_param: approve, hold, spam and trash (remembering what the comment was, so unspam
 * and untrash bring it back). Returns whether anything changed; a status already held, or one
 * WordPress does not know, changes nothing.
 */
export async function setCommentStatus(store: Store, comment: CommentRow, status: string): Promise<boolean> {
  const set = async (approved: string) => {
    if (approved === comment.approved) return false;
    await store.comments.update(comment.id, { approved });
    return true;
  };
  const remember = async () => {
    await store.comments.meta.set(comment.id, TRASH_STATUS_KEY, comment.approved);
    await store.comments.meta.set(comment.id, TRASH_TIME_KEY, String(Math.floor(Date.now() / 1000)));
  };
  const restore = async (from: string) => {
    if (comment.approved !== from) return false;
    const previous = (await store.comments.meta.get(comment.id, TRASH_STATUS_KEY)) || '0';
    await store.comments.meta.delete(comment.id, TRASH_STATUS_KEY);
    await store.comments.meta.delete(comment.id, TRASH_TIME_KEY);
    return set(previous);
  };
  switch (status) {
    case 'approved':
    case 'approve':
    case '1':
      return set('1');
    case 'hold':
    case '0':
      return set('0');
    case 'spam':
    case 'trash':
      if (comment.approved === status) return false;
      await remember();
      return set(status);
    case 'unspam':
      return restore('spam');
    case 'untrash':
      return restore('trash');
    default:
      return false;
  }
}

/**
 * comment_text's default filters in their order (default-filters.php): make_clickable (9, its
 * links `rel="nofollow ugc"`), wptexturize and convert_chars (10), convert_smilies (20) when the
 * `use_smilies` option is on, force_balance_tags (25), wpautop (30), capital_P_dangit (31).
 */
export function renderedComment(content: string, site: Site): string {
  let html = convertChars(wptexturize(makeClickable(content, 'nofollow ugc'), shortcodeNames(site)));
  if (smiliesOn(site)) html = convertSmilies(html);
  return capitalPDangit(wpautop(forceBalanceTags(html)));
}
