import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative, resolve } from 'node:path';
import { lintSpec } from '../src/engine/lint.ts';
import type { Diagnostic } from '../src/engine/diagnostics.ts';

const root = resolve(import.meta.dirname, '..');
// Findings name files relative to the working directory, as the CLI prints them.
const fixture = (name: string) => relative(process.cwd(), join(root, 'test/fixtures/lint', name));
const demoYaml = (name: string) => join(fixture(name), 'namespaces/demo.yaml');

interface Expected {
  rule: string;
  severity: 'error' | 'warning';
  /** [file, line, a fragment of the message] of every finding the fixture must produce, in order. */
  at: [string, number, string][];
}

const cases: Record<string, Expected> = {
  'handler-exists': { rule: 'handler-exists', severity: 'error', at: [[demoYaml('handler-exists'), 8, "'demo.create'"]] },
  'handler-orphan': { rule: 'handler-orphan', severity: 'warning', at: [[join(fixture('handler-orphan'), 'handlers/demo.ts'), 7, "'demo.archive'"]] },
  'permission-declared': { rule: 'permission-declared', severity: 'error', at: [[demoYaml('permission-declared'), 11, 'GET /demo/v1/items/(?P<id>[\\d]+) declares no permission']] },
  // The second GET says `repeat: true` and passes; the third repeats GET without saying so.
  'route-method-unique': { rule: 'route-method-unique', severity: 'error', at: [[demoYaml('route-method-unique'), 12, 'GET /demo/v1/items']] },
  'path-args': {
    rule: 'path-args',
    severity: 'error',
    at: [
      [demoYaml('path-args'), 4, '{id} in /items/{id} has no pattern'],
      [demoYaml('path-args'), 9, 'nests repetitions'],
      [demoYaml('path-args'), 9, "'name' is not used"],
      [demoYaml('path-args'), 15, '{path} does not compile'],
    ],
  },
  // `{slug}` takes more than `{id}`, so only `{item}` (the same pattern as `{id}`, added after it) is lost, its DELETE with it.
  'route-unreachable': { rule: 'route-unreachable', severity: 'error', at: [[demoYaml('route-unreachable'), 16, 'route /demo/v1/items/(?P<item>[\\d]+) is never reached: the router gives every path it matches to /demo/v1/items/(?P<id>[\\d]+)']] },
  'namespace-format': { rule: 'namespace-format', severity: 'error', at: [[demoYaml('namespace-format'), 1, "'demo-v1'"]] },
  'arg-typed-enum': {
    rule: 'arg-typed-enum',
    severity: 'error',
    at: [
      [demoYaml('arg-typed-enum'), 10, 'enum value "20" is not of type integer'],
      [demoYaml('arg-typed-enum'), 13, 'enum value "asc" is listed twice'],
    ],
  },
  // `per_page: "20"` coerces as a query string would, and `default: null` is ignored: both pass; so
  // does `context`, whose default its enum refuses as it says (refused_default), but not `status`.
  'arg-default-valid': {
    rule: 'arg-default-valid',
    severity: 'error',
    at: [
      [demoYaml('arg-default-valid'), 14, 'page must be less than or equal to 100'],
      [demoYaml('arg-default-valid'), 18, 'order is not one of asc and desc'],
      [demoYaml('arg-default-valid'), 30, 'default "draft" is marked refused_default, but its own validation accepts it'],
    ],
  },
  'arg-min-max-order': {
    rule: 'arg-min-max-order',
    severity: 'error',
    at: [
      [demoYaml('arg-min-max-order'), 10, 'minimum 10 is greater than maximum 1'],
      [demoYaml('arg-min-max-order'), 14, "'ids[]': minLength 5 is greater than maxLength 2"],
    ],
  },
  'arg-keyword-allowed': { rule: 'arg-keyword-allowed', severity: 'warning', at: [[demoYaml('arg-keyword-allowed'), 10, "'example'"]] },
  'arg-schema-valid': { rule: 'arg-schema-valid', severity: 'error', at: [[demoYaml('arg-schema-valid'), 10, "'code'"]] },
  // The route-level allow_batch (WordPress's own pattern) covers a GET endpoint too and passes.
  'batch-allowed-methods': { rule: 'batch-allowed-methods', severity: 'warning', at: [[demoYaml('batch-allowed-methods'), 18, 'GET /demo/v1/items/(?P<id>[\\d]+)']] },
  'spec-schema': { rule: 'spec-schema', severity: 'error', at: [[demoYaml('spec-schema'), 5, "'permision'"]] },
  // The first `demo/list-items` is fine; its second use and a name without a vendor prefix are not.
  'ability-name': {
    rule: 'ability-name',
    severity: 'error',
    at: [
      [demoYaml('ability-name'), 14, "'demo/list-items' is already declared at"],
      [demoYaml('ability-name'), 21, "'Demo_Item' must be vendor/action"],
    ],
  },
  // `content` from site.yaml serves the namespace's first ability; declaring it again, or naming an undeclared one, fails.
  'ability-category': {
    rule: 'ability-category',
    severity: 'error',
    at: [
      [demoYaml('ability-category'), 4, "'content' is already declared at"],
      [demoYaml('ability-category'), 15, "category 'widgets', which neither site.yaml nor"],
    ],
  },
  'response-schema': { rule: 'response-schema', severity: 'error', at: [[demoYaml('response-schema'), 12, 'POST /demo/v1/items does not compile']] },
};

for (const [name, expected] of Object.entries(cases)) {
  test(`lint rule ${expected.rule} catches its fixture at the offending line`, async () => {
    const findings = await lintSpec(fixture(name));
    assert.deepEqual(
      findings.map((f) => [f.rule, f.severity, f.file, f.line]),
      expected.at.map(([file, line]) => [expected.rule, expected.severity, file, line]),
      JSON.stringify(findings, null, 2),
    );
    expected.at.forEach(([, , fragment], i) => assert.ok(findings[i].message.includes(fragment), `"${findings[i].message}" should mention ${fragment}`));
  });
}

function runCli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin/cms-spec.js'), 'lint', ...args], { encoding: 'utf8' });
  return { code: r.status, lines: r.stdout.split('\n').filter(Boolean), stdout: r.stdout, stderr: r.stderr };
}

test('cms-spec lint prints file:line: rule: message and exits 1 on errors', () => {
  const r = runCli('--spec', fixture('path-args'));
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.lines.includes(`${demoYaml('path-args')}:4: path-args: path variable {id} in /items/{id} has no pattern under params`), r.stdout);
  assert.equal(r.lines.filter((l) => l.startsWith(`${demoYaml('path-args')}:`)).length, 4, r.stdout);
});

test('cms-spec lint marks warnings and exits 0 when there are only warnings', () => {
  const r = runCli('--spec', fixture('arg-keyword-allowed'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^${demoYaml('arg-keyword-allowed').replace(/[\\.]/g, '\\$&')}:10: arg-keyword-allowed: warning: arg 'search'`, 'm'));
});

test('cms-spec lint --format json prints the findings as JSON', () => {
  const r = runCli('--spec', fixture('handler-exists'), '--format', 'json');
  assert.equal(r.code, 1, r.stderr);
  const findings = JSON.parse(r.stdout) as Diagnostic[];
  assert.equal(findings.length, 1);
  assert.deepEqual({ ...findings[0], message: undefined }, { file: demoYaml('handler-exists'), line: 8, rule: 'handler-exists', severity: 'error', message: undefined });
});

test("the project's own spec lints without errors", async () => {
  const errors = (await lintSpec(join(root, 'spec'))).filter((f) => f.severity === 'error');
  assert.deepEqual(errors, []);
});
