// Which test files run where, by name, reviewed rather than guessed from what a file imports
// (run-tests.js; docs/testing.md says which to run when). A path is a file or a folder under test/;
// a file takes the most specific path that names it.

/**
 * `npm run test:quick`: the engine, lint and unit tests that start no server, no browser and no
 * database, for the edit-test loop (under 90 s on two cores).
 */
export const QUICK = [
  'test/docs-links.test.ts',
  'test/lint.test.ts',
  'test/core/boundary.test.ts',
  'test/engine/invalid-param.test.ts',
  'test/engine/lint-rules.test.ts',
  'test/engine/quick-args.test.ts',
  'test/engine/schema-args.test.ts',
  'test/engine/spec-said-once.test.ts',
  'test/engine/spec-table-snapshot.test.ts',
  'test/net/addresses.test.ts',
  'test/net/fetch-errors.test.ts',
  'test/net/guarded-fetch.test.ts',
  'test/format/format.test.ts',
  'test/format/kses.test.ts',
  'test/format/esc-url.test.ts',
  'test/format/shortcodes.test.ts',
  'test/format/text-filters.test.ts',
  'test/format/strnatcmp.test.ts',
  'test/store/read-cache.test.ts',
  'test/store/sqlite-statements.test.ts',
];

/**
 * The PostgreSQL pass: files whose behaviour depends on the store, each with why. Every file runs
 * on SQLite; these run again on PostgreSQL, where SQL, transactions, dates, text and concurrency
 * differ.
 */
export const ON_POSTGRES = [
  ['test/store', 'the store itself: repositories, transactions, crash safety, caches, install, seed and transfer'],
  ['test/cms-v2', 'content written and queried through the API: posts, search ranking, comments, users, media, menus, revisions, meta'],
  ['test/fuzz', 'hostile values reach the store (PostgreSQL refuses NUL in text), and nothing stored may change'],
  ['test/auth/app-passwords.test.ts', 'application passwords are stored, looked up and used'],
  ['test/auth/oauth.test.ts', 'authorization codes and tokens are stored and expire'],
  ['test/admin/cookie-auth.test.ts', 'sessions are stored and expire'],
  ['test/admin/mail.test.ts', 'reset keys are stored and expire'],
  ['test/site/archives.test.ts', 'date archives group posts with the dialect’s date functions'],
  ['test/site/comments.test.ts', 'comments are stored, threaded and moderated'],
  ['test/site/feeds.test.ts', 'feeds query the newest posts and comments'],
  ['test/site/hierarchy.test.ts', 'the template hierarchy looks posts, terms and authors up'],
  ['test/site/kept-renderings.test.ts', 'rendered content is kept in the store and invalidated'],
  ['test/site/embeds.test.ts', 'embed answers are cached in post meta and refreshed on save'],
  ['test/site/pages.test.ts', 'pages query posts, terms and paging'],
  ['test/site/sitemap-xml.test.ts', 'sitemaps page through every public object'],
  ['test/cli/content-commands.test.ts', 'the CLI writes and reads content on a database'],
  ['test/cli/cron.test.ts', 'scheduled events are stored and claimed'],
  ['test/cli/one-site-two-processes.test.ts', 'two processes write one database'],
  ['test/cli/transfer.test.ts', 'a site is exported from one database and imported into another'],
  ['test/core/plugins.test.ts', 'activation state and plugin migrations are stored'],
  ['test/core/scheduler.test.ts', 'scheduled events are stored, claimed and survive a restart'],
  ['test/engine/batch.test.ts', 'a batch runs its requests in one transaction'],
  ['test/engine/response-cache.test.ts', 'the cache sees changes another process makes to the database'],
  ['test/plugins/block-queries', 'queries over posts, terms and meta'],
  ['test/plugins/code-snippets', 'snippets are stored, activated and exported'],
  ['test/plugins/seo', 'indexables are built, stored and queried'],
  ['test/plugins/site-analytics', 'page views are counted in the store'],
  ['test/plugins/site-health', 'the health checks write to and measure the database'],
  ['test/import', 'a WordPress export is written into the store in transactions, resumed and counted'],
  ['test/cms-v2/theme-blocks.test.ts', 'reusable blocks, template parts and the logo are read from the store'],
  ['test/cms-v2/widget-group-blocks.test.ts', 'the blocks render in a stored post’s content'],
  ['test/cms-v2/legacy-comment-blocks.test.ts', 'a stored post’s comment status and comments decide what renders'],
];

/**
 * Files that start a server or open a database, yet whose behaviour does not depend on which
 * store it is (a browser, an HTTP protocol, a client library, a remote service, the CLI's own
 * behaviour, an index or a schema): SQLite only. A file that starts a server must be in one list
 * or the other (run-tests.js refuses to guess).
 */
