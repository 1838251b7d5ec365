import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { composeSpec } from '../../../scripts/spec-copy.ts';
import { ROOT, SPEC, startTestServer, useServer, type ServerFixture } from '../../helpers/server.ts';
import { adminAuth, userAuth } from '../../helpers/auth.ts';
import { setEnv } from '../../helpers/env.ts';
import { TEST_STORE } from '../../helpers/store.ts';
import { cmsBeside } from '../../cli/run.ts';

type Obj = Record<string, any>;

const NS = 'cms-site-health/v1';
const TESTS = ['background-updates', 'loopback-requests', 'https-status', 'dotorg-communication', 'authorization-header', 'page-cache'];
/** WordPress's registration order: directory-sizes comes before page-cache. */
const ROUTES = [`/${NS}`, ...TESTS.slice(0, 5).map((t) => `/${NS}/tests/${t}`), `/${NS}/directory-sizes`, `/${NS}/tests/page-cache`];
const FIXTURE_PLUGINS = join(ROOT, 'test/fixtures/site-health-plugins');
const COMPOSE = { plugins: [join(ROOT, 'src/plugins'), FIXTURE_PLUGINS] };

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const stop = (server: Server) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

/** An address where nothing listens: a port taken from the system and given back. */
async function closedOrigin(): Promise<string> {
  const s = createServer();
  const origin = await listen(s);
  await stop(s);
  return origin;
}

/** A reverse proxy in front of the site, as a web server or CDN would be: it may drop the Authorization header or add caching headers. */
class Proxy {
  server: Server;
  origin = '';
  stripAuthorization = false;
  addHeaders: Record<string, string> = {};

  constructor(private readonly target: () => string) {
    this.server = createServer((req, res) => {
      const headers = { ...req.headers };
      if (this.stripAuthorization) delete headers.authorization;
      const to = new URL(req.url ?? '/', this.target());
      const upstream = request(to, { method: req.method, headers: { ...headers, host: to.host } }, (r: IncomingMessage) => {
        res.writeHead(r.statusCode ?? 502, { ...r.headers, ...this.addHeaders });
        r.pipe(res);
      });
      req.pipe(upstream);
    });
  }
}

const get = async (site: ServerFixture, path: string, auth = site.admin) => {
  const res = await site.call(`${NS}/${path}`, { auth });
  return { status: res.status, body: (await res.json()) as Obj };
};

/**
 * Deactivates every plugin that talks to hosts on the internet (oEmbed's providers, the mail
 * services...), so that the reachability test sees only the hosts the test's probe plugin names.
 */
async function offline(site: { call: ServerFixture['call'] }, auth: string): Promise<void> {
  const plugins = (await (await site.call('cms/v2/plugins', { auth })).json()) as Obj[];
  const keep = new Set(['site-health/site-health', 'outbound-probe/outbound-probe', 'failing-migration/failing-migration']);
  for (const p of plugins.filter((p) => p.status === 'active' && !keep.has(p.plugin))) {
    const off = await site.call(`cms/v2/plugins/${p.plugin}`, { method: 'POST', json: { status: 'inactive' }, auth });
    assert.equal(off.status, 200, p.plugin);
  }
}

/** Points the site's home at another address for the length of `fn` (what `cms-spec option update home` does). */
async function withHome(site: ServerFixture, home: string, fn: () => Promise<void>): Promise<void> {
  const before = site.app.site.info.home;
  await site.app.store.options.set('home', home);
  await site.app.site.refresh();
  try {
    await fn();
  } finally {
    await site.app.store.options.set('home', before);
    await site.app.site.refresh();
  }
}

