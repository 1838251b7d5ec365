import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CmsEngine as Engine } from '../../core/context.ts';
import { forbidden, invalidJson, type Mount, RestError, type User } from '../../engine/index.ts';
import { config } from '../../config.ts';
import { oauthIssuer } from '../../auth/oauth.ts';
import type { Store } from '../../store/index.ts';
import { mayRun, registryOf, runMethodOf, type Ability } from './registry.ts';

const NS = 'cms-abilities/v1';

/** The SDK loads at the first MCP session: every process that only finds the plugins (each CLI command) does without it. */
const protocol = () => import('@modelcontextprotocol/sdk/types.js');

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** An ability's name as an MCP tool's (which allow `[a-zA-Z0-9_-]`): `cms/list-posts` is `cms_list-posts`; ability names hold no `_`. */
export const toolName = (ability: string): string => ability.replaceAll('/', '_');

/** The abilities of the routes served now. */
const served = (engine: Engine): Ability[] => registryOf(engine.spec, engine.served).abilities;

/** An ability as a tool; MCP takes only an object schema as a tool's output schema. */
function toolOf(a: Ability): Tool {
  const output = a.outputSchema;
  return {
    name: toolName(a.name),
    title: a.label,
    description: a.description,
    inputSchema: a.inputSchema as Tool['inputSchema'],
    ...(!Array.isArray(output) && output.type === 'object' ? { outputSchema: output as Tool['outputSchema'] } : {}),
    annotations: { title: a.label, readOnlyHint: a.annotations.readonly, destructiveHint: a.annotations.destructive, idempotentHint: a.annotations.idempotent, openWorldHint: false },
  };
}

/**
 * Runs a tool as `abilities/{name}/run` runs its ability, in-process as the caller: the same
 * checks of its input and permission, the endpoint's own checks after them. A WordPress error is
 * the tool's error (`code: message`), not a protocol error: the agent reads it and may retry.
 */
async function callTool(engine: Engine, user: User, name: string, input: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const a = served(engine).find((x) => toolName(x.name) === name);
  if (!a) {
    const { ErrorCode, McpError } = await protocol();
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  }
  const store = engine.store as Store;
  const res = await engine.subRequest(runMethodOf(a), `/${NS}/abilities/${a.name}/run`, { input: input ?? {} }, user, store);
  // what the tool wrote is durable before it is reported, as the HTTP server's answers wait (Store.durable)
  await store.durable();
  if (res.status >= 400) {
    const error = res.data as { code?: string; message?: string };
    return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
  }
  const result: CallToolResult = { content: [{ type: 'text', text: JSON.stringify(res.data) }] };
  if (toolOf(a).outputSchema) result.structuredContent = res.data as Record<string, unknown>;
  return result;
}

const CONTENT_NS = 'cms/v2';
/** A post or a page as a resource: `cms://posts/{id}`, `cms://pages/{id}`, read at the REST route of the same name. */
const CONTENT_URI = /^cms:\/\/(posts|pages)\/(\d+)$/;
const RESOURCE_TEMPLATES = [
  { uriTemplate: 'cms://posts/{id}', name: 'post', title: 'A post', description: 'A post as the REST API shows it to you (cms/v2/posts/{id}).', mimeType: 'application/json' },
  { uriTemplate: 'cms://pages/{id}', name: 'page', title: 'A page', description: 'A page as the REST API shows it to you (cms/v2/pages/{id}).', mimeType: 'application/json' },
];
const RESOURCES_PER_PAGE = 100;

/** The posts and pages the caller may read, a page of them at a time (the cursor is the page number), as the site search finds them. */
async function listResources(engine: Engine, user: User, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }> {
  if (!engine.namespaces.includes(CONTENT_NS)) return { resources: [] };
  const page = cursor === undefined ? 1 : Number(cursor);
  if (!Number.isInteger(page) || page < 1) {
    const { ErrorCode, McpError } = await protocol();
    throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  }
  const res = await engine.subRequest('GET', `/${CONTENT_NS}/search`, { type: 'post', subtype: 'post,page', per_page: RESOURCES_PER_PAGE, page }, user, engine.store);
  if (res.status >= 400) return { resources: [] };
  const found = res.data as { id: number; title: string; subtype: string }[];
  const resources = found.map((x) => ({ uri: `cms://${x.subtype}s/${x.id}`, name: x.title, mimeType: 'application/json' }));
  return found.length === RESOURCES_PER_PAGE ? { resources, nextCursor: String(page + 1) } : { resources };
}

/** A post or page read as the caller: what they may not read is an error with the API's code and message, as for tools. */
async function readResource(engine: Engine, user: User, uri: string) {
  const { McpError } = await protocol();
  const [, type, id] = CONTENT_URI.exec(uri) ?? [];
  if (!type || !engine.namespaces.includes(CONTENT_NS)) throw new McpError(-32002, `Resource not found: ${uri}`);
  const res = await engine.subRequest('GET', `/${CONTENT_NS}/${type}/${id}`, {}, user, engine.store);
  if (res.status >= 400) {
    const error = res.data as { code?: string; message?: string };
    throw new McpError(-32002, `${error.code}: ${error.message}`, { uri });
  }
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(res.data) }] };
}

