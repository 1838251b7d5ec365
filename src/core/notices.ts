import { config } from '../config.ts';
import type { Logger } from '../engine/types.ts';
import type { CommentRow } from '../store/comments.ts';
import type { Store } from '../store/index.ts';
import type { PostRow } from '../store/posts.ts';
import type { UserRow } from '../store/users.ts';
import { discussionOptions, isOn } from './comments.ts';
import type { MailMessage } from './mail.ts';
import type { Site } from './site.ts';

/**
 * The site's own mail, in WordPress's words (pluggable.php): the texts of retrieve_password,
 * wp_new_user_notification, wp_password_change_notification, wp_notify_moderator and
 * wp_notify_postauthor, with this site's addresses for WordPress's admin screens. Lines end in
 * CRLF as WordPress writes them.
 */

/** wp_mail's From: CMS_SPEC_MAIL_FROM, else wordpress@ the site's host without `www.`; the site's name as the sender's. */
export function sendMail(site: Site, message: MailMessage): Promise<boolean> {
  const host = new URL(site.home || 'http://localhost/').hostname.replace(/^www\./, '');
  return site.mail.send(message, { name: site.info.name, address: config().mail.from ?? `wordpress@${host}` });
}

/** wp_specialchars_decode( get_option( 'blogname' ), ENT_QUOTES ): the name as plain text. */
const blogname = (site: Site) => site.info.name;

/** An address in the admin: `{adminPath}` with WordPress's screen as `page` and its args. */
export function adminUrl(site: Site, screen: string, args: Record<string, string | number> = {}): string {
  const q = new URLSearchParams({ page: screen });
  for (const [k, v] of Object.entries(args)) q.set(k, String(v));
  return `${site.url(site.adminPath)}?${q}`;
}

/** The login screen's reset address for a key (network_site_url( "wp-login.php?action=rp&key=…&login=…" )). */
export const resetUrl = (site: Site, key: string, login: string) => `${site.url(site.adminPath)}login?action=rp&key=${key}&login=${encodeURIComponent(login)}`;

/** retrieve_password()'s message: the account, the reset link, and where the request came from. */
export function passwordResetMessage(site: Site, user: UserRow, key: string, requesterIp: string | null): MailMessage {
  let text = 'Someone has requested a password reset for the following account:\r\n\r\n';
  text += `Site Name: ${blogname(site)}\r\n\r\n`;
  text += `Username: ${user.login}\r\n\r\n`;
  text += 'If this was a mistake, ignore this email and nothing will happen.\r\n\r\n';
  text += 'To reset your password, visit the following address:\r\n\r\n';
  text += `${resetUrl(site, key, user.login)}&wp_lang=en_US\r\n\r\n`;
  if (requesterIp) text += `This password reset request originated from the IP address ${requesterIp}.\r\n`;
  return { to: user.email, subject: `[${blogname(site)}] Password Reset`, text };
}

/** wp_new_user_notification( $user_id, null, 'both' ): the administrator's notice and the new user's welcome with a link to set a password. */
export async function newUserMessages(store: Store, site: Site, user: UserRow, key: string): Promise<MailMessage[]> {
  const admin: MailMessage = {
    to: await adminEmail(store),
    subject: `[${blogname(site)}] New User Registration`,
    text: `New user registration on your site ${blogname(site)}:\r\n\r\nUsername: ${user.login}\r\n\r\nEmail: ${user.email}\r\n`,
  };
  const welcome: MailMessage = {
    to: user.email,
    subject: `[${blogname(site)}] Login Details`,
    text: `Username: ${user.login}\r\n\r\nTo set your password, visit the following address:\r\n\r\n${resetUrl(site, key, user.login)}\r\n\r\n${site.url(site.adminPath)}login\r\n`,
  };
  return [admin, welcome];
}

/** wp_password_change_notification(): the administrator hears of a reset, unless the administrator made it. */
export async function passwordChangedMessage(store: Store, site: Site, user: UserRow): Promise<MailMessage | null> {
  const to = await adminEmail(store);
  if (!to || to === user.email) return null;
  return { to, subject: `[${blogname(site)}] Password Changed`, text: `Password changed for user: ${user.login}\r\n` };
}

const adminEmail = async (store: Store) => (await store.options.get('admin_email')) ?? '';

/** Who may moderate a comment on a post: editors and administrators, and the post's author when they may edit it. */
const mayModerate = (site: Site, user: UserRow | undefined, post: PostRow) => !!user && (site.roles.capabilitiesOf(user.role).has('moderate_comments') || (user.id === post.author && site.roles.capabilitiesOf(user.role).has('edit_published_posts')));

interface CommentContext {
  store: Store;
  site: Site;
  comment: CommentRow;
  post: PostRow;
  permalink: string;
}

