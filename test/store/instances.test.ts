import { before, describe, it } from 'node:test';
import { get } from 'node:http';
import assert from 'node:assert/strict';
import type { Serving } from '../cli/run.ts';
import { useTwoInstances } from '../helpers/instances.ts';
import { adminAuth } from '../helpers/auth.ts';
import { basicAuth, startTestServer } from '../helpers/server.ts';
import { TEST_STORE, testDatabase } from '../helpers/store.ts';
import { missingService } from '../helpers/services.ts';

/**
 * Scale-out: two instances of the server (separate processes, as on two machines) in front of one
 * PostgreSQL database. What one changes, the other serves at its next request, even when its
 * requests share their catch-ups of the versions and its database answers late; concurrent writes
 * through both lose nothing; the failed-login throttle counts across both; two starting at once on
 * a new database both come up whole.
 */
/** Why it does not run here: the SQLite pass runs it (it uses PostgreSQL whichever store the run tests), or there is none (helpers/services.ts). */
const skip = TEST_STORE === 'postgres' ? 'the SQLite pass runs it: it uses PostgreSQL whichever store the run tests' : await missingService('postgres');

const call = (s: Serving, path: string, init: { method?: string; json?: unknown; auth?: string } = {}) =>
  fetch(s.api + path, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: { ...(init.auth ? { authorization: init.auth } : {}), ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });

describe('two instances on one PostgreSQL', { skip }, () => {
  let a: Serving;
  let b: Serving;
  let admin: string;
  const two = useTwoInstances([], 'instances test');
  before(() => void ({ a, b, admin } = two));

  it('a settings change on one is served by the other at its next request', async () => {
    assert.equal((await (await call(b, '')).json()).name, 'cms-spec');
    const res = await call(a, 'cms/v2/settings', { json: { title: 'Shared site', description: 'One database' }, auth: admin });
    assert.equal(res.status, 200);
    const index = await (await call(b, '')).json();
    assert.equal(index.name, 'Shared site');
    assert.equal(index.description, 'One database');
  });

  it('a plugin deactivated on one is gone from the other, and back when activated there', async () => {
    assert.equal((await call(b, 'seo/v1')).status, 200);
    assert.equal((await call(a, 'cms/v2/plugins/seo/seo', { json: { status: 'inactive' }, auth: admin })).status, 200);
    const gone = await call(b, 'seo/v1');
    assert.equal(gone.status, 404);
    assert.equal((await gone.json()).code, 'rest_no_route');
    assert.equal((await call(b, 'cms/v2/plugins/seo/seo', { json: { status: 'active' }, auth: admin })).status, 200);
    assert.equal((await call(a, 'seo/v1')).status, 200);
  });

  it('four clients writing through both instances at once lose nothing', async () => {
    const total = async (s: Serving) => Number((await call(s, 'cms/v2/posts?per_page=1')).headers.get('x-wp-total'));
    const before = await total(a);
    const PER_CLIENT = 15;
    const client = async (n: number) => {
      const ids: number[] = [];
      for (let i = 0; i < PER_CLIENT; i++) {
        const res = await call(i % 2 ? a : b, 'cms/v2/posts', { json: { title: `client ${n} post ${i}`, status: 'publish' }, auth: admin });
        assert.equal(res.status, 201, await res.clone().text());
        ids.push((await res.json()).id);
      }
      return ids;
    };
    const ids = (await Promise.all([0, 1, 2, 3].map(client))).flat();
    assert.equal(new Set(ids).size, 4 * PER_CLIENT, 'every post has its own id');
    assert.equal(await total(a), before + 4 * PER_CLIENT);
    assert.equal(await total(b), before + 4 * PER_CLIENT);
  });

  it("what one keeps of its reads (a list's total and page, a post's permission read) follows the other's writes", async () => {
    const total = async (s: Serving) => Number((await call(s, 'cms/v2/posts?per_page=1')).headers.get('x-wp-total'));
    const before = await total(b);
    assert.equal(await total(b), before, 'b asked twice, the second time kept');
    const created = await call(a, 'cms/v2/posts', { json: { title: 'Counted on b', status: 'publish' }, auth: admin });
    assert.equal(created.status, 201);
    assert.equal(await total(b), before + 1);
    const id = (await created.json()).id;
    assert.equal((await call(b, `cms/v2/posts/${id}`)).status, 200);
    assert.equal((await call(a, `cms/v2/posts/${id}`, { json: { status: 'draft' }, auth: admin })).status, 200);
    // a draft is not shown to a visitor (rest_forbidden), whichever instance is asked
    const asked = await call(b, `cms/v2/posts/${id}`);
    assert.equal(asked.status, 401, await asked.clone().text());
    assert.equal(await total(b), before);
    // the page b keeps of its list follows a's edits of its posts
    const firstTitle = async (s: Serving) => (await (await call(s, 'cms/v2/posts?per_page=1&orderby=id')).json())[0]?.title.rendered;
    assert.equal((await call(a, `cms/v2/posts/${id}`, { json: { status: 'publish' }, auth: admin })).status, 200);
    assert.equal(await firstTitle(b), 'Counted on b');
    assert.equal(await firstTitle(b), 'Counted on b', 'b asked twice, the second time kept');
    assert.equal((await call(a, `cms/v2/posts/${id}`, { json: { title: 'Renamed on a' }, auth: admin })).status, 200);
    assert.equal(await firstTitle(b), 'Renamed on a');
  });

  /** `users/me` as `auth` from another loopback address: refusals count against the caller's address, so the throttle's test below starts from none. */
  const refusedBy = (s: Serving, auth: string) =>
    new Promise<{ status: number; code: string }>((resolve, reject) => {
      const url = new URL(`${s.api}cms/v2/users/me`);
      get({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: auth }, localAddress: '127.0.0.2' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, code: (JSON.parse(body) as { code: string }).code }));
      }).on('error', reject);
    });

  it("a role changed, a password revoked or a user deleted through one is the other's at its next request", async () => {
    const made = await call(a, 'cms/v2/users', { json: { username: 'recognised', email: 'recognised@example.test', password: 'a long password', roles: ['subscriber'] }, auth: admin });
    assert.equal(made.status, 201, await made.clone().text());
    const { id } = (await made.json()) as { id: number };
    const newPassword = async (name: string) => {
      const res = await call(a, `cms/v2/users/${id}/application-passwords`, { json: { name }, auth: admin });
      assert.equal(res.status, 201);
      const { password, uuid } = (await res.json()) as { password: string; uuid: string };
      return { auth: basicAuth('recognised', password), uuid };
    };
    const first = await newPassword('first');
    const draft = (auth: string) => call(b, 'cms/v2/posts', { json: { title: 'Through b' }, auth });
    // recognised by b, then changed through a
    assert.equal((await draft(first.auth)).status, 403);
    assert.equal((await call(a, `cms/v2/users/${id}`, { json: { roles: ['author'] }, auth: admin })).status, 200);
    assert.equal((await draft(first.auth)).status, 201);

    assert.equal((await call(a, `cms/v2/users/${id}/application-passwords/${first.uuid}`, { method: 'DELETE', auth: admin })).status, 200);
    const revoked = await refusedBy(b, first.auth);
    assert.equal(revoked.status, 401);
    assert.equal(revoked.code, 'incorrect_password');

    const second = await newPassword('second');
    assert.equal((await call(b, 'cms/v2/users/me', { auth: second.auth })).status, 200);
    assert.equal((await call(a, `cms/v2/users/${id}?force=true&reassign=1`, { method: 'DELETE', auth: admin })).status, 200);
    const deleted = await refusedBy(b, second.auth);
    assert.equal(deleted.status, 401);
    assert.equal(deleted.code, 'invalid_username');
  });

  it('the throttle for bad passwords counts failures on both instances together', async () => {
    const wrong = basicAuth('admin', 'not the password');
    for (let i = 0; i < 5; i++) assert.equal((await call(i % 2 ? a : b, 'cms/v2/users/me', { auth: wrong })).status, 401);
    // the administrator's password, recognised by both before, is held back with the rest
    for (const s of [a, b])
      for (const auth of [wrong, admin]) {
        const refused = await call(s, 'cms/v2/users/me', { auth });
        assert.equal(refused.status, 429);
        assert.equal((await refused.json()).code, 'too_many_failed_logins');
      }
  });
});

