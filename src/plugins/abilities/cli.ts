import { toUser } from '../../auth/users.ts';
import type { PluginCli } from '../../core/plugin.ts';
import { announceToolChanges, createMcpServer } from './mcp.ts';

/** How often the stdio server looks for what other processes changed while no request comes. */
const SYNC_INTERVAL_MS = 1000;

/**
 * `cms-spec mcp --user NAME`: the site's abilities as MCP tools over stdio, for a local client
 * (Claude Desktop, VS Code) that starts it, acting as that user. Nothing but the protocol goes
 * to stdout; the site's log goes to stderr. It ends when the client closes stdin. A plugin
 * (de)activated by another process is seen within a second, and the client told (list_changed).
 */
export function mcpCommand(cli: PluginCli): void {
  cli
    .command('mcp', 'serve the site’s abilities as MCP tools over stdio, acting as a user')
    .requiredOption('--user <user>', 'act as this user (login, email or ID)')
    .action(
      cli.withSite(async ({ engine, site, store }, o: { user: string }) => {
        const row = await cli.userNamed(store, o.user);
        const server = await createMcpServer(engine, {
          // the user's role as it is now, as the HTTP server reads it at each request
          userOf: () => toUser(row, site.roles),
          beforeRequest: () => site.shared.sync(),
        });
        announceToolChanges(engine, () => [server]);
        // another process (the server, `cms-spec plugin`) may (de)activate a plugin while the client only listens:
        // a look at the shared state each second tells it without a request (on SQLite one PRAGMA, unless another connection committed)
        const watching = setInterval(() => void site.shared.sync()?.catch((e: unknown) => console.error(`[cms-spec] ${e instanceof Error ? e.message : String(e)}`)), SYNC_INTERVAL_MS);
        const closed = new Promise<void>((resolve) => (server.onclose = resolve)).finally(() => clearInterval(watching));
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        await server.connect(new StdioServerTransport());
        process.stdin.once('end', () => void server.close());
        await closed;
      }),
    );
}
