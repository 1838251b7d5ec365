import { Option, type Command } from 'commander';
import type { EventRun, ScheduledEvent } from '../core/cron.ts';
import type { StartedSite } from '../core/open.ts';
import { offsetMinutes } from '../store/site-clock.ts';
import { sqlDate } from '../store/transact.ts';
import { CliError } from './errors.ts';
import { fieldsOption, LIST_FORMATS, plural, printRows, type ListFormat } from './output.ts';
import { siteCommand, stderrLog, withSite } from './site-store.ts';

/** wp-cli's cron event fields, and the ones `list` shows unless asked. */
const FIELDS = ['hook', 'next_run', 'next_run_gmt', 'next_run_relative', 'recurrence'];
const DEFAULT_FIELDS = ['hook', 'next_run_gmt', 'next_run_relative', 'recurrence'];

/** wp-cli's time chunks, largest first. */
const CHUNKS: [number, string][] = [
  [365 * 86400, 'year'],
  [30 * 86400, 'month'],
  [7 * 86400, 'week'],
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/** Cron_Event_Command::interval: a span in its two largest units ("1 day", "2 hours 30 minutes"), or "now". */
export function interval(seconds: number): string {
  if (seconds <= 0) return 'now';
  const i = CHUNKS.findIndex(([size]) => seconds >= size);
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const count = Math.floor(seconds / CHUNKS[i][0]);
  let out = part(count, CHUNKS[i][1]);
  const next = CHUNKS[i + 1];
  if (next) {
    const rest = Math.floor((seconds - count * CHUNKS[i][0]) / next[0]);
    if (rest) out += ` ${part(rest, next[1])}`;
  }
  return out;
}

/** An event as `wp cron event list` prints it: next run in the site's time and in GMT, how far off, and how often. */
function eventRow(started: StartedSite, e: ScheduledEvent, now: number): Record<string, string> {
  const { info, home } = started.site;
  const at = new Date(e.nextRun * 1000);
  const local = new Date(at.getTime() + offsetMinutes({ home, gmtOffsetHours: Number(info.gmt_offset) || 0, timezone: info.timezone_string }, at) * 60000);
  return {
    hook: e.hook,
    next_run: sqlDate(local),
    next_run_gmt: sqlDate(at),
    next_run_relative: interval(e.nextRun - now),
    recurrence: e.interval === null ? 'Non-repeating' : interval(e.interval),
  };
}


/** What a run printed: a line per event, then a total; failures are said and make the command fail. */
function report(runs: EventRun[]): void {
  for (const r of runs) if (!r.error) console.log(`Executed the cron event '${r.hook}' in ${(r.ms / 1000).toFixed(3)}s.`);
  const failed = runs.filter((r) => r.error);
  if (failed.length) throw new CliError(failed.map((r) => `The cron event '${r.hook}' failed: ${r.error}`).join('; '));
  console.log(`Success: Executed a total of ${plural(runs.length, 'cron event')}.`);
}

/**
 * `cms-spec cron list|run`, as wp-cli's `cron event list|run`: the site's scheduled events (the
 * core's and the active plugins' recurring jobs, and each scheduled post's publish_future_post),
 * and running them, through the same scheduler a serving instance keeps (each run claimed, so a
 * running server and this command never run one twice).
 */
export function registerCronCommands(program: Command): void {
  const cron = program.command('cron').description("list and run the site's scheduled events (WordPress's cron)");

  siteCommand(cron, 'list', 'list the scheduled events: hook, next run and recurrence')
    .option('--fields <fields>', `fields to show, comma-separated (${FIELDS.join(', ')})`)
    .addOption(new Option('--format <format>', 'output format').choices([...LIST_FORMATS]).default('table'))
    .action(
      withSite(async (started, o: { fields?: string; format: ListFormat }) => {
        let fields: string[];
        try {
          fields = fieldsOption(o.fields, DEFAULT_FIELDS, FIELDS);
        } catch (e) {
          throw new CliError((e as Error).message);
        }
        const { Scheduler } = await import('../core/cron.ts');
        const now = Math.floor(Date.now() / 1000);
        const events = await new Scheduler({ store: started.store, site: started.site, log: stderrLog }).events();
        printRows(events.map((e) => eventRow(started, e, now)), fields, o.format, 'hook');
      }),
    );

  siteCommand(cron, 'run [hooks...]', 'run the events due now, or the named hooks’ events now whether due or not')
    .action(
      withSite(async (started, hooks: string[]) => {
        const { Scheduler } = await import('../core/cron.ts');
        const scheduler = new Scheduler({ store: started.store, site: started.site, log: stderrLog });
        if (!hooks.length) return report(await scheduler.runDue());
        const scheduled = new Set((await scheduler.events()).map((e) => e.hook));
        const unknown = hooks.find((h) => !scheduled.has(h));
        if (unknown !== undefined) throw new CliError(`Invalid cron event '${unknown}' (\`cms-spec cron list\` shows the scheduled ones).`);
        const runs: EventRun[] = [];
        for (const hook of new Set(hooks)) runs.push(...(await scheduler.runNow(hook)));
        report(runs);
      }),
    );
}