for (const variant of ['A', 'B'] as const) {
  describe(`cms-site-health/v1 in the index of variant ${variant}`, () => {
    const site = useServer({ variant });

    test('the root index lists the namespace and its routes in WordPress’s order; the namespace index answers 200', async () => {
      const index = (await (await site.call('')).json()) as Obj;
      assert.ok(index.namespaces.includes(NS));
      assert.deepEqual(Object.keys(index.routes).filter((k) => k.startsWith(`/${NS}`)), ROUTES);
      for (const key of ROUTES.slice(1)) assert.deepEqual(index.routes[key], { namespace: NS, methods: ['GET'], endpoints: [{ methods: ['GET'], args: [] }], _links: { self: [{ href: `${site.api}${key.slice(1)}` }] } }, key);
      const nsIndex = await site.call(NS);
      assert.equal(nsIndex.status, 200);
      assert.deepEqual(Object.keys(((await nsIndex.json()) as Obj).routes), ROUTES);
    });

    test('on a sound new site the database tests pass', async () => {
      const { body } = await get(site, 'tests/background-updates');
      assert.equal(body.status, 'good', body.description);
      assert.equal(body.label, 'Background updates are working');
    });
  });
}

describe('cms-site-health/v1 runs each test against this server', () => {
  let restoreEnv: () => void;
  const reachable = createServer((_, res) => res.end('ok'));
  let reachableOrigin = '';
  let closed = '';
  before(async () => {
    restoreEnv = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
    reachableOrigin = await listen(reachable);
    closed = await closedOrigin();
  });
  const site = useServer({ compose: COMPOSE }, async (s) => {
    // this suite names its own hosts
    await offline(s, s.admin);
  });
  const proxy = new Proxy(() => site.home);
  before(() => listen(proxy.server).then((o) => void (proxy.origin = o)));
  after(async () => {
    restoreEnv();
    await stop(reachable);
    await stop(proxy.server);
  });
  const setProbeHosts = async (hosts: string[]) => site.app.store.options.set('outbound_probe_hosts', hosts.join(','));

  test('every route answers only those who may view site health checks: 401 anonymous, 403 an editor, 200 an administrator', async () => {
    const editor = await userAuth(site, 'editor');
    for (const path of [...TESTS.map((t) => `tests/${t}`), 'directory-sizes']) {
      const anonymous = await site.call(`${NS}/${path}`);
      assert.equal(anonymous.status, 401, path);
      assert.deepEqual(await anonymous.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
      assert.equal((await get(site, path, editor.auth)).status, 403, path);
      assert.equal((await get(site, path)).status, 200, path);
    }
  });

  test('each test answers WordPress’s result shape', async () => {
    for (const t of TESTS) {
      const { body } = await get(site, `tests/${t}`);
      const keys = t === 'page-cache' ? ['badge', 'description', 'test', 'status', 'label', 'actions'] : ['label', 'status', 'badge', 'description', 'actions', 'test'];
      assert.deepEqual(Object.keys(body), keys, t);
      assert.equal(body.test, t.replace(/-/g, '_'));
      assert.ok(['good', 'recommended', 'critical'].includes(body.status), t);
      assert.deepEqual(Object.keys(body.badge), ['label', 'color']);
      assert.match(body.description, /^<p>/);
    }
  });

  test('the site reaches itself at its own address, and the caller’s Authorization header comes back as the same user', async () => {
    const loopback = (await get(site, 'tests/loopback-requests')).body;
    assert.deepEqual([loopback.status, loopback.label], ['good', 'Your site can perform loopback requests']);
    const authorization = (await get(site, 'tests/authorization-header')).body;
    assert.deepEqual([authorization.status, authorization.label], ['good', 'The Authorization header is working as expected']);
  });

  test('a site not reachable on its own address: loopback is critical with the reason, the tests that need it say why they could not run', async () => {
    await withHome(site, closed, async () => {
      const loopback = await get(site, 'tests/loopback-requests');
      assert.equal(loopback.status, 200);
      assert.equal(loopback.body.status, 'critical');
      assert.equal(loopback.body.label, 'Your site could not complete a loopback request');
      assert.match(loopback.body.description, /The loopback request to your site failed, this means features relying on them are not currently working as expected\.<br>Error: Could not reach 127\.0\.0\.1:\d+: ECONNREFUSED\. \(http_request_failed\)/);
      const authorization = (await get(site, 'tests/authorization-header')).body;
      assert.deepEqual([authorization.status, authorization.label], ['recommended', 'The Authorization header could not be tested']);
      const cache = (await get(site, 'tests/page-cache')).body;
      assert.deepEqual([cache.status, cache.label], ['recommended', 'Unable to detect the presence of page cache']);
      assert.match(cache.description, /Error: Could not reach .*ECONNREFUSED.* \(Code: http_request_failed\)/);
    });
  });

  test('an address answered by another site is not a working loopback, and does not recognise the caller', async () => {
    await withHome(site, reachableOrigin, async () => {
      const loopback = (await get(site, 'tests/loopback-requests')).body;
      assert.deepEqual([loopback.status, loopback.label], ['recommended', 'Your site could not complete a loopback request']);
      assert.match(loopback.description, /was answered, but not by this site/);
      // its answer is not JSON (a 500 once)
      const authorization = await get(site, 'tests/authorization-header');
      assert.equal(authorization.status, 200, JSON.stringify(authorization.body));
      assert.deepEqual([authorization.body.status, authorization.body.label], ['recommended', 'The authorization header is invalid']);
    });
  });

  test('behind a proxy that drops the Authorization header, the header is reported missing; caching headers it adds are detected', async () => {
    await withHome(site, proxy.origin, async () => {
      proxy.stripAuthorization = true;
      proxy.addHeaders = {};
      assert.equal((await get(site, 'tests/loopback-requests')).body.status, 'good', 'the site is reachable through the proxy');
      const missing = (await get(site, 'tests/authorization-header')).body;
      assert.deepEqual([missing.status, missing.label], ['recommended', 'The authorization header is missing']);
      const noCache = (await get(site, 'tests/page-cache')).body;
      assert.match(noCache.label, /^Page cache is not detected (but the server response time is OK|and the server response time is slow)$/);
      assert.match(noCache.description, /No client caching response headers were detected\..*A page cache plugin was not detected\./);

      proxy.stripAuthorization = false;
      proxy.addHeaders = { 'cache-control': 'public, max-age=300', age: '12' };
      assert.equal((await get(site, 'tests/authorization-header')).body.status, 'good');
      const cached = (await get(site, 'tests/page-cache')).body;
      assert.match(cached.label, /^Page cache is detected (and the server response time is good|but the server response time is still slow)$/);
      assert.match(cached.description, /There were 2 client caching response headers detected: <code>cache-control<\/code>, <code>age<\/code>\./);
    });
  });

  test('HTTPS: a site on http is told so, and whether its address answers over https', async () => {
    const { body } = await get(site, 'tests/https-status');
    assert.deepEqual([body.status, body.label], ['recommended', 'Your website does not use HTTPS']);
    assert.match(body.description, /not set up to use HTTPS.*Talk to your web host about supporting HTTPS for your website\./);
  });

  test('the hosts the active plugins declare: none, all reachable, some, none reachable', async () => {
    await setProbeHosts([]);
    let body = (await get(site, 'tests/dotorg-communication')).body;
    assert.deepEqual([body.status, body.label], ['good', 'No active plugin needs to reach other sites']);

    await setProbeHosts([reachableOrigin]);
    body = (await get(site, 'tests/dotorg-communication')).body;
    assert.deepEqual([body.status, body.label], ['good', 'Can communicate with the services your plugins use']);
    assert.ok(body.description.includes(`<code>${new URL(reachableOrigin).host}</code>`));

    await setProbeHosts([reachableOrigin, closed]);
    body = (await get(site, 'tests/dotorg-communication')).body;
    assert.deepEqual([body.status, body.label], ['recommended', 'Could not reach some of the services your plugins use']);
    assert.ok(body.description.includes(`Your site is unable to reach ${new URL(closed).host} (used by Outbound Probe), and returned the error: Could not reach ${new URL(closed).host}: ECONNREFUSED.`), body.description);
    assert.ok(!body.description.includes(`reach ${new URL(reachableOrigin).host}`));

    await setProbeHosts([closed]);
    body = (await get(site, 'tests/dotorg-communication')).body;
    assert.deepEqual([body.status, body.label], ['critical', 'Could not reach the services your plugins use']);
    await setProbeHosts([]);
  });

  test('background updates: a plugin whose migration fails is reported; the database checks are listed', async () => {
    const { body } = await get(site, 'tests/background-updates');
    assert.deepEqual([body.status, body.label], ['recommended', 'Background updates may not be working properly']);
    const integrity = TEST_STORE === 'sqlite' ? '<code>PRAGMA integrity_check</code>' : 'a read of every table';
    assert.ok(body.description.includes(`Passed</span></span> The database passed its integrity check (${integrity})`), body.description);
    assert.match(body.description, /Passed.*The database accepts writes\./);
    assert.match(body.description, TEST_STORE === 'sqlite' ? /Passed.*available disk space was detected where the database is stored/ : /Passed.*available disk space was detected where uploads are stored/);
    assert.match(body.description, /Warning.*The plugin Failing Migration cannot be activated: .*the disk said no/);
    assert.equal(await site.app.store.options.get('_cms_spec_write_probe'), undefined, 'the write probe leaves nothing behind');
  });

  test('directory sizes: the database, the uploads folder beside it, the spec folder and their total', async () => {
    let { body } = await get(site, 'directory-sizes');
    assert.deepEqual(Object.keys(body), ['raw', 'database_size', 'uploads_size', 'spec_size', 'total_size']);
    assert.equal(body.raw, 0);
    assert.deepEqual(body.uploads_size, { size: 'There is no uploads folder yet.', debug: 'not available' });
    for (const part of ['database_size', 'spec_size', 'total_size']) {
      const { size, debug, raw } = body[part];
      assert.ok(raw > 0, part);
      assert.match(size, /^\d[\d,]*\.\d\d (KB|MB)$/, part);
      assert.equal(debug, `${size} (${raw} bytes)`);
    }
    assert.equal(body.total_size.raw, body.database_size.raw + body.spec_size.raw);

    const uploads = join(site.app.site.media.settings.uploadsDir, '2026', '01');
    mkdirSync(uploads, { recursive: true });
    writeFileSync(join(uploads, 'a.bin'), Buffer.alloc(2048));
    try {
      ({ body } = await get(site, 'directory-sizes'));
      assert.deepEqual(body.uploads_size, { size: '2.00 KB', debug: '2.00 KB (2048 bytes)', raw: 2048 });
      assert.equal(body.total_size.raw, body.database_size.raw + 2048 + body.spec_size.raw);
    } finally {
      rmSync(site.app.site.media.settings.uploadsDir, { recursive: true, force: true });
    }
  });
});

describe('cms-spec doctor prints the same tests in a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-doctor-'));
  const spec = composeSpec(SPEC, join(dir, 'spec'), COMPOSE);
  const db = join(dir, 'site.sqlite');
  let closed = '';
  /** Runs `cms-spec doctor` in its own process, without blocking this one: the server it may test runs here. */
  const doctor = (format: 'table' | 'json', ...more: string[]) => cms(['doctor', '--spec', spec, '--format', format, ...more]);
  /** `cms-spec …` on this suite's database, in its own process. */
  const cms = (args: string[]) => cmsBeside([...args, '--db', db], { env: { CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' } });
  const byTest = (stdout: string) => Object.fromEntries((JSON.parse(stdout) as { tests: Obj[] }).tests.map((t) => [t.test, t]));

  before(async () => {
    closed = await closedOrigin();
    // install the site, then leave it as a user would between `serve` runs
    const server = await startTestServer({ spec, dbPath: db });
    await offline(server, await adminAuth(server));
    await server.app.store.options.set('outbound_probe_hosts', closed);
    await server.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('with no server listening: loopback and the round trip are "not tested", a critical test makes the exit code 1', async () => {
    const r = await doctor('table');
    assert.equal(r.status, 1, r.stderr);
    const rows = r.stdout.split('\n');
    assert.match(rows[0], /^test\s+status\s+label$/);
    assert.ok(rows.some((l) => /^dotorg_communication\s+critical\s+Could not reach the services your plugins use$/.test(l)), r.stdout);
    assert.ok(rows.some((l) => /^loopback_requests\s+recommended\s+Loopback requests were not tested$/.test(l)), r.stdout);
    assert.ok(rows.some((l) => /^authorization_header\s+recommended\s+The Authorization header was not tested$/.test(l)), r.stdout);
    assert.match(r.stdout, /No server answered at http:\/\/127\.0\.0\.1:\d+ .*start cms-spec serve for this site and run doctor again/);
    assert.match(r.stdout, /^database\s+\d/m);
    // text for a browser stays out of a terminal; a link shows where it leads
    assert.doesNotMatch(r.stdout, /opens in a new tab|<|&[a-z]+;/);
    assert.match(r.stdout, /^  Learn more about why you should use HTTPS: https:\/\/wordpress\.org\/documentation\/article\/why-should-i-use-https\/$/m);
    assert.match(r.stdout, /^  Error: Your site is unable to reach 127\.0\.0\.1:\d+ \(used by Outbound Probe\), and returned the error: Could not reach 127\.0\.0\.1:\d+: ECONNREFUSED\.$/m);
  });

  test('no network (no host name resolves): the services could not be checked, a recommendation, exit 0; --offline skips the test', async () => {
    // .invalid never resolves (RFC 6761): what every host looks like on a machine without network
    assert.equal((await cms(['option', 'update', 'outbound_probe_hosts', 'api.example.invalid,cdn.example.invalid'])).status, 0);
    try {
      let r = await doctor('table');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.ok(r.stdout.split('\n').some((l) => /^dotorg_communication\s+recommended\s+The services your plugins use could not be checked: no network$/.test(l)), r.stdout);
      assert.match(r.stdout, /^  None of the 2 hosts they name could be reached: no host name resolved and no route led out, so this server seems to have no network\. Run the test again once it is online\.$/m);
      assert.match(r.stdout, /^  Check that this server can resolve and connect to other hosts \(DNS, firewall, proxy\); cms-spec doctor --offline skips this test\.$/m);
      assert.doesNotMatch(r.stdout, /unable to reach/, 'one line for all hosts');
      assert.doesNotMatch(r.stdout, /\scritical\s/);

      r = await doctor('json', '--offline');
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.deepEqual(Object.keys(byTest(r.stdout)), ['background_updates', 'loopback_requests', 'https_status', 'authorization_header', 'page_cache', 'mail']);
    } finally {
      assert.equal((await cms(['option', 'update', 'outbound_probe_hosts', closed])).status, 0);
    }
    // a service that refuses is wrong with the site's setup, and --offline does not ask it
    assert.equal((await doctor('table')).status, 1);
    assert.equal((await doctor('table', '--offline')).status, 0);
  });

  test('with the server listening at the site’s address, loopback is tested for real; nothing critical exits 0', async () => {
    const server = await startTestServer({ spec, dbPath: db });
    try {
      await server.app.store.options.set('outbound_probe_hosts', '');
      await server.app.store.options.set('home', new URL(server.api).origin);
      await server.app.site.refresh();
      const r = await doctor('json');
      assert.equal(r.status, 0, r.stderr + r.stdout);
      const tests = byTest(r.stdout);
      assert.deepEqual(Object.keys(tests), ['background_updates', 'loopback_requests', 'https_status', 'dotorg_communication', 'authorization_header', 'page_cache', 'mail']);
      assert.deepEqual([tests.loopback_requests.status, tests.loopback_requests.label], ['good', 'Your site can perform loopback requests']);
      assert.equal(tests.dotorg_communication.status, 'good');
    } finally {
      await server.close();
    }
  });
});