/** The lines both notices start with: who wrote it and from where (gethostbyaddr is not asked: the address stands in). */
function authorLines(comment: CommentRow): string {
  return (
    `Author: ${comment.author_name} (IP address: ${comment.author_ip}, ${comment.author_ip})\r\n` +
    `Email: ${comment.author_email}\r\n` +
    `URL: ${comment.author_url}\r\n`
  );
}

/** wp_notify_moderator(): a held comment, to the site's address and to the post's author when they may moderate it. */
export async function moderatorMessage({ store, site, comment, post, permalink }: CommentContext): Promise<MailMessage | null> {
  const o = await discussionOptions(store);
  if (!isOn(o.moderation_notify) || comment.approved !== '0') return null;
  const to = new Set<string>();
  const admin = await adminEmail(store);
  if (admin) to.add(admin);
  const author = await store.users.get(post.author);
  if (author?.email && mayModerate(site, author, post)) to.add(author.email);
  if (!to.size) return null;
  const waiting = (await store.comments.query({ approved: ['0'], offset: 0, limit: 1 })).total;
  let text = `A new comment on the post "${post.title}" is waiting for your approval\r\n${permalink}\r\n\r\n`;
  text += authorLines(comment);
  if (comment.parent) text += `In reply to: ${adminUrl(site, 'comments', { action: 'editcomment', c: comment.parent })}\r\n`;
  text += `Comment: \r\n${comment.content}\r\n\r\n`;
  text += `Approve it: ${adminUrl(site, 'comments', { action: 'approve', c: comment.id })}\r\n`;
  text += `Trash it: ${adminUrl(site, 'comments', { action: 'trash', c: comment.id })}\r\n`;
  text += `Spam it: ${adminUrl(site, 'comments', { action: 'spam', c: comment.id })}\r\n`;
  text += `${waiting === 1 ? 'Currently 1 comment is waiting for approval.' : `Currently ${waiting.toLocaleString('en-US')} comments are waiting for approval.`} Please visit the moderation panel:\r\n`;
  text += `${adminUrl(site, 'comments', { comment_status: 'moderated' })}\r\n`;
  return { to: [...to], subject: `[${blogname(site)}] Please moderate: "${post.title}"`, text };
}

/**
 * wp_notify_postauthor(): an approved comment, to the post's author, unless the author wrote it,
 * cannot read the post, or has no address.
 */
export async function postAuthorMessage({ store, site, comment, post, permalink }: CommentContext): Promise<MailMessage | null> {
  const o = await discussionOptions(store);
  if (!isOn(o.comments_notify) || comment.approved !== '1') return null;
  const author = await store.users.get(post.author);
  if (!author?.email || comment.author === author.id || (comment.author === 0 && comment.author_email === author.email)) return null;
  if (!site.roles.capabilitiesOf(author.role).has('read')) return null;
  const moderates = mayModerate(site, author, post);
  let text = `New comment on your post "${post.title}"\r\n`;
  text += authorLines(comment);
  if (comment.parent && moderates) text += `In reply to: ${adminUrl(site, 'comments', { action: 'editcomment', c: comment.parent })}\r\n`;
  text += `Comment: \r\n${comment.content}\r\n\r\n`;
  text += 'You can see all comments on this post here:\r\n';
  text += `${permalink}#comments\r\n\r\n`;
  text += `Permalink: ${permalink}#comment-${comment.id}\r\n`;
  if (moderates) {
    text += `Trash it: ${adminUrl(site, 'comments', { action: 'trash', c: comment.id })}\r\n`;
    text += `Spam it: ${adminUrl(site, 'comments', { action: 'spam', c: comment.id })}\r\n`;
  }
  const replyTo = comment.author_email ? (comment.author_name ? `"${comment.author_name.replace(/["\\]/g, '')}" <${comment.author_email}>` : comment.author_email) : undefined;
  return { to: author.email, subject: `[${blogname(site)}] Comment: "${post.title}"`, text, replyTo };
}

/**
 * After a comment is stored (and its transaction committed): the moderator's notice for a held
 * one and the post author's for an approved one, as wp_new_comment's comment_post hooks send them.
 * A REST request sends only the author's (wp_new_comment_via_rest_notify_postauthor). Sent in the
 * background: the request does not wait for the mail server, and a failure is logged.
 */
export function commentNotices(ctx: CommentContext & { log: Logger }, via: 'form' | 'rest'): void {
  const send = async () => {
    const messages = [via === 'form' ? await moderatorMessage(ctx) : null, await postAuthorMessage(ctx)];
    for (const m of messages) if (m) await sendMail(ctx.site, m);
  };
  send().catch((e: unknown) => ctx.log.error(`comment notices for comment ${ctx.comment.id} failed: ${e instanceof Error ? e.message : String(e)}`));
}
