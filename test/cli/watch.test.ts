import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLI, ROOT } from './run.ts';
import { serveIn, type ServingIn } from './serve-in.ts';
import { until } from '../helpers/until.ts';

/** Requests sent back to back on `loops` connections until stopped: every answer that was not a 200 is a failure. */
function underLoad(url: string, loops = 2) {
  let running = true;
  let answered = 0;
  const failures: string[] = [];
  const loop = async () => {
    while (running) {
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else failures.push(`status ${res.status}`);
      } catch (e) {
        failures.push(String(e));
      }
    }
  };
  const done = Promise.all(Array.from({ length: loops }, loop));
  return {
    get answered() {
      return answered;
    },
    async stop() {
      running = false;
      await done;
      return failures;
    },
  };
}

describe('cms-spec serve --watch', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cms-spec-watch-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('edits to the YAML and to a handler are served at once under load, a broken file keeps the routes; no request fails', async () => {
    assert.equal(spawnSync(process.execPath, [CLI, 'init', 'my-api'], { cwd: dir }).status, 0);
    const project = join(dir, 'my-api');
    const yamlFile = join(project, 'spec/namespaces/greetings.yaml');
    const handlerFile = join(project, 'handlers/greetings.ts');
    const yaml = readFileSync(yamlFile, 'utf8');
    const handler = readFileSync(handlerFile, 'utf8');
    const server: ServingIn = await serveIn(project, ['--watch']);
    const reloads = () => server.out().split('\nReloaded after a change to ').length - 1;
    const get = async (path: string) => {
      const res = await fetch(`${server.api}my-api/v1/${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    /** Writes a file and waits until the server has reloaded (or refused) it. */
    const edit = async (file: string, text: string, settled: () => boolean) => {
      writeFileSync(file, text);
      await until(settled, 'the reloads to settle');
    };
    const load = underLoad(`${server.api}my-api/v1/hello?name=Ada`);
    try {
      assert.deepEqual(await get('hello?name=Ada'), { status: 200, body: { greeting: 'Hello, Ada!' } });
      assert.equal((await get('goodbye')).status, 404);

      // a route added to the YAML, with its handler: served without a restart
      let seen = reloads();
      await edit(handlerFile, `${handler}\nexport function goodbye(ctx: HandlerContext) {\n  return { farewell: \`Goodbye, \${ctx.args.name}!\` };\n}\n`, () => reloads() > seen);
      seen = reloads();
      const withGoodbye = `${yaml}  /goodbye:\n    endpoints:\n      - methods: [GET]\n        handler: greetings.goodbye\n        permission: public\n        args:\n          name: { type: string, default: world }\n`;
      await edit(yamlFile, withGoodbye, () => reloads() > seen);
      assert.deepEqual(await get('goodbye?name=Ada'), { status: 200, body: { farewell: 'Goodbye, Ada!' } });

      // an arg's bound changed
      assert.equal((await get('hello?name=Adaline')).status, 200);
      seen = reloads();
      await edit(yamlFile, withGoodbye.replace('maxLength: 40', 'maxLength: 5'), () => reloads() > seen);
      const refused = await get('hello?name=Adaline');
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'rest_invalid_param');

      // broken YAML: said as file:line: rule: message, and the routes from before stay
      await edit(yamlFile, withGoodbye.replace('  /goodbye:', '  /goodbye: [').replace('maxLength: 40', 'maxLength: 5'), () => /spec-yaml/.test(server.err()));
      assert.match(server.err(), /^The spec has \d+ problems?; still serving the routes from before the change:\nspec\/namespaces\/greetings\.yaml:\d+: spec-yaml: .+$/m);
      assert.deepEqual(await get('goodbye?name=Bo'), { status: 200, body: { farewell: 'Goodbye, Bo!' } });

      // a handler module that no longer loads: the same, with the rule that says so
      seen = reloads();
      await edit(yamlFile, withGoodbye, () => reloads() > seen);
      await edit(handlerFile, `${handler}\nexport function goodbye(ctx: HandlerContext) {\n  return { farewell: \n}\n`, () => /handler-load/.test(server.err()));
      assert.match(server.err(), /^spec\/namespaces\/greetings\.yaml:\d+: handler-load: \/my-api\/v1\/hello GET names handler 'greetings\.hello'; importing .+greetings\.ts failed: /m);
      assert.deepEqual(await get('goodbye?name=Bo'), { status: 200, body: { farewell: 'Goodbye, Bo!' } });

      // fixed, with another answer: the new code answers
      seen = reloads();
      await edit(handlerFile, `${handler.replace('Hello, ', 'Hi, ')}\nexport function goodbye(ctx: HandlerContext) {\n  return { farewell: \`Bye, \${ctx.args.name}!\` };\n}\n`, () => reloads() > seen);
      assert.deepEqual(await get('hello?name=Ada'), { status: 200, body: { greeting: 'Hi, Ada!' } });
      assert.deepEqual(await get('goodbye?name=Ada'), { status: 200, body: { farewell: 'Bye, Ada!' } });
    } finally {
      const failures = await load.stop();
      await server.stop();
      assert.deepEqual(failures, [], 'no request failed while the routes were swapped');
    }
    assert.ok(load.answered > 20, `the load kept going (${load.answered} answers)`);
  });

  test('the CMS itself: an arg added to a plugin namespace is served at once under load, a broken file keeps the routes; no request fails', async () => {
    // a copy of the CMS's spec beside a link to its code, so the spec's relative folders (../src/plugins) resolve
    const site = join(dir, 'cms');
    cpSync(join(ROOT, 'spec'), join(site, 'spec'), { recursive: true });
    symlinkSync(join(ROOT, 'src'), join(site, 'src'));
    const yamlFile = join(site, 'spec/namespaces/code-snippets.yaml');
    const yaml = readFileSync(yamlFile, 'utf8');
    const server = await serveIn(site, ['--watch', '--spec', 'spec', '--db', 'site.sqlite']);
    await until(() => /^Watching the spec and its handlers and the plugin folders for changes\.$/m.test(server.out()), 'the watch notice');
    const reloads = () => server.out().split('\nReloaded after a change to ').length - 1;
    const snippetArgs = async () => {
      const res = await fetch(`${server.api}code-snippets/v1`);
      assert.equal(res.status, 200);
      const index = (await res.json()) as { routes: Record<string, { endpoints: { methods: string[]; args: unknown }[] }> };
      return index.routes['/code-snippets/v1/snippets'].endpoints[0].args;
    };
    const load = underLoad(`${server.api}code-snippets/v1`);
    try {
      assert.deepEqual(await snippetArgs(), [], 'the list shows no args, as WordPress an empty array (page and per_page are index: false)');

      const perPage = '          per_page: { type: integer, default: 10, minimum: 1, maximum: 100, index: false }\n';
      assert.ok(yaml.includes(perPage));
      const withScope = yaml.replace(perPage, `${perPage}          scope: { type: string, enum: [global, admin] }\n`);
      const seen = reloads();
      writeFileSync(yamlFile, withScope);
      await until(() => reloads() > seen, 'a reload');
      assert.match(server.out(), /^Reloaded after a change to spec\/namespaces\/code-snippets\.yaml: \d+ routes served\.$/m);
      assert.deepEqual(await snippetArgs(), { scope: { type: 'string', enum: ['global', 'admin'], required: false } });

      // broken YAML: said as file:line: rule: message, and the routes from before stay
      writeFileSync(yamlFile, withScope.replace('  /snippets:\n', '  /snippets: [\n'));
      await until(() => /spec-yaml/.test(server.err()), 'the spec-yaml error');
      assert.match(server.err(), /^The spec has \d+ problems?; still serving the routes from before the change:\nspec\/namespaces\/code-snippets\.yaml:\d+: spec-yaml: .+$/m);
      assert.deepEqual(await snippetArgs(), { scope: { type: 'string', enum: ['global', 'admin'], required: false } });
    } finally {
      const failures = await load.stop();
      await server.stop();
      assert.deepEqual(failures, [], 'no request failed while the routes were swapped');
    }
    assert.ok(load.answered > 20, `the load kept going (${load.answered} answers)`);
  });
});
