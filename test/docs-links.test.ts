import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Every relative link and anchor in the README and the docs leads somewhere: a file of the
// repository, and a heading of it as GitHub names its anchors (a page moved or a heading renamed
// fails here, not for a reader).

const ROOT = resolve(import.meta.dirname, '..');
const PAGES = ['README.md', 'spec/README.md', 'bench/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** A page's text without its code blocks and code spans, where brackets and hashes are not links or headings. */
const prose = (text: string) => text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, (code) => (code.length > 2 ? 'code' : code));

/**
 * GitHub's anchor of a heading: its text (markup and code backticks dropped), lower-cased, every
 * character that is not a letter, digit, space, hyphen or underscore removed, each space a
 * hyphen; a repeated anchor gets -1, -2… in the page's order.
 */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const count = new Map<string, number>();
  const headings = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm);
  for (const [, heading] of headings) {
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*_~]{1,2}(?=\S)|(?<=\S)[`*_~]{1,2}/g, (m) => (m.includes('_') ? m : ''));
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
    const n = count.get(slug) ?? 0;
    count.set(slug, n + 1);
    anchors.add(n ? `${slug}-${n}` : slug);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

const anchorCache = new Map<string, Set<string>>();
const anchorsOfFile = (file: string) => {
  if (!anchorCache.has(file)) anchorCache.set(file, anchorsOf(readFileSync(file, 'utf8')));
  return anchorCache.get(file)!;
};

test('every relative link and anchor in the README and docs/ leads to a file and heading that exist', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    const file = join(ROOT, page);
    for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      checked++;
      const [path, anchor] = target.split('#');
      const linked = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      if (!existsSync(linked)) {
        broken.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined) continue;
      if (statSync(linked).isDirectory() || !linked.endsWith('.md')) {
        broken.push(`${page}: ${target} (an anchor in ${relative(ROOT, linked)}, which is not a Markdown page)`);
        continue;
      }
      if (!anchorsOfFile(linked).has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${page}: ${target} (${relative(ROOT, linked)} has no heading #${anchor})`);
    }
  }
  assert.ok(checked > 20, `the pages link to each other (${checked} relative links found)`);
  assert.deepEqual(broken, []);
});

test("anchors are GitHub's: punctuation dropped, spaces hyphens, code and emphasis unmarked, repeats numbered", () => {
  const headings = ['# Add a route: `x-handler` and YAML', '## The core routes (cms/v2)', '## Plugins', '### Plugins', '## `--workers` & scaling', '## snake_case names'].join('\n\n');
  assert.deepEqual([...anchorsOf(headings)], ['add-a-route-x-handler-and-yaml', 'the-core-routes-cmsv2', 'plugins', 'plugins-1', '--workers--scaling', 'snake_case-names']);
});