export const SQLITE_ONLY = [
  ['test/bench-smoke.test.ts', 'runs the benchmark, whose PostgreSQL scenarios it runs itself'],
  ['test/bench-wp-smoke.test.ts', 'compares with WordPress: the benchmark harness'],
  ['test/admin/admin-browser.test.ts', 'the admin in a browser'],
  ['test/auth/authorize-page.test.ts', 'the authorization page in a browser'],
  ['test/auth/core-data-client.test.ts', 'the block editor’s client library against the index'],
  ['test/auth/permissions.test.ts', 'who may call what: roles and capabilities, the same code on any store'],
  ['test/auth/wpapi-client.test.ts', 'the wpapi client library against the index'],
  ['test/auth/wpapi-wp-json.test.ts', 'the wpapi client library at /wp-json/'],
  ['test/site/comments-browser.test.ts', 'the comment form in a browser'],
  ['test/format/formatting.test.ts', 'WordPress’s formatting of content'],
  ['test/site/block-supports.test.ts', 'the block supports’ rendering, the same on any store'],
  ['test/site/rest-links.test.ts', 'the REST links of the site’s pages'],
  ['test/site/theme.test.ts', 'the theme in a browser'],
  ['test/site/test-content-render.test.ts', 'WordPress’s test content imported and rendered, in a browser'],
  ['test/cli', 'the CLI’s own behaviour: commands, docs, types, serve, watch, init, the walk-through'],
  ['test/core/boundary.test.ts', 'reads the sources (it imports the server helper for the checkout’s path); starts nothing'],
  ['test/core/namespace-order.test.ts', 'the index’s namespace order'],
  ['test/core/plugins-cli.test.ts', 'the plugin commands’ output and errors; the activation state they change is stored as test/core/plugins.test.ts checks on both stores'],
  ['test/core/answer-fragments.test.ts', 'which callers a kept fragment is given to: capabilities and identity, the same on any store (its staleness after writes runs on both in test/engine/response-cache.test.ts)'],
  ['test/store/read-cache.test.ts', 'the read cache in memory: no database'],
  ['test/store/sqlite-statements.test.ts', 'how statements run on SQLite: its sampled statistics and better-sqlite3’s rows'],
  ['test/store/postgres-statements.test.ts', 'how statements run on PostgreSQL, which it uses whichever store the run tests'],
  ['test/engine', 'the HTTP engine: args, headers, compression, slow clients, lint, the spec and its index'],
  ['test/net', 'outbound HTTP through the guarded client'],
  ['test/scripts/run-tests.test.ts', 'runs the runner on files of its own (one names the server helper), starts no server'],
  ['test/cms-v2/block-types.test.ts', 'the block registry, not stored'],
  ['test/cms-v2/index-parity.test.ts', 'the served index against WordPress’s'],
  ['test/cms-v2/themes.test.ts', 'the theme’s files'],
  ['test/cms-v2/types-parity.test.ts', 'the type and taxonomy registries against WordPress’s'],
  ['test/plugins/abilities', 'the abilities and MCP protocols over the routes'],
  ['test/plugins/block-editor', 'the block editor’s settings and assets'],
  ['test/plugins/design-library', 'a remote design library service (a local fake)'],
  ['test/plugins/dynamic-content', 'rendering a post’s fields'],
  ['test/plugins/image-picker', 'remote images (a local fake)'],
  ['test/plugins/lottie', 'animation files'],
  ['test/plugins/mail-connectors', 'remote mail providers (local fakes)'],
  ['test/plugins/oembed', 'remote oEmbed providers (local fakes)'],
  ['test/plugins/vectors', 'SVG files'],
  ['test/core/decode-and-clamp.test.ts', 'reads the sources and runs two pure helpers (it imports the server helper for the checkout’s path); starts nothing'],
  ['test/scripts/services.test.ts', 'runs a test file of its own to see a missing service reported; starts no server'],
  ['test/site/global-styles.test.ts', 'the global stylesheet from the theme and one stored settings object (the stored part runs on PostgreSQL in test/cms-v2/themes.test.ts)'],
  ['test/site/site-icon.test.ts', 'the icon’s tags and the index, from options and an upload'],
  // in folders that run on PostgreSQL, files whose behaviour is the same on any store
  ['test/cms-v2/errors-parity.test.ts', 'WordPress’s error bodies for bad args, refused before any query'],
  ['test/cms-v2/kses.test.ts', 'what kses keeps of an author’s markup, filtered before it is stored'],
  ['test/cms-v2/link-rel-filters.test.ts', 'the save-time link filters and comment_text, applied to the text before it is stored'],
  ['test/cms-v2/rss-block.test.ts', 'a remote feed (a local fake) rendered by the RSS block'],
  ['test/cms-v2/social-blocks.test.ts', 'the Social Icons blocks rendered from their attributes'],
  ['test/cms-v2/statuses.test.ts', 'the status registry, not stored'],
  ['test/fuzz/planted.test.ts', 'the fuzz finds failures planted in routes of its own, which store nothing'],
  ['test/import/wxr-parser.test.ts', 'parses WXR files; stores nothing'],
  ['test/plugins/code-snippets/export.test.ts', 'the export bundle’s format, from snippets the API tests store on both stores'],
  ['test/plugins/code-snippets/validation.test.ts', 'each language’s code checked before it is stored'],
  ['test/plugins/seo/analysis.test.ts', 'the SEO and readability analysis of texts'],
  ['test/plugins/seo/configuration.test.ts', 'settings kept as options, whose storage test/store tests on both stores'],
  ['test/plugins/seo/integrations-ai.test.ts', 'a remote AI service (a local fake)'],
  ['test/plugins/seo/keyword-tool.test.ts', 'a remote keyword service (a local fake)'],
  ['test/plugins/seo/rank-tracker.test.ts', 'a remote rank-tracking service (a local fake)'],
];

