import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { useServer, type ServerFixture } from '../helpers/server.ts';
import { userAuth, type TestUser } from '../helpers/auth.ts';

const REDIRECT = 'http://127.0.0.1:1/callback';

/** An MCP client's side of OAuth, as the SDK asks a host application to keep it: in memory, the browser being the test. */
class MemoryProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = { client_name: 'Test agent', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  clientInformation = () => this.info;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.info = info);
  tokens = () => this.saved;
  saveTokens = (tokens: OAuthTokens) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (v: string) => void (this.verifier = v);
  codeVerifier = () => this.verifier;
  state = () => 'state-42';
}

const formHeaders = (cookie: string) => ({ 'content-type': 'application/x-www-form-urlencoded', cookie });
const tokenOf = (html: string) => /name="_token" value="([^"]+)"/.exec(html)![1];

/**
 * The user in a browser: opens the authorization URL, logs in, then approves (or rejects); the
 * answer is where the page sends the browser back to, the client's redirect URI with its args.
 */
async function decide(url: URL | string, user: TestUser, action: 'approve' | 'reject' = 'approve'): Promise<URL> {
  const first = await fetch(url, { redirect: 'manual' });
  assert.equal(first.status, 200, await first.clone().text());
  let cookie = first.headers.get('set-cookie')!.split(';')[0];
  const login = await fetch(url, { method: 'POST', headers: formHeaders(cookie), body: new URLSearchParams({ action: 'login', log: user.login, pwd: user.password, _token: tokenOf(await first.text()) }), redirect: 'manual' });
  assert.equal(login.status, 303);
  cookie = login.headers.get('set-cookie')!.split(';')[0];
  const approval = await fetch(url, { headers: { cookie } });
  const html = await approval.text();
  assert.match(html, /Would you like to give <strong>Test agent<\/strong> access to your account\?/);
  assert.match(html, /You will be sent back to <code>http:\/\/127\.0\.0\.1:1<\/code>/);
  const decided = await fetch(url, { method: 'POST', headers: formHeaders(cookie), body: new URLSearchParams({ action, app_name: 'Test agent', _token: tokenOf(html) }), redirect: 'manual' });
  assert.equal(decided.status, 302);
  return new URL(decided.headers.get('location')!);
}

const mcpUrl = (site: ServerFixture) => new URL(`${site.api}mcp`);

/** The SDK's client over streamable HTTP with OAuth: the first connection is refused and starts the flow; the user decides; the code goes back to the transport. */
async function authorizeWithSdk(site: ServerFixture, provider: MemoryProvider, user: TestUser): Promise<void> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(site), { authProvider: provider });
  await assert.rejects(new Client({ name: 'test', version: '1.0.0' }).connect(transport), UnauthorizedError);
  const back = await decide(provider.authorizationUrl!, user);
  assert.equal(back.origin + back.pathname, REDIRECT);
  assert.equal(back.searchParams.get('state'), 'state-42');
  assert.equal(back.searchParams.get('iss'), site.home.replace(/\/$/, ''));
  await transport.finishAuth(back.searchParams.get('code')!);
}

async function connected(site: ServerFixture, provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(site), { authProvider: provider }));
  return client;
}

/** A registered client and a code for `user`, made by hand as a client would, for the token endpoint's checks. */
async function codeFor(site: ServerFixture, user: TestUser, verifier = randomBytes(32).toString('base64url')) {
  const registered = await fetch(`${site.home}/cms-admin/authorize-application/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Test agent', redirect_uris: [REDIRECT] }) });
  assert.equal(registered.status, 201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const url = new URL(`${site.home}/cms-admin/authorize-application`);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })) url.searchParams.set(k, v);
  const back = await decide(url, user);
  return { clientId, verifier, code: back.searchParams.get('code')!, url };
}

const exchange = (site: ServerFixture, params: Record<string, string>) =>
  fetch(`${site.home}/cms-admin/authorize-application/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });

