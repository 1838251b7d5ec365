import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { guardedFetch, type GuardedResponse } from '../../net/fetch.ts';
import { OutboundError, OutboundStatusError, OutboundUnreachableError } from '../../net/errors.ts';
import { escapeHtml } from '../../format/format.ts';
import { sizeFormat } from './sizes.ts';
import { loopbackAllow, p, result, type HealthRun, type Status, type TestResult } from './result.ts';

/**
 * The site health tests (WP_Site_Health's async tests), run for real against this server: each
 * answers WordPress's result shape with WordPress's labels where the meaning is the same, and says
 * plainly what it checked here where this server differs (no automatic updates, no page cache
 * plugin, plugins' own hosts instead of WordPress.org).
 */

/** The namespace index the loopback asks for: small, served whenever this plugin is, and it names the API root of whoever answers. */
const LOOPBACK_PATH = 'cms-site-health/v1';

const MB = 1024 * 1024;
/** WordPress's thresholds for the disk space updates need (get_test_available_updates_disk_space). */
const DISK_CRITICAL = 20 * MB;
const DISK_LOW = 100 * MB;
/** get_good_response_time_threshold: a page answered within 600 ms is fast enough. */
const GOOD_RESPONSE_MS = 600;

const errorCode = (e: OutboundError) => (e instanceof OutboundStatusError ? `http_${e.status}` : 'http_request_failed');

// --- loopback requests ---

type Loopback = { status: Status; message: string; tested: boolean };

/**
 * can_perform_loopback: asks the site, at its own URL, for this plugin's namespace index, and
 * checks the answer comes from this site (it names this site's API root). From the CLI, a server
 * that does not answer at all is not a failure of the site: doctor runs beside the server, which
 * may simply not be started.
 */
/** A loopback answer's JSON; undefined when it is not JSON (whatever answers at the site's address may send anything). */
function answerJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function canPerformLoopback(run: HealthRun): Promise<Loopback> {
  const url = run.site.restUrl(LOOPBACK_PATH);
  let res: GuardedResponse;
  try {
    res = await guardedFetch(url, { headers: { 'cache-control': 'no-cache', accept: 'application/json' }, allow: loopbackAllow(run.site) });
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    if (e instanceof OutboundStatusError)
      return { status: 'recommended', tested: true, message: `The loopback request returned an unexpected http status code, ${e.status}, it was not possible to determine if this will prevent features from working as expected.` };
    if (run.where === 'cli')
      return {
        status: 'recommended',
        tested: false,
        message: `No server answered at ${escapeHtml(run.site.home)} (${escapeHtml(e.message.replace(/\.$/, ''))}). <code>cms-spec doctor</code> runs beside the server, not inside it: start <code>cms-spec serve</code> for this site and run doctor again to test loopback requests.`,
      };
    return {
      status: 'critical',
      tested: true,
      message: `The loopback request to your site failed, this means features relying on them are not currently working as expected.<br>Error: ${escapeHtml(e.message)} (${errorCode(e)})`,
    };
  }
  const root: unknown = (answerJson(res.text()) as { _links?: { up?: { href?: string }[] } } | undefined)?._links?.up?.[0]?.href;
  if (root !== run.site.apiRoot)
    return {
      status: 'recommended',
      tested: true,
      message: `The loopback request to ${escapeHtml(url)} was answered, but not by this site: the answer ${typeof root === 'string' ? `names another API root, ${escapeHtml(root)}` : 'is not this site’s API'}.`,
    };
  return { status: 'good', tested: true, message: 'The loopback request to your site completed successfully.' };
}

/** get_test_loopback_requests */
export async function loopbackRequests(run: HealthRun): Promise<TestResult> {
  const r = result(
    'loopback_requests',
    'Your site can perform loopback requests',
    'Performance',
    p('Loopback requests are how the site reaches itself at its own address: the authorization header and page cache tests use them, and so does anything that calls the site’s public URL from the server.'),
  );
  const check = await canPerformLoopback(run);
  r.status = check.status;
  if (check.status !== 'good') {
    r.label = check.tested ? 'Your site could not complete a loopback request' : 'Loopback requests were not tested';
    r.description += p(check.message);
  }
  return r;
}

// --- the Authorization header ---

/**
 * get_test_authorization_header, as a real round trip: the caller's own Authorization header is
 * sent to the site's public address (through whatever proxy is in front of it), and the site must
 * recognise the same user. A proxy or server that drops the header makes the site see nobody.
 */
