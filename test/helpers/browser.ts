import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * The browser of the browser tests: the Chromium headless shell that the @sparticuz/chromium
 * package carries inside itself (brotli-compressed), so `npm ci` is all a machine needs; no
 * system browser and no download. It is unpacked once per install into node_modules/.cache and
 * driven by playwright-core.
 */

const PACKAGE = '@sparticuz/chromium';
const require = createRequire(import.meta.url);
const packageVersion = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, 'node_modules/.cache/cms-spec-chromium', packageVersion);

function packageRoot(): string {
  // the package's `exports` hide package.json, so it is found from the entry point
  let dir = dirname(require.resolve(PACKAGE));
  while (!existsSync(join(dir, 'package.json')) || (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name !== PACKAGE) dir = dirname(dir);
  return dir;
}

/**
 * The unpacked binary's path. The package unpacks into os.tmpdir() (a fixed /tmp/chromium,
 * shared by every checkout and left half-written by an interrupted run), so it is pointed at a
 * fresh folder of its own through TMPDIR and the finished folder is renamed into place: two test
 * files unpacking at once both succeed, and the loser's copy is dropped.
 */
async function unpackedBinary(): Promise<string> {
  const binary = join(CACHE, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(CACHE), { recursive: true });
  const staging = mkdtempSync(`${CACHE}.unpacking-`);
  const { default: Chromium } = await import('@sparticuz/chromium');
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  let unpacking: Promise<string>;
  try {
    // every output path is taken from TMPDIR synchronously, before the first await inside
    unpacking = Chromium.executablePath();
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    const unpacked = await unpacking;
    if (unpacked !== join(staging, 'chromium')) throw new Error(`${PACKAGE} unpacked into ${unpacked}, not ${staging}`);
    renameSync(staging, CACHE);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
  return binary;
}

export interface TestBrowser {
  browser: Browser;
  /** Says which browser runs, for test names: `Chromium 143.0.7499.0 (@sparticuz/chromium 143.0.4, node_modules/.cache/…)`. */
  label: string;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const executablePath = await unpackedBinary();
  const browser = await chromium.launch({ executablePath, args: ['--no-zygote', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update'] });
  return { browser, label: `Chromium ${browser.version()} (${PACKAGE} ${packageVersion}, ${relative(ROOT, executablePath)})` };
}

/**
 * Whether the browser tests save screenshots (`CMS_SPEC_SCREENSHOTS=1`). They are for a person to
 * look at and no test compares them; a full-page PNG of a long page costs Chromium more than the
 * checks made on it (the test content's 84 were most of its file's time: 46 s with them, 13 s
 * without), so a plain run takes none.
 */
const SCREENSHOTS = process.env.CMS_SPEC_SCREENSHOTS === '1';

/**
 * Saves a screenshot of the page to `$TMPDIR/<path>` when screenshots are asked for, and names it in
 * the test's output. Full page unless `viewportOnly`.
 */
export async function screenshot(page: Page, path: string, t?: { diagnostic(message: string): void }, o: { viewportOnly?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS) return;
  const file = join(tmpdir(), path);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: !o.viewportOnly });
  t?.diagnostic(`screenshot: ${file}`);
}