/**
 * The files that take longest, longest first (seconds from the per-file lines of `.ci/run` on a
 * quiet two-core machine, 2026-11-29): the runner starts them first, so that the two files running
 * at once at the end of a pass are short ones rather than one worker finishing the route fuzz
 * alone for minutes. Files not named here follow in path order. A rough order is enough; re-sort
 * when a file's time changes much.
 */
export const LONGEST_FIRST = [
  'test/bench-smoke.test.ts', // 125 s (its rounds mostly wait on autocannon's one-second floor)
  'test/fuzz/routes.test.ts', // 69 s SQLite, 99 s PostgreSQL
  'test/admin/admin-browser.test.ts', // 53 s
  'test/cli/docs-commands.test.ts', // 37 s
  'test/cli/content-commands.test.ts', // 35 s on each store
  'test/store/instances.test.ts', // 33 s
  'test/import/wxr-import.test.ts', // 20 s SQLite, 30 s PostgreSQL
  'test/cli/transfer.test.ts', // 27 s
  'test/engine/response-cache.test.ts', // 22 s, 25 s PostgreSQL
  'test/import/rest-import.test.ts', // 16 s, 22 s PostgreSQL
  'test/cli/serve.test.ts', // 21 s
  'test/bench-wp-smoke.test.ts', // 17 s
  'test/fuzz/permissions.test.ts', // 12 s, 18 s PostgreSQL
  'test/import/wxr-export.test.ts', // 9 s, 16 s PostgreSQL
  'test/plugins/abilities/mcp.test.ts', // 13 s
  'test/site/test-content-render.test.ts', // 13 s without screenshots
  'test/cli/new-plugin.test.ts', // 13 s
  'test/net/fail-fast.test.ts', // 13 s
  'test/cli/one-site-two-processes.test.ts', // 13 s
  'test/core/plugins-cli.test.ts', // 12 s
  'test/core/scheduler.test.ts', // 11 s, 12 s PostgreSQL
  'test/plugins/site-health/site-health.test.ts', // 10 s, 13 s PostgreSQL
];

/** The files in the order the runner starts them: LONGEST_FIRST's first, then the others in path order. */
export function longestFirst(files) {
  const rank = (f) => {
    const i = LONGEST_FIRST.indexOf(f);
    return i === -1 ? LONGEST_FIRST.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The entry of a list that names a file most specifically, or undefined. */
function entryOf(list, file) {
  const matches = list.filter(([path]) => file === path || file.startsWith(`${path}/`));
  return matches.sort((a, b) => b[0].length - a[0].length)[0];
}

/** Where a file (a path relative to the checkout, `test/...`) runs besides SQLite: 'postgres', 'sqlite' (only), or undefined when neither list names it. */
export function storePassOf(file) {
  const pg = entryOf(ON_POSTGRES, file);
  const sqlite = entryOf(SQLITE_ONLY, file);
  if (!pg && !sqlite) return undefined;
  if (!sqlite) return 'postgres';
  if (!pg) return 'sqlite';
  return pg[0].length >= sqlite[0].length ? 'postgres' : 'sqlite';
}

/** Paths of the lists that name no test file: a file renamed or removed since the lists were written. */
export function unmatchedPaths(files) {
  return [...QUICK, ...LONGEST_FIRST, ...ON_POSTGRES.map(([p]) => p), ...SQLITE_ONLY.map(([p]) => p)].filter((p) => !files.some((f) => f === p || f.startsWith(`${p}/`)));
}