export async function authorizationHeader(run: HealthRun): Promise<TestResult> {
  const r = result(
    'authorization_header',
    'The Authorization header is working as expected',
    'Security',
    p('The Authorization header is used by third-party applications you have approved for this site. Without this header, those apps cannot connect to your site.'),
  );
  if (!run.caller) {
    r.status = 'recommended';
    r.label = 'The Authorization header was not tested';
    r.description += p('The test sends the credentials of the person asking back to the site, so it runs over REST only: ask the running server for <code>GET cms-site-health/v1/tests/authorization-header</code>.');
    return r;
  }
  const url = run.site.restUrl('cms/v2/users/me?_fields=id');
  let problem: 'missing' | 'invalid' | null;
  try {
    const res = await guardedFetch(url, { headers: { authorization: run.caller.authorization, accept: 'application/json' }, allow: loopbackAllow(run.site) });
    // an answer that is not JSON (another server at the site's address) did not recognise the caller either
    problem = (answerJson(res.text()) as { id?: unknown } | undefined)?.id === run.caller.userId ? null : 'invalid';
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    if (!(e instanceof OutboundStatusError)) {
      r.status = 'recommended';
      r.label = 'The Authorization header could not be tested';
      r.description += p(`The request to ${escapeHtml(url)} failed: ${escapeHtml(e.message)} The loopback request test says more.`);
      return r;
    }
    problem = e.body.includes('"rest_not_logged_in"') ? 'missing' : 'invalid';
  }
  if (!problem) return r;
  r.status = 'recommended';
  r.label = problem === 'missing' ? 'The authorization header is missing' : 'The authorization header is invalid';
  r.description += p(
    problem === 'missing'
      ? `The site at ${escapeHtml(run.site.home)} received the request without its Authorization header: something in front of it (a proxy or web server) removes the header.`
      : `The site at ${escapeHtml(run.site.home)} did not recognise the credentials this request came with: something in front of it changes the Authorization header, or that address is another site.`,
  );
  r.description += p('If you are still seeing this warning after having tried the actions below, you may need to contact your hosting provider for further assistance.');
  r.actions = p('Make the proxy or web server in front of the site pass the <code>Authorization</code> header through unchanged.');
  return r;
}

// --- HTTPS ---

const isHttps = (url: string) => url.toLowerCase().startsWith('https://');

/** wp_is_https_supported: the site answers at the https version of its home address. */
async function httpsSupported(run: HealthRun): Promise<boolean> {
  const home = new URL(run.site.home);
  home.protocol = 'https:';
  try {
    await guardedFetch(home.href, { maxBytes: 1, oversize: 'truncate', allow: loopbackAllow(run.site) });
    return true;
  } catch (e) {
    if (e instanceof OutboundError) return false;
    throw e;
  }
}

/** get_test_https_status */
export async function httpsStatus(run: HealthRun): Promise<TestResult> {
  const r = result(
    'https_status',
    'Your website is using an active HTTPS connection',
    'Security',
    p('An HTTPS connection is a more secure way of browsing the web. Many services now have HTTPS as a requirement. HTTPS allows you to take advantage of new features that can increase site speed, improve search rankings, and gain the trust of your visitors by helping to protect their online privacy.'),
  );
  r.actions = p('<a href="https://wordpress.org/documentation/article/why-should-i-use-https/" target="_blank" rel="noopener">Learn more about why you should use HTTPS<span class="screen-reader-text"> (opens in a new tab)</span></a>');
  const { url, home } = run.site.info;
  if (isHttps(url) && isHttps(home)) return r;
  r.status = 'recommended';
  r.label = 'Your website does not use HTTPS';
  r.description = isHttps(url)
    ? p('Your Site Address (<code>home</code>) is not set up to use HTTPS.')
    : p('Your WordPress Address (<code>siteurl</code>) and Site Address (<code>home</code>) are not set up to use HTTPS.');
  if (await httpsSupported(run)) {
    r.description += p('HTTPS is already supported for your website.');
    r.actions = p('Update your site to use HTTPS: <code>cms-spec option update home https://…</code> and <code>cms-spec option update siteurl https://…</code>.');
  } else {
    r.description += p('Talk to your web host about supporting HTTPS for your website.');
  }
  return r;
}

// --- the hosts the active plugins talk to ---

interface Destination {
  url: string;
  host: string;
  plugin: string;
}

