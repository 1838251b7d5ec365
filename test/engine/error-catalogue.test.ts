import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { useServer } from '../helpers/server.ts';
import { loadSpec } from '../../src/engine/spec.ts';
import { lintSpec } from '../../src/engine/lint.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = resolve(import.meta.dirname, '../fixtures/error-catalogue');

describe('a handler raises catalogued errors by code (ctx.fail)', () => {
  const site = useServer({ spec: FIXTURE });
  const answer = async (path: string) => {
    const res = await site.call(path);
    return { status: res.status, body: await res.json() };
  };

  test("the namespace's code, its message filled from the raise's values", async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/w-404'), { status: 404, body: { code: 'widget_not_found', message: 'There is no widget w-404.', data: { status: 404 } } });
  });

  test('a placeholder used twice is filled twice; extra data joins the status', async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/locked'), {
      status: 423,
      body: { code: 'widget_locked', message: 'The widget locked is locked by ada; ask ada to unlock it.', data: { status: 423, locked_since: '2026-01-01' } },
    });
  });

  test('a status in the data answers instead of the catalogued one', async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/gone'), { status: 410, body: { code: 'widget_not_found', message: 'There is no widget gone.', data: { status: 410 } } });
  });

  test('a number fills a placeholder as written', async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/heavy'), { status: 400, body: { code: 'widget_too_heavy', message: 'A widget weighs at most 500 grams.', data: { status: 400 } } });
  });

  test("site.yaml's codes are every namespace's", async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/quota'), { status: 429, body: { code: 'widget_quota_reached', message: 'At most 3 widgets a day.', data: { status: 429 } } });
  });

  test("the engine's codes are always there, a list filling a placeholder as `a, b`", async () => {
    assert.deepEqual(await answer('widgets/v1/widgets/engine'), {
      status: 400,
      body: { code: 'rest_missing_callback_param', message: 'Missing parameter(s): colour, size', data: { status: 400, params: ['colour', 'size'] } },
    });
  });

  test("a namespace that takes another's catalogue ($use) answers its codes", async () => {
    assert.deepEqual(await answer('gadgets/v1/gadgets/g-9'), { status: 404, body: { code: 'widget_not_found', message: 'There is no widget g-9.', data: { status: 404 } } });
  });
});

test('NamespaceSpec.errors holds each code with its status, message and where it is declared', () => {
  const spec = loadSpec(FIXTURE);
  const widgets = spec.namespaces.find((n) => n.name === 'widgets/v1')!;
  const gadgets = spec.namespaces.find((n) => n.name === 'gadgets/v1')!;
  const file = relative(process.cwd(), join(FIXTURE, 'namespaces/widgets.yaml'));
  assert.deepEqual(widgets.errors.widget_not_found, { status: 404, message: 'There is no widget {id}.', pos: { file, line: 4 } });
  assert.deepEqual(Object.keys(widgets.errors), ['widget_not_found', 'widget_locked', 'widget_too_heavy']);
  assert.deepEqual(gadgets.errors, widgets.errors);
  assert.deepEqual(spec.errors.widget_quota_reached, { status: 429, message: 'At most {limit} widgets a day.', pos: { file: relative(process.cwd(), join(FIXTURE, 'site.yaml')), line: 19 } });
});

describe('lint holds the handlers to the catalogue', () => {
  test('an undeclared code (ctx.fail, new RestError, a helper passing its code on), a value missing, a code never raised, one declared twice and one not written as a literal, each at its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-spec-errors-'));
    try {
      cpSync(FIXTURE, dir, { recursive: true });
      const handler = join(dir, 'handlers/widgets.ts');
      const lines = readFileSync(handler, 'utf8').split('\n');
      const at = (text: string) => lines.findIndex((l) => l.includes(text));
      lines.splice(at("id === 'heavy'"), 1); // widget_too_heavy is no longer raised
      lines[at("id === 'quota'")] = lines[at("id === 'quota'")].replace('{ limit: 3 }', '{ lim: 3 }');
      lines.splice(
        at('const id ='),
        1,
        lines[at('const id =')],
        "  if (id === 'melted') throw ctx.fail('widget_melted');",
        "  if (id === 'bent') throw new RestError('gadget_bent', 'The gadget is bent.', 409);",
        "  if (id === 'lost') throw lost(ctx, 'widget_lost');",
        "  if (id.startsWith('x')) throw new RestError(`widget_${id}`, 'Built.', 400);",
      );
      lines.unshift("import { RestError } from '../../../../src/engine/errors.ts';");
      lines.push('const lost = (ctx: HandlerContext, code: string) => ctx.fail(code);');
      writeFileSync(handler, lines.join('\n'));
      // the copy sits outside the repository: its imports of src/ are made absolute
      writeFileSync(handler, readFileSync(handler, 'utf8').replaceAll("'../../../../src/", `'${join(ROOT, 'src')}/`));
      const yaml = join(dir, 'namespaces/widgets.yaml');
      writeFileSync(yaml, readFileSync(yaml, 'utf8').replace('errors:\n', "errors:\n  rest_no_route: { status: 404, message: 'Nothing here.' }\n"));

      const shown = (f: string) => relative(process.cwd(), join(dir, f));
      const findings = (await lintSpec(dir)).filter((f) => f.rule.startsWith('error-')).map((f) => [f.file, f.line, f.rule, f.severity, f.message]);
      const undeclared = (code: string) => `error code ${code} is not declared: add it to the errors: of each of gadgets/v1, widgets/v1, or of site.yaml`;
      assert.deepEqual(findings, [
        [shown('handlers/widgets.ts'), 7, 'error-undeclared', 'error', undeclared('widget_melted')],
        [shown('handlers/widgets.ts'), 8, 'error-undeclared', 'error', undeclared('gadget_bent')],
        [shown('handlers/widgets.ts'), 9, 'error-undeclared', 'error', undeclared('widget_lost')],
        [shown('handlers/widgets.ts'), 10, 'error-code-literal', 'warning', 'the error code is not a string literal, so lint cannot check that a catalogue declares it'],
        [shown('handlers/widgets.ts'), 13, 'error-values', 'error', 'error widget_quota_reached gets no value for {limit} of its message'],
        [shown('namespaces/widgets.yaml'), 4, 'error-declared-twice', 'error', 'error code rest_no_route is already declared by the engine'],
        [shown('namespaces/widgets.yaml'), 4, 'error-unused', 'warning', 'error code rest_no_route is declared, but no handler that answers with it raises it'],
        [shown('namespaces/widgets.yaml'), 7, 'error-unused', 'warning', 'error code widget_too_heavy is declared, but no handler that answers with it raises it'],
      ]);

      const cli = spawnSync(process.execPath, [join(ROOT, 'bin/cms-spec.js'), 'lint', '--spec', dir], { encoding: 'utf8' });
      assert.equal(cli.status, 1, cli.stderr);
      assert.ok(cli.stdout.includes(`${shown('handlers/widgets.ts')}:7: error-undeclared: ${undeclared('widget_melted')}\n`), cli.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the repository itself: no handler raises a code its catalogues do not declare', async () => {
    const findings = (await lintSpec(join(ROOT, 'spec'))).filter((f) => f.rule.startsWith('error-') && f.severity === 'error');
    assert.deepEqual(findings, []);
  });
});
