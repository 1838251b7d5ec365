import type { BlockRenderContext, RenderedBlock } from '../../blocks.ts';
import { escapeAttr } from '../../../format/format.ts';
import { escUrl } from '../../../format/esc-url.ts';
import { loginUrl } from './shared.ts';
import { wrapperAttributes } from './wrapper.ts';

/**
 * The blocks that depend on the page rather than a post: the visitor's login link or form, and
 * the description of the term whose archive is shown. A rendering knows no visitor (the_content
 * and REST renderings are the same for everyone, as they are kept), so the login block shows what
 * a visitor who is not logged in sees.
 */

/** wp_login_form's markup (its defaults: remember me shown, nothing filled in). */
const loginForm = (action: string, redirect: string) =>
  `<form name="loginform" id="loginform" action="${escapeAttr(action)}" method="post"><p class="login-username">
				<label for="user_login">Username or Email Address</label>
				<input type="text" name="log" id="user_login" autocomplete="username" class="input" value="" size="20" />
			</p><p class="login-password">
				<label for="user_pass">Password</label>
				<input type="password" name="pwd" id="user_pass" autocomplete="current-password" class="input" value="" size="20" />
			</p><p class="login-remember"><label><input name="rememberme" type="checkbox" id="rememberme" value="forever" /> Remember Me</label></p><p class="login-submit">
				<input type="submit" name="wp-submit" id="wp-submit" class="button button-primary" value="Log In" />
				<input type="hidden" name="redirect_to" value="${escapeAttr(redirect)}" />
			</p></form>`;

/** render_block_core_loginout: a "Log in" link back to the page (or not), or the login form when asked. */
export function loginout(block: RenderedBlock, ctx: BlockRenderContext): string {
  const a = block.attributes;
  let classes = 'logged-out';
  // the page's own address, as WordPress takes it from the request
  const current = ctx.url;
  let contents = `<a href="${escUrl(loginUrl(ctx, a.redirectToCurrent ? current : ''))}">Log in</a>`;
  if (a.displayLoginAsForm) {
    classes += ' has-login-form';
    contents = loginForm(loginUrl(ctx, ''), current);
  }
  return `<div ${wrapperAttributes(block, { class: classes })}>${contents}</div>`;
}

/**
 * render_block_core_term_description: the description of the term whose archive is shown; outside
 * one (a post, a page, a REST rendering) nothing, as WordPress outside is_category(), is_tag() and
 * is_tax(). The page context names the kind of archive but not its term, so a post's content shown
 * in a term's archive list shows nothing either (unlike WordPress).
 */
export function termDescription(): string {
  return '';
}