/** A plugin's host entry as a URL to ask: a bare host is reached over https, an origin as written. */
function destinationOf(entry: string, plugin: string): Destination | null {
  try {
    const url = new URL(entry.includes('://') ? entry : `https://${entry}`);
    return { url: `${url.origin}/`, host: url.host, plugin };
  } catch {
    return null;
  }
}

/** Every host the active plugins name, with their current settings, once each. */
async function pluginDestinations(run: HealthRun): Promise<Destination[]> {
  const found = new Map<string, Destination>();
  for (const def of run.site.plugins.activeDefinitions()) {
    if (!def.outbound?.hosts) continue;
    const options = await run.store.options.getMany(Object.keys(def.settings ?? {}));
    for (const entry of def.outbound.hosts({ ...def.settings, ...options })) {
      const d = destinationOf(entry, def.title);
      if (d && !found.has(d.url)) found.set(d.url, d);
    }
  }
  return [...found.values()];
}

/** Why a host cannot be reached, or null when it answered (any HTTP status counts: the way there works). */
async function unreachable(d: Destination): Promise<OutboundError | null> {
  try {
    await guardedFetch(d.url, { maxBytes: 1, oversize: 'truncate' });
    return null;
  } catch (e) {
    if (e instanceof OutboundStatusError) return null;
    if (e instanceof OutboundError) return e;
    throw e;
  }
}

/** How connecting fails when there is no network at all: no DNS answer, no route, or nothing answering within the connect timeout. */
const NO_NETWORK = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'ETIMEDOUT']);
const noNetwork = (e: OutboundError) => e instanceof OutboundUnreachableError && NO_NETWORK.has(e.code);

/**
 * get_test_dotorg_communication, for this server: it never talks to WordPress.org, but its plugins
 * talk to their own services (the hosts each active plugin declares). All unreachable is critical,
 * as WordPress.org unreachable is, unless this machine has no network at all; some unreachable is
 * a recommendation.
 */
export async function dotorgCommunication(run: HealthRun): Promise<TestResult> {
  const r = result(
    'dotorg_communication',
    'Can communicate with the services your plugins use',
    'Security',
    p('Some plugins fetch from other sites for what they do (oEmbed asks its providers for embeds). Each active plugin names the hosts it talks to, and this test connects to each of them.'),
  );
  const destinations = await pluginDestinations(run);
  if (!destinations.length) {
    r.label = 'No active plugin needs to reach other sites';
    return r;
  }
  // all at once: offline, each fails within the connect timeout, and together they take no longer
  const failures = (await Promise.all(destinations.map(unreachable))).map((why, i) => ({ d: destinations[i], why })).filter((f) => f.why !== null);
  if (!failures.length) {
    r.description += p(`Reached ${destinations.map((d) => `<code>${escapeHtml(d.host)}</code>`).join(', ')}.`);
    return r;
  }
  const all = failures.length === destinations.length;
  // no name resolves and no route leads out: this machine is offline, which says nothing about the site
  const offline = all && failures.every((f) => noNetwork(f.why!));
  r.status = all && !offline ? 'critical' : 'recommended';
  r.label = offline ? 'The services your plugins use could not be checked: no network' : all ? 'Could not reach the services your plugins use' : 'Could not reach some of the services your plugins use';
  if (offline) {
    // one line, not one per host: the cause is the same for all of them
    r.description += p(`None of the ${destinations.length} hosts they name could be reached: no host name resolved and no route led out, so this server seems to have no network. Run the test again once it is online.`);
    r.actions = p('Check that this server can resolve and connect to other hosts (DNS, firewall, proxy); <code>cms-spec doctor --offline</code> skips this test.');
    return r;
  }
  for (const { d, why } of failures)
    r.description += p(`<span class="error"><span class="screen-reader-text">Error</span></span> Your site is unable to reach ${escapeHtml(d.host)} (used by ${escapeHtml(d.plugin)}), and returned the error: ${escapeHtml(why!.message)}`);
  r.actions = p('Check that this server can resolve and connect to these hosts (DNS, firewall, proxy); hosts on a private network must be named in <code>CMS_SPEC_OUTBOUND_ALLOW</code>.');
  return r;
}

// --- what background updates need: the database ---

type Severity = 'pass' | 'warning' | 'fail';

