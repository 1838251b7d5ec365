import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, useServer, type ServerFixture } from '../../helpers/server.ts';
import { userAuth } from '../../helpers/auth.ts';
import { HOSTILE_BODIES, HOSTILE_VALUES, problemWith, RawQuery, storedState } from '../../fuzz/support.ts';

const ADMIN_TOOLS = [
  'cms_list-posts',
  'cms_create-post',
  'cms_get-post',
  'cms_update-post',
  'cms_list-pages',
  'cms_create-page',
  'cms_get-page',
  'cms_update-page',
  'cms_search',
  'cms_get-settings',
  'site-health_test-background-updates',
  'site-health_test-loopback-requests',
  'block-editor_get-url-details',
  'code-snippets_activate-snippet',
  'code-snippets_deactivate-snippet',
];
const SUBSCRIBER_TOOLS = ['cms_list-posts', 'cms_get-post', 'cms_list-pages', 'cms_get-page', 'cms_search'];

/** The SDK's own client over streamable HTTP, with an application password; at /cms-json/mcp unless told. */
async function connect(site: ServerFixture, auth: string, url = `${site.api}mcp`): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: auth } } }));
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** Someone an MCP client acts for: their application password over HTTP, their login over stdio. */
interface Caller {
  auth: string;
  login: string;
}
type ConnectAs = (site: ServerFixture, caller: Caller) => Promise<Client>;

const adminOf = (site: ServerFixture): Caller => ({ auth: site.admin, login: 'admin' });

/** What holds over either transport: the same tools, checks and notifications. */
function sameOverEither(transport: string, connectAs: ConnectAs) {
  describe(`the abilities as MCP tools over ${transport}`, () => {
    const site = useServer();

    test('an administrator and a subscriber each see the tools they may run, with schemas and annotations from the spec', async () => {
      const admin = await connectAs(site, adminOf(site));
      const subscriber = await connectAs(site, await userAuth(site, 'subscriber'));
      try {
        assert.deepEqual(await names(admin), ADMIN_TOOLS);
        assert.deepEqual(await names(subscriber), SUBSCRIBER_TOOLS);
        const tools = new Map((await admin.listTools()).tools.map((t) => [t.name, t]));
        const list = tools.get('cms_list-posts')!;
        assert.equal(list.inputSchema.type, 'object');
        assert.deepEqual(list.annotations, { title: list.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
        assert.equal(tools.get('cms_create-post')!.annotations!.readOnlyHint, false);
        assert.equal(tools.get('cms_get-post')!.outputSchema!.type, 'object');
      } finally {
        await admin.close();
        await subscriber.close();
      }
    });

    test('a read-only tool answers what the endpoint does; a write tool writes what REST then reads', async () => {
      await site.json('cms/v2/posts', { json: { title: `Read by an agent over ${transport}`, status: 'publish' } }, 201);
      const client = await connectAs(site, adminOf(site));
      try {
        const listed = await client.callTool({ name: 'cms_list-posts', arguments: { search: `agent over ${transport}`, per_page: 5 } });
        assert.equal(listed.isError, undefined);
        assert.deepEqual((JSON.parse(text(listed)) as { title: { rendered: string } }[]).map((p) => p.title.rendered), [`Read by an agent over ${transport}`]);

        const created = await client.callTool({ name: 'cms_create-post', arguments: { title: `Written over MCP (${transport})`, status: 'publish' } });
        assert.equal(created.isError, undefined);
        const id = (created.structuredContent as { id: number }).id;
        const post = await site.json(`cms/v2/posts/${id}`);
        assert.equal(post.title.rendered, `Written over MCP (${transport})`);
      } finally {
        await client.close();
      }
    });

    test('invalid input and a refused permission are tool errors with WordPress’s code and message; nothing is written', async () => {
      const admin = await connectAs(site, adminOf(site));
      const subscriber = await connectAs(site, await userAuth(site, 'subscriber'));
      try {
        const bad = await admin.callTool({ name: 'cms_list-posts', arguments: { per_page: 'lots' } });
        assert.deepEqual([bad.isError, text(bad)], [true, 'ability_invalid_input: Ability "cms/list-posts" has invalid input. Reason: input[per_page] is not of type integer.']);
        const refused = await subscriber.callTool({ name: 'cms_create-post', arguments: { title: 'Not allowed' } });
        assert.deepEqual([refused.isError, text(refused)], [true, 'rest_ability_cannot_execute: Sorry, you are not allowed to execute this ability.']);
        assert.deepEqual(await site.json('cms/v2/posts?search=Not%20allowed&status=any'), []);
      } finally {
        await admin.close();
        await subscriber.close();
      }
    });

    test('deactivating a plugin takes its tools away and tells connected clients, without a request of theirs', async () => {
      const client = await connectAs(site, adminOf(site));
      try {
        assert.deepEqual(await names(client), ADMIN_TOOLS);
        const changed = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
        await site.json('cms/v2/plugins/code-snippets/code-snippets', { json: { status: 'inactive' } });
        await changed;
        assert.deepEqual(await names(client), ADMIN_TOOLS.filter((n) => !n.startsWith('code-snippets_')));
      } finally {
        await site.json('cms/v2/plugins/code-snippets/code-snippets', { json: { status: 'active' } });
        await client.close();
      }
    });
  });
}

sameOverEither('streamable HTTP', (site, caller) => connect(site, caller.auth));

/** `cms-spec mcp --user LOGIN` on the server's database, started by the SDK's client as a desktop client starts it. */
sameOverEither('stdio', async (site, caller) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(ROOT, 'bin/cms-spec.js'), 'mcp', '--user', caller.login, '--db', site.dbPath], cwd: ROOT, stderr: 'ignore' });
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(transport);
  return client;
});