describe('OAuth bearer tokens made from application passwords, for MCP clients', () => {
  const site = useServer();

  test('the MCP endpoint says where its metadata is, and the metadata leads to the site’s authorization server', async () => {
    const anonymous = await fetch(mcpUrl(site), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(anonymous.status, 401);
    const metadataUrl = `${site.home}/.well-known/oauth-protected-resource/cms-json/mcp`;
    assert.equal(anonymous.headers.get('www-authenticate'), `Bearer resource_metadata="${metadataUrl}"`);
    const resource = await fetch(metadataUrl);
    assert.equal(resource.headers.get('access-control-allow-origin'), '*');
    const issuer = site.home.replace(/\/$/, '');
    assert.deepEqual(await resource.json(), { resource: `${issuer}/cms-json/mcp`, authorization_servers: [issuer], bearer_methods_supported: ['header'], resource_name: 'cms-spec (MCP)' });
    assert.equal((await fetch(`${site.home}/.well-known/oauth-protected-resource/wp-json/mcp`).then((r) => r.json()) as { resource: string }).resource, `${issuer}/wp-json/mcp`);
    assert.equal((await fetch(`${site.home}/.well-known/oauth-protected-resource/cms-json/posts`)).status, 404);
    const server = (await (await fetch(`${site.home}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    assert.deepEqual(server, {
      issuer,
      authorization_endpoint: `${issuer}/cms-admin/authorize-application`,
      token_endpoint: `${issuer}/cms-admin/authorize-application/token`,
      registration_endpoint: `${issuer}/cms-admin/authorize-application/register`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  test('the SDK’s client registers, the user logs in and approves, and the token lists the user’s tools until its application password is revoked', async () => {
    const editor = await userAuth(site, 'editor');
    const provider = new MemoryProvider();
    await authorizeWithSdk(site, provider, editor);
    assert.equal(provider.saved!.token_type, 'Bearer');

    const client = await connected(site, provider);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('cms_create-post') && !tools.includes('cms_get-settings'), tools.join(' '));
      const created = await client.callTool({ name: 'cms_create-post', arguments: { title: 'Written with a token', status: 'draft' } });
      assert.equal((await site.json(`cms/v2/posts/${(created.structuredContent as { id: number }).id}?context=edit`)).author, editor.userId);
    } finally {
      await client.close();
    }

    // the approval made an application password named after the client, its first use the exchange
    const passwords = (await site.json(`cms/v2/users/${editor.userId}/application-passwords`)) as { uuid: string; name: string; last_used: string | null }[];
    const made = passwords.find((p) => p.name === 'Test agent')!;
    assert.notEqual(made.last_used, null);

    // the token is no credential for the REST API: a Bearer header there is anonymous, as in WordPress
    const rest = await site.call('cms/v2/users/me', { headers: { authorization: `Bearer ${provider.saved!.access_token}` } });
    assert.equal(rest.status, 401);
    assert.equal(((await rest.json()) as { code: string }).code, 'rest_not_logged_in');

    await site.json(`cms/v2/users/${editor.userId}/application-passwords/${made.uuid}`, { method: 'DELETE' });
    const revoked = await fetch(mcpUrl(site), { method: 'POST', headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.equal(revoked.status, 401);
    assert.equal(revoked.headers.get('www-authenticate'), `Bearer error="invalid_token", resource_metadata="${site.home}/.well-known/oauth-protected-resource/cms-json/mcp"`);
    assert.deepEqual(await revoked.json(), { code: 'invalid_token', message: 'The access token is invalid, or its application password was revoked.', data: { status: 401 } });
  });

  test('the token endpoint answers OAuth’s errors; a code works once, and its replay revokes the token it gave', async () => {
    const author = await userAuth(site, 'author');
    const { clientId, verifier, code } = await codeFor(site, author);
    const valid = { grant_type: 'authorization_code', code, client_id: clientId, redirect_uri: REDIRECT, code_verifier: verifier };
    const errorOf = async (params: Record<string, string>) => {
      const res = await exchange(site, params);
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    assert.deepEqual(await errorOf({ ...valid, grant_type: 'password' }), [400, 'unsupported_grant_type']);
    assert.deepEqual(await errorOf({ grant_type: 'authorization_code', code }), [400, 'invalid_request']);
    assert.deepEqual(await errorOf({ ...valid, client_id: `${clientId}x` }), [401, 'invalid_client']);
    assert.deepEqual(await errorOf({ ...valid, code_verifier: randomBytes(32).toString('base64url') }), [400, 'invalid_grant']);
    assert.deepEqual(await errorOf({ ...valid, redirect_uri: 'http://127.0.0.1:2/callback' }), [400, 'invalid_grant']);
    assert.deepEqual(await errorOf({ ...valid, code: `${code}x` }), [400, 'invalid_grant']);
    assert.equal((await fetch(`${site.home}/cms-admin/authorize-application/token`)).status, 405);

    const first = await exchange(site, valid);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('cache-control'), 'no-store');
    const { access_token, token_type } = (await first.json()) as { access_token: string; token_type: string };
    assert.equal(token_type, 'Bearer');
    const listTools = () =>
      fetch(mcpUrl(site), {
        method: 'POST',
        headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
    assert.equal((await listTools()).status, 200);
    assert.deepEqual(await errorOf(valid), [400, 'invalid_grant']);
    assert.equal((await listTools()).status, 401);
  });

  test('the authorization page: an unknown client is told to the user, a request without PKCE goes back as invalid_request, a refusal as access_denied', async () => {
    const subscriber = await userAuth(site, 'subscriber');
    const unknown = await fetch(`${site.home}/cms-admin/authorize-application?response_type=code&client_id=nobody&redirect_uri=${encodeURIComponent(REDIRECT)}`, { redirect: 'manual' });
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /The application is not registered with this site \(unknown client_id\)\./);

    const { url } = await codeFor(site, subscriber);
    const withoutPkce = new URL(url);
    withoutPkce.searchParams.delete('code_challenge');
    const back = await fetch(withoutPkce, { redirect: 'manual' });
    assert.equal(back.status, 302);
    const to = new URL(back.headers.get('location')!);
    assert.deepEqual([to.searchParams.get('error'), to.searchParams.get('state')], ['invalid_request', 's']);

    const rejected = await decide(url, subscriber, 'reject');
    assert.deepEqual([rejected.origin + rejected.pathname, rejected.searchParams.get('error'), rejected.searchParams.get('state')], [REDIRECT, 'access_denied', 's']);
  });

  test('registration takes redirect URIs as the authorization page takes them', async () => {
    const register = (body: unknown) => fetch(`${site.home}/cms-admin/authorize-application/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const insecure = await register({ redirect_uris: ['http://agent.example/callback'] });
    assert.equal(insecure.status, 400);
    assert.deepEqual(await insecure.json(), { error: 'invalid_redirect_uri', error_description: 'http://agent.example/callback: The URL must be served over a secure connection.' });
    assert.equal(((await (await register({})).json()) as { error: string }).error, 'invalid_redirect_uri');
    assert.equal(((await (await register('text')).json()) as { error: string }).error, 'invalid_client_metadata');
    const app = await register({ client_name: 'Desktop', redirect_uris: ['myapp://callback'], token_endpoint_auth_method: 'client_secret_post' });
    assert.equal(app.status, 201);
    const body = (await app.json()) as Record<string, unknown>;
    assert.deepEqual({ ...body, client_id: typeof body.client_id, client_id_issued_at: typeof body.client_id_issued_at }, {
      client_id: 'string',
      client_id_issued_at: 'number',
      client_name: 'Desktop',
      redirect_uris: ['myapp://callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
});
