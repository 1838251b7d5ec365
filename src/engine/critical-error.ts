import { randomUUID } from 'node:crypto';
import { RestError } from './errors.ts';
import type { Logger, PageResponse } from './types.ts';

/**
 * What a request answers when its code fails in a way no one foresaw (a TypeError, a driver's
 * error, a bug): WordPress 6.1's answer to a fatal error (WP_Fatal_Error_Handler's
 * display_default_error_template through wp_die), never the failure's own text, which stays in
 * the log with the route and a request id.
 */

/** display_default_error_template's message, as 6.1 words it (later versions say "your website" and link elsewhere). */
export const CRITICAL_ERROR_MESSAGE =
  '<p>There has been a critical error on this website.</p><p><a href="https://wordpress.org/support/article/faq-troubleshooting/">Learn more about troubleshooting WordPress.</a></p>';

/** nocache_headers() as 6.1 sends them, which wp_die sends with every answer. */
export const NO_CACHE = { 'Cache-Control': 'no-cache, must-revalidate, max-age=0', Expires: 'Wed, 11 Jan 1984 05:00:00 GMT' };

/** A request id a proxy in front may have given (X-Request-Id), when it is a plain token; else a new one. */
const GIVEN_ID = /^[\w.-]{1,64}$/;

/** Logs an unexpected failure with where it happened (a route, a page's path) and a request id; returns the id. */
export function logCriticalError(log: Logger, where: string, e: unknown, headers: Record<string, string | string[] | undefined> = {}): string {
  const given = headers['x-request-id'];
  const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
  log.error(`critical error in ${where} [request ${id}]: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  return id;
}

/** _json_wp_die_handler's body: `{code: 'internal_server_error', message, data: {status: 500}, additional_errors: []}`. */
class CriticalError extends RestError {
  constructor() {
    super('internal_server_error', CRITICAL_ERROR_MESSAGE, 500);
    Object.assign(this.headers, NO_CACHE);
  }

  override toBody() {
    return { ...super.toBody(), additional_errors: [] as unknown[] };
  }
}

/** The REST answer to an unexpected failure. */
export const criticalError = (): RestError => new CriticalError();

/** _default_wp_die_handler's page with the same message, for a page of the site or the admin. */
export function criticalErrorPage(): PageResponse {
  return wpDiePage(CRITICAL_ERROR_MESSAGE, 500, 'max-image-preview:large, noindex, follow');
}

/** _default_wp_die_handler's page: a message (HTML) in WordPress's error document, with the robots directives wp_robots printed for it. */
export function wpDiePage(message: string, status: number, robots: string): PageResponse {
  const body = `<!DOCTYPE html>
<html lang="en-US">
<head>
	<meta http-equiv="Content-Type" content="text/html; charset=utf-8" />
	<meta name="viewport" content="width=device-width">
	<meta name='robots' content='${robots}' />
	<title>WordPress &rsaquo; Error</title>
</head>
<body id="error-page">
	<div class="wp-die-message">${message}</div></body>
</html>
`;
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', ...NO_CACHE }, body };
}