describe('the MCP endpoint over streamable HTTP', () => {
  const site = useServer();

  test('the subscriber’s tools from a session at /wp-json/mcp too', async () => {
    const subscriber = await connect(site, (await userAuth(site, 'subscriber')).auth, `${site.home}/wp-json/mcp`);
    try {
      assert.deepEqual(await names(subscriber), SUBSCRIBER_TOOLS);
    } finally {
      await subscriber.close();
    }
  });

  test('posts and pages are resources, read with the caller’s permissions', async () => {
    const published = await site.json('cms/v2/posts', { json: { title: 'A resource', status: 'publish' } }, 201);
    const draft = await site.json('cms/v2/posts', { json: { title: 'A draft resource', status: 'draft' } }, 201);
    const page = await site.json('cms/v2/pages', { json: { title: 'A page resource', status: 'publish' } }, 201);
    const admin = await connect(site, site.admin);
    const subscriber = await connect(site, (await userAuth(site, 'subscriber')).auth);
    try {
      assert.deepEqual((await admin.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate), ['cms://posts/{id}', 'cms://pages/{id}']);
      const uris = (await subscriber.listResources()).resources.map((r) => r.uri);
      assert.ok(uris.includes(`cms://posts/${published.id}`) && uris.includes(`cms://pages/${page.id}`));
      assert.ok(!uris.includes(`cms://posts/${draft.id}`));
      const read = await subscriber.readResource({ uri: `cms://posts/${published.id}` });
      assert.equal(JSON.parse((read.contents[0] as { text: string }).text).title.rendered, 'A resource');
      assert.equal(JSON.parse(((await admin.readResource({ uri: `cms://posts/${draft.id}` })).contents[0] as { text: string }).text).title.rendered, 'A draft resource');
      await assert.rejects(subscriber.readResource({ uri: `cms://posts/${draft.id}` }), /rest_forbidden: Sorry, you are not allowed to do that\./);
    } finally {
      await admin.close();
      await subscriber.close();
    }
  });

  test('an anonymous caller gets WordPress’s 401 and no session; a foreign browser Origin is refused', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anonymous = await fetch(`${site.api}mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('mcp-session-id'), null);
    assert.deepEqual(await anonymous.json(), { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.', data: { status: 401 } });
    const foreign = await fetch(`${site.api}mcp`, { method: 'POST', headers: { ...headers, origin: 'https://evil.example', authorization: site.admin }, body: JSON.stringify(initialize) });
    assert.equal(foreign.status, 403);
    assert.deepEqual(await foreign.json(), { code: 'rest_forbidden_origin', message: 'Requests from other sites are not allowed.', data: { status: 403 } });
  });

  test('a session belongs to the user who opened it, and DELETE ends it', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${site.api}mcp`), { requestInit: { headers: { authorization: site.admin } } });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(transport);
    const session = transport.sessionId!;
    const listTools = (auth: string) =>
      fetch(`${site.api}mcp`, {
        method: 'POST',
        headers: { authorization: auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
    try {
      assert.equal((await listTools((await userAuth(site, 'subscriber')).auth)).status, 404);
      assert.equal((await listTools(site.admin)).status, 200);
      await transport.terminateSession();
      assert.equal((await listTools(site.admin)).status, 404);
    } finally {
      await client.close();
    }
  });
});

describe('the MCP endpoint under hostile callers', () => {
  const site = useServer();

  test('anonymous: every method and hostile body is WordPress’s 401; a subscriber’s hostile calls of every tool change nothing and break nothing', async () => {
    const subscriber = await userAuth(site, 'subscriber');
    const before = await storedState(site, site.admin, 'A', subscriber.userId);
    for (const method of ['GET', 'POST', 'DELETE'])
      for (const { name, type, body } of HOSTILE_BODIES) {
        const label = `anonymous ${method} /mcp ${name}`;
        assert.equal(await problemWith(site, { label, method, path: 'mcp', type, body: method === 'GET' ? undefined : body }), null);
        const res = await fetch(`${site.api}mcp`, { method, headers: type ? { 'content-type': type } : {}, body: method === 'GET' ? undefined : (body as string) });
        assert.equal(res.status, 401, label);
      }

    for (const { name, type, body } of HOSTILE_BODIES) {
      const res = await fetch(`${site.api}mcp`, { method: 'POST', headers: { authorization: subscriber.auth, accept: 'application/json, text/event-stream', ...(type ? { 'content-type': type } : {}) }, body: body as string });
      assert.ok(res.status >= 400 && res.status < 500, `subscriber POST /mcp ${name}: ${res.status}`);
    }
    // every tool, the administrator's too, with each of its inputs set to a hostile value: the subscriber may read, nothing more
    const admin = await connect(site, site.admin);
    const client = await connect(site, subscriber.auth);
    try {
      const values = HOSTILE_VALUES.filter((v) => !(v instanceof RawQuery)).filter((_, i) => i % 3 === 0);
      for (const tool of (await admin.listTools()).tools)
        for (const value of values) {
          const input = Object.fromEntries(Object.keys(tool.inputSchema.properties ?? {}).map((k) => [k, value]));
          const result = await client.callTool({ name: tool.name, arguments: input });
          if (!SUBSCRIBER_TOOLS.includes(tool.name)) assert.equal(result.isError, true, `${tool.name} with ${JSON.stringify(value)?.slice(0, 40)}`);
        }
    } finally {
      await admin.close();
      await client.close();
    }
    assert.deepEqual(await storedState(site, site.admin, 'A', subscriber.userId), before);
  });
});

describe('the MCP path is configurable (CMS_SPEC_MCP_PATH)', () => {
  before(() => void (process.env.CMS_SPEC_MCP_PATH = '/agents/mcp'));
  after(() => void delete process.env.CMS_SPEC_MCP_PATH);
  const site = useServer();

  test('the endpoint and its resource metadata move there; /mcp is no route', async () => {
    const client = await connect(site, site.admin, `${site.api}agents/mcp`);
    try {
      assert.deepEqual(await names(client), ADMIN_TOOLS);
    } finally {
      await client.close();
    }
    const old = await fetch(`${site.api}mcp`, { method: 'POST', headers: { authorization: site.admin, 'content-type': 'application/json' }, body: '{}' });
    assert.equal(old.status, 404);
    assert.equal(((await old.json()) as { code: string }).code, 'rest_no_route');
    const metadata = (await (await fetch(`${site.home}/.well-known/oauth-protected-resource/cms-json/agents/mcp`)).json()) as { resource: string };
    assert.equal(metadata.resource, `${site.home}/cms-json/agents/mcp`);
  });
});

