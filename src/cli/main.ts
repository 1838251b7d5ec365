import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';

// Each command loads its own module when it runs, so `lint` and `routes` never load the server.
import { registerSeedCommand } from './seed.ts';
import { registerUserCommands } from './users.ts';
import { registerPostCommands } from './posts.ts';
import { registerOptionCommands } from './options.ts';
import { registerCacheCommands } from './cache.ts';
import { registerPluginCommands, registerPluginProvidedCommands } from './plugins.ts';
import { registerTransferCommands } from './transfer.ts';
import { registerCronCommands } from './cron.ts';
import { registerOpenApiCommand } from './openapi.ts';
import { LOG_FORMATS } from './access-log.ts';
import { action, positiveInt } from './errors.ts';
import type { NewPluginOptions } from './new-plugin.ts';
import { isWorker } from './workers.ts';
import { dbOption, defaultSpecDir, PACKAGE_SPEC, packageSpecNotice, specOption, variantOption } from './site-store.ts';

// src/cli/main.ts and dist/cli/main.js both sit two folders below package.json
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const program = new Command('cms-spec').description('Spec-first server for WordPress-style REST interfaces').version(version).showHelpAfterError();

program
  .command('serve')
  .description('serve the API and the site')
  .addOption(new Option('--port <port>', 'port to listen on').env('CMS_SPEC_PORT').default('8080'))
  .addOption(new Option('--host <host>', 'address to listen on').env('CMS_SPEC_HOST').default('127.0.0.1'))
  .addOption(variantOption())
  .addOption(specOption())
  .addOption(new Option('--db <path|url>', 'SQLite database file (:memory: allowed), or a postgres://user@host:port/db URL').env('CMS_SPEC_DB').default('.cms/site.sqlite'))
  .addOption(new Option('--db-pool <n>', 'connections of the PostgreSQL pool (per worker)').env('CMS_SPEC_DB_POOL').default('10').argParser(positiveInt('--db-pool')))
  .addOption(new Option('--workers <n>', 'processes serving on the same port and database (node:cluster)').env('CMS_SPEC_WORKERS').default('1').argParser(positiveInt('--workers')))
  .addOption(new Option('--url <url>', "the site's address when the database is new (default: the listen address)").env('CMS_SPEC_URL'))
  .addOption(new Option('--body-limit <bytes>', 'largest request body accepted').env('CMS_SPEC_BODY_LIMIT').default(String(1024 * 1024)))
  .addOption(new Option('--uploads <dir>', 'folder of the media library\'s files (default: uploads beside the database)').env('CMS_SPEC_UPLOADS'))
  .addOption(new Option('--upload-limit <bytes>', 'largest media upload, and largest remote image imported').env('CMS_SPEC_UPLOAD_LIMIT').default(String(32 * 1024 * 1024)))
  .addOption(new Option('--header-timeout <ms>', "a client's time to send a request's headers").env('CMS_SPEC_HEADER_TIMEOUT_MS').default('10000').argParser(positiveInt('--header-timeout')))
  .addOption(new Option('--request-timeout <ms>', "a client's time to send a whole request").env('CMS_SPEC_REQUEST_TIMEOUT_MS').default('60000').argParser(positiveInt('--request-timeout')))
  .addOption(new Option('--keep-alive-timeout <ms>', 'how long an idle connection stays open').env('CMS_SPEC_KEEP_ALIVE_TIMEOUT_MS').default('5000').argParser(positiveInt('--keep-alive-timeout')))
  .addOption(new Option('--shutdown-timeout <ms>', 'on SIGINT/SIGTERM, how long requests in flight may finish before their connections are closed').env('CMS_SPEC_SHUTDOWN_TIMEOUT_MS').default('10000').argParser(positiveInt('--shutdown-timeout')))
  .addOption(new Option('--log-format <format>', 'access and server log: pretty (default on a terminal), json, or off (default otherwise)').env('CMS_SPEC_LOG_FORMAT').choices([...LOG_FORMATS]))
  .option('--watch', 'reload the spec, its handler modules and the plugin folders when they change, without a restart')
  .addOption(new Option('--smtp <url>', "the SMTP server the site's mail goes through, smtp://user:password@host:587 or smtps://… (default: written to the server log)").env('CMS_SPEC_SMTP_URL'))
  .addOption(new Option('--wp-compat <on|off>', "also answer at WordPress's address, /wp-json/ with wp/v2 (default on, or CMS_SPEC_WP_COMPAT)").choices(['on', 'off']))
  .addOption(new Option('--response-cache <on|off>', 'keep anonymous GET answers of the API until what they read changes').env('CMS_SPEC_RESPONSE_CACHE').choices(['on', 'off']).default('on'))
  .addOption(new Option('--cache <url>', 'a redis:// URL where the instances of the site share the response cache').env('CMS_SPEC_CACHE'))
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
  .option('--namespace <ns>', 'only the routes of this namespace (and its index route)')
  .addOption(new Option('--format <format>', 'text: one endpoint a line; markdown: one route a row with its methods and what it follows').choices(['text', 'markdown']).default('text'))
  .action(async (o) => (await import('./routes.ts')).routesCommand(o));