export interface McpServerOptions {
  /** The caller of each request: the one user of a stdio connection, the authenticated one over HTTP. */
  userOf(auth: AuthInfo | undefined): User;
  /** Run before each request, to catch up with what other processes changed (the HTTP server does it for its own). */
  beforeRequest?: () => Promise<void> | undefined;
}

/**
 * An MCP server over the site's abilities, for one connection: `tools/list` shows the abilities
 * the caller may run (their endpoints' permissions), `tools/call` runs one; the posts and pages
 * the caller may read are its resources.
 */
export async function createMcpServer(engine: Engine, o: McpServerOptions): Promise<Server> {
  const [{ Server }, { CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    protocol(),
  ]);
  const server = new Server({ name: 'cms-spec', version }, { capabilities: { tools: { listChanged: true }, resources: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (_, extra) => {
    await o.beforeRequest?.();
    const user = o.userOf(extra.authInfo);
    return { tools: served(engine).filter((a) => mayRun(a, (cap) => user.caps.has(cap))).map(toolOf) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await o.beforeRequest?.();
    return callTool(engine, o.userOf(extra.authInfo), request.params.name, request.params.arguments);
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    await o.beforeRequest?.();
    return listResources(engine, o.userOf(extra.authInfo), request.params?.cursor);
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    await o.beforeRequest?.();
    return readResource(engine, o.userOf(extra.authInfo), request.params.uri);
  });
  return server;
}

/** Tells each server that the tools changed whenever the abilities served do (a plugin with abilities (de)activated). */
export function announceToolChanges(engine: Engine, servers: () => Iterable<Server>): void {
  const namesNow = () => served(engine).map((a) => a.name).join(' ');
  let names = namesNow();
  engine.onChange(() => {
    const now = namesNow();
    if (now === names) return;
    names = now;
    for (const s of servers()) s.sendToolListChanged().catch(() => {});
  });
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  userId: number;
}

const rpcError = (res: ServerResponse, status: number, message: string): void => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
};

/**
 * MCP's streamable HTTP transport at `/mcp` under the API root (CMS_SPEC_MCP_PATH): every request
 * authenticated (an application password over HTTP Basic, or an OAuth bearer token made from one:
 * it is a protected resource of the site's authorization server, src/auth/oauth.ts; anonymous
 * callers get WordPress's 401 and nothing runs), a browser's Origin accepted only when it is the
 * site's own (DNS rebinding), a session per `initialize` (`Mcp-Session-Id`), kept for the user
 * who opened it and closed by DELETE.
 */
export class McpEndpoint implements Mount {
  readonly path = config().mcpPath;
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly engine: Engine) {
    announceToolChanges(engine, () => [...this.sessions.values()].map((s) => s.server));
  }

  /** RFC 9728: the site is its authorization server; tokens go in the Authorization header. */
  resourceMetadata(resource: string): Record<string, unknown> {
    return { resource, authorization_servers: [oauthIssuer(this.engine.site)], bearer_methods_supported: ['header'], resource_name: `${this.engine.site.info.name} (MCP)` };
  }

  async handle(req: IncomingMessage, res: ServerResponse, { user, body }: { user: User | null; body: Buffer }): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(this.engine.root.url).origin) throw new RestError('rest_forbidden_origin', 'Requests from other sites are not allowed.', 403);
    if (!user) throw forbidden(false);
    let message: unknown;
    try {
      message = body.length ? JSON.parse(body.toString('utf8')) : undefined;
    } catch (e) {
      throw invalidJson((e as Error).message);
    }
    const id = req.headers['mcp-session-id'];
    let session = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (typeof id === 'string' && session?.userId !== user.id) return rpcError(res, 404, 'Session not found');
    if (!session) {
      if (req.method !== 'POST' || !(await protocol()).isInitializeRequest(message)) return rpcError(res, 400, 'Bad Request: no session; initialize first');
      session = await this.open(user);
    }
    (req as IncomingMessage & { auth?: AuthInfo }).auth = { token: '', clientId: user.login, scopes: [], extra: { user } };
    await session.transport.handleRequest(req, res, message);
  }

  private async open(user: User): Promise<Session> {
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const session: Session = {
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void this.sessions.set(id, session),
        onsessionclosed: (id) => void this.sessions.delete(id),
      }),
      server: await createMcpServer(this.engine, { userOf: (auth) => auth!.extra!.user as User }),
      userId: user.id,
    };
    await session.server.connect(session.transport);
    return session;
  }

  /** Closes every session (their open streams), as the server stops. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((s) => s.server.close()));
  }
}