describe('two instances on one PostgreSQL, the second farther from it', { skip }, () => {
  let a: Serving;
  let b: Serving;
  let admin: string;
  const two = useTwoInstances([], 'freshness test', { slowLinkToB: true });
  before(() => {
    ({ a, b, admin } = two);
    // b's answers from the database come 100 ms late: a read of the versions b began before a's
    // write committed is still on its way when that write has been acknowledged and b is asked again
    two.link!.delayMs = 100;
  });

  it('under a stream of reads, no read sent to b after a write through a was acknowledged answers from before it', async () => {
    const made = await call(a, 'cms/v2/posts', { json: { title: 'round 0', status: 'publish' }, auth: admin });
    assert.equal(made.status, 201);
    const { id } = (await made.json()) as { id: number };
    const roundOf = async (s: Serving) => {
      const res = await call(s, `cms/v2/posts/${id}`);
      assert.equal(res.status, 200);
      return Number(/^round (\d+)$/.exec(((await res.json()) as { title: { rendered: string } }).title.rendered)![1]);
    };
    const ROUNDS = 20;
    const READERS = 8;
    let acknowledged = 0;
    let writing = true;
    let checked = 0;
    // each reader checks every answer against the rounds acknowledged before it sent its request;
    // so many keep b's catch-up of the versions busy that a request mostly arrives while one is under way
    const reader = async () => {
      while (writing) {
        const floor = acknowledged;
        const round = await roundOf(b);
        assert.ok(round >= floor, `b answered round ${round} after round ${floor} was acknowledged`);
        checked++;
      }
    };
    const writer = async () => {
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          assert.equal((await call(a, `cms/v2/posts/${id}`, { json: { title: `round ${round}` }, auth: admin })).status, 200);
          acknowledged = round;
          assert.equal(await roundOf(b), round);
        }
      } finally {
        writing = false;
      }
    };
    await Promise.all([writer(), ...Array.from({ length: READERS }, reader)]);
    assert.ok(checked > ROUNDS, `the readers checked ${checked} answers`);
  });
});

describe('two instances starting at once on a new PostgreSQL database', { skip }, () => {
  it('both run with every plugin active and nothing logged as an error, however their migrations interleave', async () => {
    // each round a new database: what races is the first start's migrations (core, then each plugin's)
    for (let round = 0; round < 4; round++) {
      const db = await testDatabase('postgres');
      const both = await Promise.all([startTestServer({ dbPath: db.location }), startTestServer({ dbPath: db.location })]);
      try {
        for (const [n, server] of both.entries()) {
          assert.deepEqual(server.errors, [], `instance ${n} of round ${round} logged errors`);
          const inactive = await server.call('cms/v2/plugins?status=inactive', { auth: await adminAuth(server) });
          assert.equal(inactive.status, 200);
          assert.deepEqual(((await inactive.json()) as { plugin: string }[]).map((p) => p.plugin), [], `instance ${n} of round ${round}`);
        }
      } finally {
        for (const server of both) await server.close();
        await db.drop();
      }
    }
  });
});