program
  .command('types')
  .description("write the TypeScript types of every handler's args and answer, generated from the spec")
  .addOption(specOption())
  .option('--out <file>', 'the generated module', 'src/generated/endpoints.ts')
  .option('--check', 'write nothing; fail when the file is not what the spec generates now (CI)')
  .action(async (o) => (await import('./types.ts')).typesCommand(o));

program
  .command('new')
  .description('scaffold part of a site')
  .command('plugin <name>')
  .description('a plugin (definition, migration, handlers, namespace NAME/v1, test), active on the site of --db')
  .addOption(specOption())
  .addOption(dbOption())
  .addOption(variantOption())
  .action(action((_name: string, o: NewPluginOptions) => o, async (name: string, o: NewPluginOptions) => (await import('./new-plugin.ts')).newPluginCommand(name, o)));

program
  .command('init <folder>')
  .description('a new API project served by the engine alone (no CMS): spec, handlers, a test, a README')
  .option('--cms-spec <dependency>', 'how its package.json names cms-spec (default: file: this package)')
  .action(action((_folder: string, _o: { cmsSpec?: string }) => ({}), async (folder: string, o: { cmsSpec?: string }) => (await import('./init.ts')).initCommand(folder, o)));

registerSeedCommand(program);
registerUserCommands(program);
registerPostCommands(program);
registerOptionCommands(program);
registerCacheCommands(program);
registerPluginCommands(program);
registerTransferCommands(program);
registerCronCommands(program);
registerOpenApiCommand(program);

program
  .command('docs')
  .description('write a browsable HTML reference of every namespace of the spec: routes, methods, args, permissions, errors, an example request')
  .addOption(specOption())
  .addOption(variantOption())
  .option('--out <dir>', 'folder of the pages (index.html, one page per namespace)', 'api-docs')
  .option('--url <url>', 'the API root the example requests call', 'http://127.0.0.1:8080/cms-json/')
  .action(async (o) => (await import('./docs.ts')).docsCommand(o));

// The plugins' own commands are read only when the command line names none of the core's (or asks for help).
const asked = process.argv[2];
if (asked === undefined || !program.commands.some((c) => c.name() === asked || c.aliases().includes(asked))) {
  await registerPluginProvidedCommands(program, valueOf('--spec') ?? process.env.CMS_SPEC_SPEC ?? defaultSpecDir());
}

// a command run outside a project says once which spec it took (a serve worker leaves it to the primary)
program.hook('preAction', (_program, command) => {
  if (command.getOptionValueSource('spec') === 'default' && command.opts().spec === PACKAGE_SPEC && !isWorker()) console.error(packageSpecNotice());
});

await program.parseAsync(process.argv);

/** An option's value from the command line before commander has parsed it (`--spec dir` or `--spec=dir`). */
function valueOf(flag: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(flag);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
}
