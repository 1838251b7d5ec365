// node:test reporter for `npm test`: one line per test file, and for a file that failed, each
// failed test with its error and what the file printed. The TAP reporter printed ~8,600 lines for
// a passing run, burying the summary; `CMS_SPEC_TEST_REPORTER=tap` (or spec) still selects node's
// own (see run-tests.js). The totals end in node's `# pass N` / `# fail N` lines.
import { relative } from 'node:path';
import { inspect } from 'node:util';

/** What one test file did: its test counts, failures and printed output, until it is reported. */
function fileState() {
  return { passed: 0, failed: 0, cancelled: 0, skipped: 0, failures: [], output: [], names: [], durationMs: undefined };
}

/** The thrown value behind node:test's wrapper (ERR_TEST_FAILURE carries the test's own error as `cause`). */
function failureText(error) {
  const cause = error?.code === 'ERR_TEST_FAILURE' && error.cause !== undefined ? error.cause : error;
  const text = cause instanceof Error ? inspect(cause, { depth: 4, breakLength: 120 }) : String(cause);
  const lines = text.split('\n');
  return (lines.length > 40 ? [...lines.slice(0, 40), `  … ${lines.length - 40} more lines`] : lines).map((l) => `      ${l}`).join('\n');
}

/** The line (and, for a failed file, the details) of a file whose results are all in. */
function fileReport(file, s) {
  const took = s.durationMs === undefined ? '' : `, ${(s.durationMs / 1000).toFixed(1)} s`;
  const counts = `${s.passed} passed${s.failed ? `, ${s.failed} failed` : ''}${s.cancelled ? `, ${s.cancelled} cancelled (a hook failed)` : ''}${s.skipped ? `, ${s.skipped} skipped` : ''}`;
  let out = `${s.failed || s.cancelled ? 'FAIL' : 'ok  '} ${relative(process.cwd(), file)}  (${counts}${took})\n`;
  if (s.failed || s.cancelled) {
    out += `${s.failures.join('\n')}\n`;
    const printed = s.output.join('').trimEnd();
    if (printed) out += `    what it printed:\n${printed.split('\n').map((l) => `      ${l}`).join('\n')}\n`;
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
  const finish = (file) => {
    const out = fileReport(file, stateOf(file));
    files.delete(file);
    return out;
  };
  for await (const { type, data } of source) {
    const file = data?.file;
    const inOrder = (type === 'test:pass' || type === 'test:fail') && file;
    if (inOrder && current !== undefined && current !== file) yield finish(current);
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
      if (current !== undefined) yield finish(current);
      current = undefined;
      for (const other of [...files.keys()]) yield finish(other);
      yield `# ${data.message}\n`;
    }
  }
  if (current !== undefined) yield finish(current);
}
