import { Option } from 'commander';
import type { CliSite, PluginCli } from '../../core/plugin.ts';
import { stripAllTags } from '../../format/format.ts';
import { TESTS } from './checks.ts';
import { p, type TestResult } from './result.ts';
import type { Site } from '../../core/site.ts';
import { directorySizes } from './sizes.ts';

const BLOCK_END = /<\/p>|<\/li>|<br>/;
/** What escapeHtml wrote into the results, back to text for a terminal. */
const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#039;': "'", '&amp;': '&' };

/** What a link tells a screen reader about the browser, meaningless in a terminal. */
const NEW_TAB = /<span class="screen-reader-text">\s*\(opens in a new tab\)<\/span>/g;
/** An icon with its name for screen readers (`Error`, `Passed`): the name, as a line's prefix. */
const ICON = /<span class="[^"]*"><span class="screen-reader-text">([^<]*)<\/span><\/span>\s*/g;
/** A link, which a terminal cannot follow: its text, then its address. */
const LINK = /<a href="([^"]*)"[^>]*>(.*?)<\/a>/g;

/** A result's HTML as indented lines of text: one per paragraph or list item. */
function plain(html: string): string {
  return html
    .replace(NEW_TAB, '')
    .replace(ICON, '$1: ')
    .replace(LINK, '$2: $1')
    .split(BLOCK_END)
    .map((part) => stripAllTags(part).replace(/&(?:lt|gt|quot|#039|amp);/g, (e) => ENTITIES[e]))
    .filter(Boolean)
    .map((line) => `  ${line}`)
    .join('\n');
}

/** The tests that need the internet, which `--offline` leaves out. */
const NETWORK_TESTS: ReadonlySet<string> = new Set(['dotorg-communication']);

/**
 * Where the site's mail goes, as this shell's settings say (CMS_SPEC_SMTP_URL; `serve --smtp`
 * sets it for that server alone): not one of WordPress's tests, which assumes a mail server, but
 * what someone setting up a site needs to hear before a password reset goes nowhere.
 */
function mailDelivery(site: Site): TestResult {
  const where = site.mail.destination;
  return where
    ? { label: `Mail is sent through ${where}`, status: 'good', badge: { label: 'Mail', color: 'blue' }, description: p(`Password resets, new-user welcomes and comment notices go to the SMTP server ${where}.`), actions: '', test: 'mail' }
    : {
        label: 'No SMTP server is configured: mail is written to the server log',
        status: 'recommended',
        badge: { label: 'Mail', color: 'blue' },
        description: p('Password resets, new-user welcomes and comment notices are written to the log of cms-spec serve instead of being sent, so nobody receives them.'),
        actions: p('Give the server an SMTP server: cms-spec serve --smtp smtp://user:password@mail.example.com:587, or the CMS_SPEC_SMTP_URL variable.'),
        test: 'mail',
      };
}

/** Runs every test beside the server and prints them (`cms-spec doctor`); exit code 1 when any is critical. */
async function doctor({ store, site }: CliSite, o: { format: 'table' | 'json'; offline?: boolean }): Promise<void> {
  const run = { store, site, where: 'cli' as const };
  const results: TestResult[] = [];
  for (const [name, test] of Object.entries(TESTS)) if (!(o.offline && NETWORK_TESTS.has(name))) results.push(await test(run));
  results.push(mailDelivery(site));
  const sizes = await directorySizes(run);
  if (o.format === 'json') console.log(JSON.stringify({ tests: results, sizes }));
  else {
    const rows = [['test', 'status', 'label'], ...results.map((r) => [r.test, r.status, r.label])];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    console.log(rows.map((row) => row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd()).join('\n'));
    for (const r of results.filter((x) => x.status !== 'good')) console.log(`\n${r.test} (${r.status}): ${r.label}\n${plain(r.description)}${r.actions ? `\n${plain(r.actions)}` : ''}`);
    console.log('');
    for (const [name, value] of Object.entries(sizes)) if (typeof value === 'object') console.log(`${name.replace(/_size$/, '').padEnd(9)} ${(value as { size: string }).size}`);
  }
  if (results.some((r) => r.status === 'critical')) process.exitCode = 1;
}

/** `cms-spec doctor`: the site health tests in a terminal. */
export function doctorCommand(cli: PluginCli): void {
  cli
    .command('doctor', 'run the site health tests against this site and print them (exit 1 on any critical result)')
    .addOption(new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'))
    .addOption(new Option('--offline', 'skip the tests that need the internet (the services your plugins use)'))
    .action(cli.withSite(doctor));
}