/** The sub-tests of the background-updates test (WP_Site_Health_Auto_Updates::run_tests), about the database. */
async function updateConditions(run: HealthRun): Promise<{ severity: Severity; description: string }[]> {
  const { database } = run.store;
  const tests: { severity: Severity; description: string }[] = [];
  const problems = await database.integrityProblems();
  const how = database.engine === 'sqlite' ? '<code>PRAGMA integrity_check</code>' : 'a read of every table';
  tests.push(
    problems.length
      ? { severity: 'fail', description: `The database failed its integrity check (${how}): ${escapeHtml(problems.slice(0, 5).join('; '))}${problems.length > 5 ? ` and ${problems.length - 5} more` : ''}.` }
      : { severity: 'pass', description: `The database passed its integrity check (${how}).` },
  );
  const writeProblem = await database.writeProblem();
  tests.push(writeProblem ? { severity: 'fail', description: `The database does not accept writes: ${escapeHtml(writeProblem)}` } : { severity: 'pass', description: 'The database accepts writes.' });
  // the disk this server writes to: the database file's, or (a database on a server) the uploads folder's
  const file = await database.file();
  const [folder, what] = file ? [dirname(file), 'the database is stored'] : [existingAncestor(run.site.media.settings.uploadsDir), 'uploads are stored'];
  const fs = await statfs(folder);
  const free = fs.bavail * fs.bsize;
  const where = `where ${what} (<code>${escapeHtml(folder)}</code>)`;
  if (free < DISK_CRITICAL) tests.push({ severity: 'fail', description: `Available disk space is critically low ${where}, less than 20 MB available: ${sizeFormat(free, 2)}. Writes may fail.` });
  else if (free < DISK_LOW) tests.push({ severity: 'warning', description: `Available disk space is low ${where}, less than 100 MB available: ${sizeFormat(free, 2)}.` });
  else tests.push({ severity: 'pass', description: `${sizeFormat(free, 2)} available disk space was detected ${where}.` });
  for (const plugin of run.site.plugins.list())
    if (plugin.error) tests.push({ severity: 'warning', description: `The plugin ${escapeHtml(plugin.title)} cannot be activated: ${escapeHtml(plugin.error)}` });
  return tests;
}

/** The folder itself, or the nearest of its parents that exists (the uploads folder is made on the first upload). */
function existingAncestor(folder: string): string {
  for (let at = folder; ; at = dirname(at)) if (existsSync(at) || dirname(at) === at) return at;
}

const SEVERITY_TEXT: Record<Severity, string> = { pass: 'Passed', warning: 'Warning', fail: 'Error' };

/**
 * get_test_background_updates. This server updates no code by itself (it is updated through npm);
 * what it updates in the background is its data: plugin migrations on activation, and every write
 * the site makes. So the sub-tests are the database's integrity, its writes, the disk it grows
 * on, and plugins whose migrations failed; the shape (a list of passed, warning and error items
 * when not good) is WordPress's.
 */
export async function backgroundUpdates(run: HealthRun): Promise<TestResult> {
  const r = result(
    'background_updates',
    'Background updates are working',
    'Security',
    p('This server does not update its own code (it is updated through npm). What it updates in the background is its database: plugin migrations when a plugin is activated, and every write the site makes. These checks make sure the database can take them.'),
  );
  let list = '<ul>';
  for (const t of await updateConditions(run)) {
    if (t.severity === 'fail') {
      r.label = 'Background updates are not working as expected';
      r.status = 'critical';
    }
    if (t.severity === 'warning' && r.status === 'good') {
      r.label = 'Background updates may not be working properly';
      r.status = 'recommended';
    }
    list += `<li><span class="dashicons ${t.severity}"><span class="screen-reader-text">${SEVERITY_TEXT[t.severity]}</span></span> ${t.description}</li>`;
  }
  list += '</ul>';
  if (r.status !== 'good') r.description += list;
  return r;
}

// --- page cache ---

type HeaderCheck = ((value: string) => boolean) | null;

/** get_page_cache_headers: client caching headers, and what a value must say to count. */
const PAGE_CACHE_HEADERS: Record<string, HeaderCheck> = {
  'cache-control': (v) => /max-age=[1-9]/.test(v),
  expires: (v) => Date.parse(v) > Date.now(),
  age: (v) => /^\d+(\.\d+)?$/.test(v.trim()) && Number(v) > 0,
  'last-modified': null,
  etag: null,
  'x-cache-enabled': (v) => v.toLowerCase() === 'true',
  'x-cache-disabled': (v) => v.toLowerCase() !== 'on',
  'x-srcache-store-status': (v) => v.toLowerCase().includes('hit'),
  'x-srcache-fetch-status': (v) => v.toLowerCase().includes('hit'),
};

