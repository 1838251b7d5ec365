import { Command, Option } from 'commander';

// Each command loads its own module when it runs, so `lint` and `routes` never load the server.
import { registerSeedCommand } from './seed.ts';
import { registerUserCommands } from './users.ts';
import { registerPostCommands } from './posts.ts';
import { registerOptionCommands } from './options.ts';
import { registerCacheCommands } from './cache.ts';
import { LOG_FORMATS } from './access-log.ts';

const program = new Command('cms-spec').description('Spec-first server for WordPress-style REST interfaces').showHelpAfterError();

const specOption = () => new Option('--spec <dir>', 'spec folder').env('CMS_SPEC_SPEC').default('spec');
const variantOption = () => new Option('--variant <a|b>', 'which variant of the route index to serve').env('CMS_SPEC_VARIANT').choices(['a', 'b', 'A', 'B']).default('a');

program
  .command('serve')
  .description('serve the API and the site')
  .addOption(new Option('--port <port>', 'port to listen on').env('CMS_SPEC_PORT').default('8080'))
  .addOption(new Option('--host <host>', 'address to listen on').env('CMS_SPEC_HOST').default('127.0.0.1'))
  .addOption(variantOption())
  .addOption(specOption())
  .addOption(new Option('--db <path>', 'SQLite database file (:memory: allowed)').env('CMS_SPEC_DB').default('.cms/site.sqlite'))
  .addOption(new Option('--url <url>', "the site's address when the database is new (default: the listen address)").env('CMS_SPEC_URL'))
  .addOption(new Option('--body-limit <bytes>', 'largest request body accepted').env('CMS_SPEC_BODY_LIMIT').default(String(1024 * 1024)))
  .addOption(new Option('--log-format <format>', 'access and server log: pretty (default on a terminal), json, or off (default otherwise)').env('CMS_SPEC_LOG_FORMAT').choices([...LOG_FORMATS]))
  .action(async (o) => (await import('./serve.ts')).serveCommand(o));

program
  .command('lint')
  .description('check the spec against its schema, its handlers and the lint rules')
  .addOption(specOption())
  .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
  .action(async (o) => (await import('./lint.ts')).lintCommand(o));

program
  .command('routes')
  .description('list the routes of a variant')
  .addOption(specOption())
  .addOption(variantOption())
  .action(async (o) => (await import('./routes.ts')).routesCommand(o));

registerSeedCommand(program);
registerUserCommands(program);
registerPostCommands(program);
registerOptionCommands(program);
registerCacheCommands(program);

await program.parseAsync(process.argv);
