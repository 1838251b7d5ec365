/**
 * `npm run bench:admin`: the admin's bundle as a browser downloads it (each file's bytes, raw and
 * gzip, for the list screens and for the editor), and the editor's time to interactive on this
 * machine: from asking for the new-post screen to the block list taking input, in the project's
 * Chromium, median of `--runs` loads (the first, with an empty browser cache, apart).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { ensureAdminBundle } from './build.js';
import { startTestServer } from '../test/helpers/server.ts';
import { userAuth } from '../test/helpers/auth.ts';
import { launchBrowser } from '../test/helpers/browser.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const runs = Number(values.runs);
const ROOT = join(import.meta.dirname, '..');
const BUNDLE = join(ROOT, 'dist', 'admin-app');
await ensureAdminBundle();

const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const files = (dir: string, prefix = ''): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f), `${prefix}${f}/`) : [`${prefix}${f}`]));
const sizes = new Map(files(BUNDLE).map((f) => [f, { raw: statSync(join(BUNDLE, f)).size, gzip: gzipSync(readFileSync(join(BUNDLE, f))).length }]));

const server = await startTestServer();
const { browser, label } = await launchBrowser();
try {
  const user = await userAuth(server, 'administrator');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const loaded = { list: new Set<string>(), editor: new Set<string>() };
  let phase: keyof typeof loaded = 'list';
  page.on('response', (r) => {
    const m = /\/cms-admin\/assets\/(.+)$/.exec(new URL(r.url()).pathname);
    if (m) loaded[phase].add(m[1]);
  });
  await page.goto(`${server.home}/cms-admin/login`);
  await page.fill('#user_login', user.login);
  await page.fill('#user_pass', user.password);
  await Promise.all([page.waitForURL(`${server.home}/cms-admin/`), page.click('#wp-submit')]);
  await page.waitForSelector('.cms-admin__table');
  phase = 'editor';
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const started = Date.now();
    await page.goto(`${server.home}/cms-admin/?page=post-new&post_type=posts`);
    await page.waitForSelector('.block-editor-block-list__layout');
    await page.click('.block-editor-block-list__layout');
    await page.keyboard.type('x');
    await page.waitForSelector('.wp-block-paragraph:has-text("x")');
    times.push(Date.now() - started);
  }
  const [first, ...rest] = times;
  rest.sort((a, b) => a - b);
  const total = (names: Set<string>) => [...names].reduce((s, n) => ({ raw: s.raw + (sizes.get(n)?.raw ?? 0), gzip: s.gzip + (sizes.get(n)?.gzip ?? 0) }), { raw: 0, gzip: 0 });
  const list = total(loaded.list);
  const editorOnly = new Set([...loaded.editor].filter((n) => !loaded.list.has(n)));
  const editor = total(editorOnly);
  console.log(`browser: ${label}`);
  console.log(`list screens load ${loaded.list.size} files: ${kb(list.raw)} (${kb(list.gzip)} gzip)`);
  console.log(`the editor adds ${editorOnly.size} files: ${kb(editor.raw)} (${kb(editor.gzip)} gzip)`);
  console.log(`whole bundle on disk: ${kb([...sizes.values()].reduce((s, x) => s + x.raw, 0))} in ${sizes.size} files (workers for in-browser media processing included, loaded only if used)`);
  console.log(`editor time to interactive (new post screen asked → first keystroke shown): first load ${first} ms, then median ${rest[Math.floor(rest.length / 2)]} ms of ${rest.length}`);
} finally {
  await browser.close();
  await server.close();
}