/** check_for_page_caching: three requests to the home page, timed, and the caching headers they carry. */
async function pageCacheDetail(run: HealthRun): Promise<{ headers: string[]; responseMs: number } | { error: string; code: string }> {
  const headers = new Set<string>();
  const timings: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    let res: GuardedResponse;
    try {
      res = await guardedFetch(`${run.site.home}/`, { oversize: 'truncate', allow: loopbackAllow(run.site) });
    } catch (e) {
      if (e instanceof OutboundError) return { error: e.message, code: errorCode(e) };
      throw e;
    }
    timings.push(performance.now() - start);
    if (res.status !== 200) return { error: `The home page answered with HTTP status ${res.status}.`, code: `http_${res.status}` };
    for (const [name, check] of Object.entries(PAGE_CACHE_HEADERS)) {
      const value = res.headers[name];
      if (value && (!check || check(value))) headers.add(name);
    }
  }
  // get_page_cache_detail: the median of the three, sorted slowest first
  timings.sort((a, b) => b - a);
  return { headers: [...headers], responseMs: timings[Math.floor(timings.length / 2)] };
}

/**
 * get_test_page_cache. This server has no page cache (no advanced-cache drop-in, nor a plugin that
 * is one), so the test can only find caching headers a proxy in front of it adds.
 */
export async function pageCache(run: HealthRun): Promise<TestResult> {
  let description = p('Page cache enhances the speed and performance of your site by saving and serving static pages instead of calling for a page every time a user visits.');
  description += p('Page cache is detected by looking for an active page cache plugin as well as making three requests to the homepage and looking for one or more of the following HTTP client caching response headers:');
  description += `<code>${Object.keys(PAGE_CACHE_HEADERS).join('</code>, <code>')}.</code>`;
  // WordPress builds this result with its keys in this order
  const r = {
    badge: { label: 'Performance', color: 'blue' },
    description,
    test: 'page_cache',
    status: 'good' as Status,
    label: '',
    actions: p('<a href="https://developer.wordpress.org/advanced-administration/performance/optimization/#Caching" target="_blank" rel="noopener noreferrer">Learn more about page cache<span class="screen-reader-text"> (opens in a new tab)</span></a>'),
  };
  const detail = await pageCacheDetail(run);
  if ('error' in detail) {
    r.label = 'Unable to detect the presence of page cache';
    r.status = 'recommended';
    r.description = p(`Unable to detect page cache due to possible loopback request problem. Please verify that the loopback request test is passing. Error: ${escapeHtml(detail.error)} (Code: ${detail.code})`) + r.description;
    return r;
  }
  const hasCache = detail.headers.length > 0;
  const fast = detail.responseMs < GOOD_RESPONSE_MS;
  r.status = fast ? (hasCache ? 'good' : 'recommended') : 'critical';
  r.label = fast
    ? hasCache
      ? 'Page cache is detected and the server response time is good'
      : 'Page cache is not detected but the server response time is OK'
    : hasCache
      ? 'Page cache is detected but the server response time is still slow'
      : 'Page cache is not detected and the server response time is slow';
  const ms = Math.round(detail.responseMs).toLocaleString('en-US');
  const summary = [
    fast
      ? `<span class="dashicons dashicons-yes-alt"></span> Median server response time was ${ms} milliseconds. This is less than the recommended ${GOOD_RESPONSE_MS} milliseconds threshold.`
      : `<span class="dashicons dashicons-warning"></span> Median server response time was ${ms} milliseconds. It should be less than the recommended ${GOOD_RESPONSE_MS} milliseconds threshold.`,
    hasCache
      ? `<span class="dashicons dashicons-yes-alt"></span> There ${detail.headers.length === 1 ? 'was 1 client caching response header' : `were ${detail.headers.length} client caching response headers`} detected: <code>${detail.headers.join('</code>, <code>')}</code>.`
      : '<span class="dashicons dashicons-warning"></span> No client caching response headers were detected.',
  ];
  // as WordPress, the missing plugin is not mentioned when headers show a caching layer in front
  if (!hasCache) summary.push('<span class="dashicons dashicons-warning"></span> A page cache plugin was not detected.');
  r.description += `<ul><li>${summary.join('</li><li>')}</li></ul>`;
  return r;
}

/** The tests in the order WordPress registers their routes, by route name. */
export const TESTS = {
  'background-updates': backgroundUpdates,
  'loopback-requests': loopbackRequests,
  'https-status': httpsStatus,
  'dotorg-communication': dotorgCommunication,
  'authorization-header': authorizationHeader,
  'page-cache': pageCache,
} as const;
