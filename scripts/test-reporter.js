// node:test reporter for `npm test`: one line per test file, and for a file that failed, each
// failed test with its error and what the file printed. The TAP reporter printed ~8,600 lines for
// a passing run, burying the summary; `CMS_SPEC_TEST_REPORTER=tap` (or spec) still selects node's
// own (see run-tests.js). The totals end in node's `# pass N` / `# fail N` lines. In CI (the
// environment variable CI set, as CI services set it), a failed file's TAP follows its details:
// node's TAP reporter given that file's events, so the log of a failed run holds everything node
// said about the file without running it again.
import { relative } from 'node:path';
import { sourceOfBuiltTest } from './build-tests.js';
import { tap } from 'node:test/reporters';
import { inspect } from 'node:util';

/** Whether a failed file's TAP is printed too: in CI (CI=true, or any value but false or 0). */
const TAP_OF_FAILED = !!process.env.CI && !/^(false|0)$/i.test(process.env.CI);

/** What one test file did: its test counts, failures and printed output, until it is reported (and its events, for its TAP in CI). */
function fileState() {
  return { passed: 0, failed: 0, cancelled: 0, skipped: 0, failures: [], output: [], names: [], durationMs: undefined, events: [] };
}

/** The thrown value behind node:test's wrapper (ERR_TEST_FAILURE carries the test's own error as `cause`). */
function failureText(error) {
  const cause = error?.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error;
  const text = cause instanceof Error ? inspect(cause, { depth: 4, breakLength: 120 }) : String(cause);
  const lines = text.split('\n');
  return (lines.length > 40 ? [...lines.slice(0, 40), `  … ${lines.length - 40} more lines`] : lines).map((l) => `      ${l}`).join('\n');
}

/** node's TAP of one file's events, indented under its details. */
async function tapOf(events) {
  let text = '';
  for await (const chunk of tap((async function* () {
    yield* events;
  })()))
    text += chunk;
  return `    node's TAP of the file:\n${text.trimEnd().split('\n').map((l) => `      ${l}`).join('\n')}\n`;
}

/** The line (and, for a failed file, the details, and in CI its TAP) of a file whose results are all in. */
async function fileReport(file, s) {
  const took = s.durationMs === undefined ? '' : `, ${(s.durationMs / 1000).toFixed(1)} s`;
  const counts = `${s.passed} passed${s.failed ? `, ${s.failed} failed` : ''}${s.cancelled ? `, ${s.cancelled} cancelled (a hook failed)` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}`;
  let out = `${s.failed || s.cancelled ? 'FAIL' : 'ok  '} ${relative(process.cwd(), sourceOfBuiltTest(file))}  (${counts}${took})\n`;
  if (s.failed || s.cancelled) {
    out += `${s.failures.join('\n')}\n`;
    const printed = s.output.join('').trimEnd();
    if (printed) out += `    what it printed:\n${printed.split('\n').map((l) => `      ${l}`).join('\n')}\n`;
    if (TAP_OF_FAILED) out += await tapOf(s.events);
  }
  return out;
}

/**
 * node:test reports each file's results in order, one file after the other, while events such as
 * a file's completion come as they happen: a file is reported once results of the next one (or the
 * end of the run) arrive.
 */
export default async function* compactReporter(source) {
  const files = new Map();
  const stateOf = (file) => {
    let s = files.get(file);
    if (!s) files.set(file, (s = fileState()));
    return s;
  };
  let current;
  /** Files reported: an event of theirs that comes later is not the start of another report. */
  const reported = new Set();
  const finish = async (file) => {
    const out = await fileReport(file, stateOf(file));
    files.delete(file);
    reported.add(file);
    return out;
  };
  for await (const event of source) {
    const { type, data } = event;
    const file = data?.file;
    if (TAP_OF_FAILED && file && !reported.has(file)) stateOf(file).events.push(event);
    const inOrder = (type === 'test:pass' || type === 'test:fail') && file;
    if (inOrder && current !== undefined && current !== file) yield await finish(current);
    if (inOrder) current = file;
    if (type === 'test:dequeue' && file) stateOf(file).names[data.nesting] = data.name;
    else if (type === 'test:complete' && file && data.name === file) stateOf(file).durationMs = data.details?.duration_ms;
    else if (type === 'test:fail' && file && data.name === file) {
      // the file itself failed outside any test (it did not load, or exited early)
      const s = stateOf(file);
      s.failed++;
      s.failures.push(`    ✗ the file itself\n${failureText(data.details?.error)}`);
    } else if (inOrder) {
      // suites count through their tests; a test counts once, whatever its nesting
      if (data.details?.type === 'suite' && type === 'test:pass') continue;
      const s = stateOf(file);
      if (data.skip !== undefined || data.todo !== undefined) s.skipped++;
      else if (type === 'test:pass') s.passed++;
      else if (data.details?.error?.failureType === 'cancelledByParent') s.cancelled++;
      else if (data.details?.error?.failureType !== 'subtestsFailed') {
        s.failed++;
        s.failures.push(`    ✗ ${[...s.names.slice(0, data.nesting), data.name].join(' › ')}\n${failureText(data.details?.error)}`);
      }
    } else if ((type === 'test:stdout' || type === 'test:stderr') && file) {
      stateOf(file).output.push(data.message);
    } else if (type === 'test:diagnostic' && data.nesting === 0 && !file) {
      // the run's totals come last
      if (current !== undefined) yield await finish(current);
      current = undefined;
      for (const other of [...files.keys()]) yield await finish(other);
      yield `# ${data.message}\n`;
    }
  }
  if (current !== undefined) yield await finish(current);
}
