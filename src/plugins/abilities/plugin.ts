import { definePlugin, type PluginDefinition } from '../../core/plugin.ts';
import { McpEndpoint } from './mcp.ts';
import { mcpCommand } from './cli.ts';

/**
 * The Abilities API (WordPress 6.9's wp-abilities/v1, served at cms-abilities/v1): named actions
 * with input and output schemas, for AI agents and automation. They are not written here but
 * declared in the spec: any endpoint with an `ability:` block is one, its input schema its args,
 * its output schema its declared `response`; running one runs the endpoint as the caller.
 */
export const abilities: PluginDefinition = definePlugin({
  name: 'abilities',
  title: 'Abilities',
  version: '1.0.0',
  description: 'Lists the actions the site’s endpoints offer to agents, with their schemas, and runs them as the caller.',
  author: 'cms-spec',
  namespaces: ['cms-abilities/v1'],
  // the abilities as MCP tools: over streamable HTTP at {api root}/mcp, and over stdio (`cms-spec mcp`)
  mounts: (engine) => [new McpEndpoint(engine)],
  cli: mcpCommand,
});

export default abilities;
