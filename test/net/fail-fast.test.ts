import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { ROOT, useServer, type ServerFixture } from '../helpers/server.ts';
import { setEnv } from '../helpers/env.ts';
import { until } from '../helpers/until.ts';

/**
 * Remote services fail fast (issue 30): with local stand-ins for a service that refuses
 * connections, one that accepts a connection and never completes it (what a host without a route
 * looks like from here: nothing answers), and one that accepts and never answers the request.
 */

/** A port nothing listens on: taken from the system and given back. */
async function closedPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Connections open at once to all Silent servers together, and the most there ever were. */
const open = { now: 0, most: 0 };

/** A TCP server that takes connections and never says a word: TLS never starts, HTTP never answers. */
class Silent {
  readonly sockets = new Set<Socket>();
  readonly server: TcpServer = createTcpServer((socket) => {
    this.sockets.add(socket);
    open.most = Math.max(open.most, ++open.now);
    socket.on('close', () => open.now--);
    socket.on('error', () => {});
  });
  port = 0;

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): void {
    for (const s of this.sockets) s.destroy();
    this.server.close();
  }
}

/** The pattern library's catalogue, as the design library asks for it. */
const CATALOGUE = { 'hero-1': { name: 'Hero', content: '<p>Hero</p>' } };

function catalogueServer(port = 0): Promise<HttpServer> {
  const server = createServer((_, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(CATALOGUE));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const stop = (server: HttpServer) => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

const LIBRARY = 'kb-design-library/v1/get_library?library=section&key=section';

async function library(site: ServerFixture, path = LIBRARY) {
  const res = await site.call(path, { auth: site.admin });
  return { status: res.status, warning: res.headers.get('warning'), body: (await res.json()) as Record<string, any> };
}

/** Sixteen requests at once, as an editor's pattern picker sends them; their answers. */
const sixteen = (site: ServerFixture) => Promise.all(Array.from({ length: 16 }, () => library(site)));

const pointLibraryAt = (site: ServerFixture, base: string) => site.app.store.options.set('design_library_patterns_url', base);

describe('remote services fail fast', () => {
  let restore = () => {};
  // a short whole-exchange deadline for the silent service; the connect timeout stays the default 2 s
  before(() => (restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1', CMS_SPEC_OUTBOUND_TIMEOUT_MS: '2500', CMS_SPEC_OUTBOUND_UNREACHABLE_MS: '1500' })));
  after(() => restore());
  const site = useServer({}, async (s) => {
    await s.app.store.options.set('design_library_license_key', 'LICENSE-KEY-123');
  });

  // what says the fast path was taken is the answer: 502 "could not be reached", never the 504 of the whole-exchange deadline
  test('16 requests at once to a service that refuses connections: each a 502 naming the service', async () => {
    const port = await closedPort();
    await pointLibraryAt(site, `http://127.0.0.1:${port}/patterns/`);
    const answers = await sixteen(site);
    for (const a of answers) {
      assert.equal(a.status, 502);
      assert.deepEqual(a.body, {
        code: 'kb_design_library_unreachable',
        message: `The design library service could not be reached: Could not reach 127.0.0.1:${port}: ECONNREFUSED.`,
        data: { status: 502, service: 'library' },
      });
    }
  });

  test('16 requests at once to a host whose connection never completes: each a 502 at the 2 s connect timeout, not a 504 at the 2.5 s deadline; then remembered', async () => {
    const silent = await new Silent().start();
    try {
      // over https the connection is made only once TLS is: a host that takes the TCP connection and says nothing never gets there
      await pointLibraryAt(site, `https://127.0.0.1:${silent.port}/patterns/`);
      const answers = await sixteen(site);
      for (const a of answers) {
        assert.equal(a.status, 502);
        assert.equal(a.body.code, 'kb_design_library_unreachable');
        assert.equal(a.body.message, `The design library service could not be reached: Could not reach 127.0.0.1:${silent.port}: no connection within 2000 ms.`);
      }
      // the first failed connection failed the others with it: none was tried again (a GET is retried once after a passing failure)
      const attempts = silent.sockets.size;
      assert.ok(attempts >= 1 && attempts <= 16, `${attempts} connections for 16 requests`);
      // remembered as unreachable: the next request fails without trying to connect again
      const next = await library(site);
      assert.deepEqual([next.status, next.body.message], [502, answers[0].body.message]);
      assert.equal(silent.sockets.size, attempts, 'no new connection attempt');
    } finally {
      silent.close();
    }
  });

  test('a service that takes the request and never answers: a 504 naming it at the whole-exchange deadline', async () => {
    const silent = await new Silent().start();
    try {
      await pointLibraryAt(site, `http://127.0.0.1:${silent.port}/patterns/`);
      const answers = await sixteen(site);
      for (const a of answers) {
        assert.equal(a.status, 504);
        assert.deepEqual(a.body, { code: 'kb_design_library_timeout', message: 'The design library service did not answer within 2500 ms.', data: { status: 504, service: 'library' } });
      }
    } finally {
      silent.close();
    }
  });

  test('16 requests at once to a host whose name does not resolve (offline): each a 502 naming the service, not a 504', async () => {
    // .invalid never resolves (RFC 6761): what every name looks like to a machine without network
    await pointLibraryAt(site, 'https://library.invalid/patterns/');
    const answers = await sixteen(site);
    const reasons = new Set<string>();
    for (const a of answers) {
      assert.equal(a.status, 502, JSON.stringify(a.body));
      assert.equal(a.body.code, 'kb_design_library_unreachable');
      assert.deepEqual(a.body.data, { status: 502, service: 'library' });
      // the resolver says the name does not exist; one that does not answer at all is cut off by the connect timeout
      const m = /^The design library service could not be reached: Could not reach library\.invalid: (ENOTFOUND|EAI_AGAIN|no connection within 2000 ms)\.$/.exec(a.body.message);
      assert.ok(m, a.body.message);
      reasons.add(m[1]);
    }
    assert.equal(reasons.size, 1, 'the lookup failed once for all of them');
  });

  test('a host that could not be connected to is not tried again for CMS_SPEC_OUTBOUND_UNREACHABLE_MS, then is', async () => {
    const port = await closedPort();
    await pointLibraryAt(site, `http://127.0.0.1:${port}/patterns/`);
    assert.equal((await library(site)).status, 502);
    const service = await catalogueServer(port);
    try {
      const remembered = await library(site);
      assert.equal(remembered.status, 502, 'the refusal is remembered although the service is now up');
      assert.equal(remembered.body.message, `The design library service could not be reached: Could not reach 127.0.0.1:${port}: ECONNREFUSED.`);
      // asked again as soon as the 1.5 s are over: each request until then is refused at once
      const asked = await until(async () => {
        const answer = await library(site);
        return answer.status !== 502 && answer;
      }, 'a request to the host once CMS_SPEC_OUTBOUND_UNREACHABLE_MS passed');
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      assert.deepEqual(asked.body, CATALOGUE);
    } finally {
      await stop(service);
    }
  });

  test('the last answer kept is served when the service is down, with Warning: 110; without one the error stands', async () => {
    const service = await catalogueServer();
    const { port } = service.address() as AddressInfo;
    await pointLibraryAt(site, `http://127.0.0.1:${port}/patterns/`);
    await site.app.store.options.set('design_library_cache_seconds', '1');
    try {
      const fresh = await library(site);
      assert.deepEqual([fresh.status, fresh.warning, fresh.body], [200, null, CATALOGUE]);
    } finally {
      await stop(service);
    }
    // kept for a second: served fresh until the clock has passed the next whole second, then stale
    const stale = await until(async () => {
      const answer = await library(site);
      return answer.warning !== null && answer;
    }, 'the kept answer expiring');
    assert.deepEqual([stale.status, stale.warning, stale.body], [200, '110 - "Response is Stale"', CATALOGUE]);

    const never = await library(site, 'kb-design-library/v1/get_library?library=section&key=other');
    assert.equal(never.status, 502, 'nothing kept for this question');
    assert.equal(never.warning, null);
    assert.equal(never.body.message, `The design library service could not be reached: Could not reach 127.0.0.1:${port}: ECONNREFUSED.`);
  });
});

describe('site health checks the hosts of the plugins at once, with the connect timeout', () => {
  let restore = () => {};
  const silent: Silent[] = [];
  before(async () => {
    restore = setEnv({ CMS_SPEC_OUTBOUND_ALLOW: '127.0.0.1' });
    for (let i = 0; i < 40; i++) silent.push(await new Silent().start());
  });
  after(() => {
    restore();
    for (const s of silent) s.close();
  });
  const site = useServer({ compose: { plugins: [join(ROOT, 'src/plugins'), join(ROOT, 'test/fixtures/site-health-plugins')] } }, async (s) => {
    // only the probe plugin's hosts: the others name hosts on the internet
    const plugins = (await (await s.call('cms/v2/plugins', { auth: s.admin })).json()) as { plugin: string; status: string }[];
    const keep = new Set(['site-health/site-health', 'outbound-probe/outbound-probe']);
    for (const p of plugins.filter((p) => p.status === 'active' && !keep.has(p.plugin)))
      assert.equal((await s.call(`cms/v2/plugins/${p.plugin}`, { method: 'POST', json: { status: 'inactive' }, auth: s.admin })).status, 200, p.plugin);
  });

  test('40 hosts that never complete a connection: all tried at once, each once, and reported as no network, a recommendation', async () => {
    await site.app.store.options.set('outbound_probe_hosts', silent.map((s) => `https://127.0.0.1:${s.port}`).join(','));
    open.most = 0;
    const res = await site.call('cms-site-health/v1/tests/dotorg-communication', { auth: site.admin });
    const body = (await res.json()) as Record<string, string>;
    // one after the other, at most one would have been open at a time (and the test would take 40 connect timeouts)
    assert.equal(open.most, 40, 'the 40 connections were open at once');
    assert.deepEqual(silent.map((s) => s.sockets.size), Array(40).fill(1), 'one connection attempt per host');
    assert.deepEqual([res.status, body.status, body.label], [200, 'recommended', 'The services your plugins use could not be checked: no network']);
    assert.match(body.description, /None of the 40 hosts they name could be reached/);
  });
});
