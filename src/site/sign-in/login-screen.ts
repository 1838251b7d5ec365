import type { CmsEngine as Engine } from '../../core/context.ts';
import type { PageResponse } from '../../engine/server.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** The headers of every login screen: never cached, never framed, nothing loaded from elsewhere. */
export const SECURITY_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'Cache-Control': 'no-cache, no-store, private',
  // the forms' buttons must never be clickable inside someone else's frame
  'X-Frame-Options': 'DENY',
  // no form-action: Chromium applies it to the redirect to success_url after the form is posted
  'Content-Security-Policy': "frame-ancestors 'none'; default-src 'self'; style-src 'unsafe-inline'",
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * WordPress's login screen (wp-login.php): the site's name above a centred card of 320 px (so a
 * phone keeps a margin either side), the form's fields full width, a visible focus ring, and the
 * way back to the site below.
 */
const LOGIN_STYLE = `body{margin:0;background:#f0f0f1;color:#3c434a;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Oxygen-Sans,Ubuntu,Cantarell,"Helvetica Neue",sans-serif;font-size:13px;line-height:1.4}
#login{width:320px;max-width:calc(100% - 2rem);margin:auto;padding:8% 0 2rem}
.site-name{margin:0 0 1.5rem;text-align:center;font-size:1.6rem;font-weight:600;line-height:1.3}
.site-name a{color:#3c434a;text-decoration:none}
.login-card{padding:26px 24px;background:#fff;border:1px solid #c3c4c7;box-shadow:0 1px 3px rgba(0,0,0,.04);overflow-wrap:anywhere}
.login-card h1{margin:0 0 1rem;font-size:1.25rem;font-weight:600}
label{display:block;margin:0 0 3px;font-size:14px}
input[type=text],input[type=password],input[type=email]{box-sizing:border-box;width:100%;min-height:40px;margin:0 0 16px;padding:0 8px;font-size:20px;line-height:1.33;background:#fff;border:1px solid #8c8f94;border-radius:4px;color:#2c3338}
input:focus{border-color:#2271b1;box-shadow:0 0 0 1px #2271b1;outline:2px solid transparent}
button{min-height:32px;margin:.25rem .5rem .25rem 0;padding:0 12px;font-size:13px;line-height:2.15;border:1px solid #2271b1;border-radius:3px;background:#f6f7f7;color:#2271b1;cursor:pointer}
button#wp-submit,button#approve{background:#2271b1;color:#fff}
button:focus-visible,a:focus-visible{outline:2px solid transparent;box-shadow:0 0 0 1px #fff,0 0 0 3px #2271b1}
a{color:#2271b1}
.error,.message{margin:0 0 16px;padding:12px;border-left:4px solid #d63638;background:#fff;box-shadow:0 1px 1px rgba(0,0,0,.04)}
.message{border-left-color:#72aee6}
code{font-size:1.2em}
.back-to-site,.nav{margin:24px 0 0;padding:0 24px}
.back-to-site a,.nav a{color:#50575e;text-decoration:none}`;

/** A login screen: the site's name, a card with the title and body, and the way back to the site. */
export function loginScreen(engine: Engine, status: number, title: string, body: string, extra: Record<string, string> = {}, below = ''): PageResponse {
  const home = esc(engine.site.url('/'));
  const siteName = esc(engine.site.info.name);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">
<title>${esc(title)} &lsaquo; ${siteName}</title>
<style>${LOGIN_STYLE}</style>
</head><body class="login"><div id="login">
<p class="site-name"><a href="${home}">${siteName}</a></p>
<main class="login-card">
<h1>${esc(title)}</h1>
${body}
</main>
${below}<p class="back-to-site"><a href="${home}">&larr; Go to ${siteName}</a></p>
</div></body></html>`;
  return { status, headers: { ...SECURITY_HEADERS, ...extra }, body: html };
}

export const redirectTo = (to: string, extra: Record<string, string> = {}, status = 302): PageResponse => ({ status, headers: { ...SECURITY_HEADERS, Location: to, ...extra }, body: '' });

/** A form posted with a missing or stale token (wp_nonce_ays): nothing was done. */
export const linkExpired = (engine: Engine, retry: string): PageResponse =>
  loginScreen(engine, 403, 'Something went wrong', `<p>The link you followed has expired. <a href="${esc(retry)}">Please try again.</a></p>`);

/** A body posted as a form, read as WordPress reads $_POST. */
export const formOf = (body: Buffer): URLSearchParams => new URLSearchParams(body.toString('utf8'));
