/**
 * `node --import tsx scripts/bench/compression-levels.ts`: what each brotli quality and gzip level
 * costs and saves on real answers of a seeded site (the index, lists, one post), to choose the
 * setting of the response cache's kept encodings (src/engine/compression.ts). Each answer is
 * compressed on this thread, synchronously, as one libuv pool thread would: the median of several
 * runs, in milliseconds, and the bytes made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { median, ROOT, runCli, startServer } from './lib.ts';

const RUNS = 7;
const BROTLI_QUALITIES = [1, 3, 4, 5, 6, 7, 8, 9, 11];
const GZIP_LEVELS = [1, 6, 9];

/** The anonymous answers measured: what the response cache keeps most. */
const ANSWERS = ['/cms-json/', '/cms-json/cms/v2/types', '/cms-json/cms/v2/posts', '/cms-json/cms/v2/posts?per_page=100', '/cms-json/cms/v2/categories', '/cms-json/cms/v2/posts?per_page=1'];

function timed(make: () => Buffer): { ms: number; bytes: number } {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    bytes = make().length;
    times.push(performance.now() - t);
  }
  return { ms: median(times), bytes };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-spec-levels-'));
  const db = join(dir, 'site.sqlite');
  try {
    await runCli(['seed', '--posts', '200', '--db', db, '--seed-random', '6']);
    const server = await startServer('cms-spec', [join(ROOT, 'bin/cms-spec.js'), 'serve', '--port', '0', '--db', db, '--response-cache', 'off']);
    const bodies: { path: string; body: Buffer }[] = [];
    try {
      for (const path of ANSWERS) bodies.push({ path, body: Buffer.from(await (await fetch(`http://127.0.0.1:${server.port}${path}`)).arrayBuffer()) });
    } finally {
      await server.stop();
    }
    const header = ['answer', 'identity', ...BROTLI_QUALITIES.map((q) => `br ${q}`), ...GZIP_LEVELS.map((l) => `gzip ${l}`)];
    console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
    const totals = new Map<string, { ms: number; bytes: number }>();
    let identity = 0;
    for (const { path, body } of bodies) {
      identity += body.length;
      const cells: string[] = [];
      const add = (name: string, r: { ms: number; bytes: number }) => {
        cells.push(`${r.bytes.toLocaleString('en')} B, ${r.ms.toFixed(2)} ms`);
        const t = totals.get(name) ?? { ms: 0, bytes: 0 };
        totals.set(name, { ms: t.ms + r.ms, bytes: t.bytes + r.bytes });
      };
      for (const q of BROTLI_QUALITIES) add(`br ${q}`, timed(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })));
      for (const l of GZIP_LEVELS) add(`gzip ${l}`, timed(() => gzipSync(body, { level: l })));
      console.log(`| \`${path.replace('/cms-json/', '') || 'index'}\` | ${body.length.toLocaleString('en')} B | ${cells.join(' | ')} |`);
    }
    console.log(`\nAll ${bodies.length} answers together (${identity.toLocaleString('en')} bytes):\n\n| setting | bytes | ms | MB/s of input |\n|---|---|---|---|`);
    for (const [name, t] of totals) console.log(`| ${name} | ${t.bytes.toLocaleString('en')} | ${t.ms.toFixed(2)} | ${(identity / 1e6 / (t.ms / 1000)).toFixed(1)} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
