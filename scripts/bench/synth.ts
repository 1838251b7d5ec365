/** Synthetic specs for the start-up and router-scale scenarios, written to a folder of their own. */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namespaceYamlCopy, siteYamlCopy } from '../spec-copy.ts';
import { ROOT } from './lib.ts';

/** The namespace a file declares (`namespace:`) or adds routes to (`extends:`): each copy renames it alike. */
const NAMESPACE_LINE = /^(namespace|extends):\s*(\S+)\s*$/m;

function writeSite(dir: string, fromDir: string, handlers?: string): void {
  mkdirSync(join(dir, 'namespaces'), { recursive: true });
  writeFileSync(join(dir, 'site.yaml'), siteYamlCopy(fromDir, { handlers }));
}

/**
 * The real spec `copies` times over: every namespace file again with a renamed namespace
 * (`cms/v2` → `cms2/v2`), all pointing at the same handlers. Copy 1 is the spec itself.
 */
export function scaledSpec(copies: number, dir: string): string {
  const specDir = join(ROOT, 'spec');
  writeSite(dir, specDir);
  for (const file of readdirSync(join(specDir, 'namespaces')).filter((f) => f.endsWith('.yaml'))) {
    const text = namespaceYamlCopy(join(specDir, 'namespaces', file));
    for (let c = 1; c <= copies; c++) {
      const renamed = c === 1 ? text : text.replace(NAMESPACE_LINE, (_, key: string, ns: string) => `${key}: ${ns.replace(/^[^/]+/, (first) => `${first}${c}`)}`);
      writeFileSync(join(dir, 'namespaces', `${c}-${file}`), renamed);
    }
  }
  return dir;
}

const ROUTES_PER_FILE = 100;

/**
 * `count` routes `/scaleNNNNN/v1/itemJ/{id}`, a hundred per namespace, all served by the bench
 * echo handler. Returns the path of the last-registered route with an id filled in.
 */
export function routerSpec(count: number, dir: string): { dir: string; lastPath: string } {
  const benchSpec = join(ROOT, 'scripts/bench/spec');
  writeSite(dir, benchSpec, join(benchSpec, 'handlers'));
  let lastPath = '';
  for (let first = 0, file = 0; first < count; first += ROUTES_PER_FILE, file++) {
    const ns = `scale${String(file).padStart(5, '0')}/v1`;
    const lines = [`namespace: ${ns}`, 'variants: [A]', 'routes:'];
    for (let j = 0; j < Math.min(ROUTES_PER_FILE, count - first); j++) {
      lines.push(
        `  /item${j}/{id}:`,
        `    params: { id: '[\\d]+' }`,
        '    endpoints:',
        '      - methods: [GET]',
        '        handler: bench.echoArgs',
        '        permission: public',
        '        args:',
        '          id: { type: integer, minimum: 1 }',
      );
      lastPath = `/${ns}/item${j}/123`;
    }
    writeFileSync(join(dir, 'namespaces', `${ns.split('/')[0]}.yaml`), `${lines.join('\n')}\n`);
  }
  return { dir, lastPath };
}
