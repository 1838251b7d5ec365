/**
 * Reading a spec file with the positions its problems are reported at (`file:line:`), and checking
 * it against the spec's own JSON Schemas (`spec/schema/`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Document, LineCounter, Node } from 'yaml';
import type { ErrorObject } from 'ajv';
import { Ajv } from './ajv.ts';
import { diagnostic, type Diagnostic } from './diagnostics.ts';

export const SPEC_CHECK_MODULE = import.meta.filename;

/** A spec file as parsed: its document (for positions) and its value. */
export interface LoadedYaml {
  file: string;
  doc: Document;
  value: Record<string, unknown>;
  lines: LineCounter;
}


// loaded on first use: a start whose spec is in the spec cache parses no YAML
let yamlModule: typeof import('yaml') | undefined;
const yaml = () => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

export function readYaml(file: string, shortName: string, problems: Diagnostic[]): LoadedYaml | null {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  // merge keys (`<<: *name`): a map that repeats another's keys but a few says only those few
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter: lines, keepSourceTokens: false, merge: true });
  if (doc.errors.length) {
    for (const e of doc.errors) problems.push(diagnostic({ file: shortName, line: e.linePos?.[0]?.line ?? 1 }, 'spec-yaml', e.message.split('\n')[0]));
    return null;
  }
  const value = doc.toJS({ mapAsMap: false }) as Record<string, unknown>;
  return { file: shortName, doc, value: value ?? {}, lines };
}

/**
 * The node at a path of the document, through aliases (`*name`, as a template's instances are
 * given again) and merge keys (`<<: *name`: a key the map has from another is where that one wrote
 * it), or undefined.
 */
function nodeAt(y: LoadedYaml, path: (string | number)[]): Node | undefined {
  const { isAlias, isCollection, isMap, isSeq } = yaml();
  const resolved = (n: Node | null | undefined) => (n && isAlias(n) ? (n.resolve(y.doc) as Node | undefined) : (n ?? undefined));
  const childOf = (parent: Node | undefined, step: string | number): Node | undefined => {
    if (!parent || !isCollection(parent)) return undefined;
    const own = parent.get(step, true) as Node | undefined;
    if (own !== undefined || !isMap(parent)) return own;
    for (const pair of parent.items) {
      const key = (pair.key as { value?: unknown } | null)?.value;
      if (typeof key !== 'symbol' || key.description !== '<<') continue;
      const value = resolved(pair.value as Node | null);
      const sources = value && isSeq(value) ? value.items.map((i) => resolved(i as Node)) : [value];
      for (const source of sources) {
        const merged = childOf(source, step);
        if (merged !== undefined) return merged;
      }
    }
    return undefined;
  };
  let node = y.doc.contents as Node | null | undefined;
  for (const step of path) node = childOf(resolved(node), step);
  return resolved(node);
}

/** The line a path of the document was written on: its node's, else its key's, else the nearest enclosing one's. */
export function lineAt(y: LoadedYaml, path: (string | number)[]): number {
  const { isMap, isSeq } = yaml();
  for (let n = path.length; n >= 0; n--) {
    const node = nodeAt(y, path.slice(0, n));
    if (node && typeof node === 'object' && 'range' in node && node.range) return y.lines.linePos(node.range[0]).line;
    // a key node's position is the next best thing for scalars that lost their node
    if (n > 0) {
      const parent = nodeAt(y, path.slice(0, n - 1));
      if (parent && isMap(parent)) {
        const pair = parent.items.find((p) => (p.key as { value?: unknown })?.value === path[n - 1]);
        const k = pair?.key as Node | undefined;
        if (k?.range) return y.lines.linePos(k.range[0]).line;
      }
      if (parent && isSeq(parent)) {
        const item = parent.items[path[n - 1] as number] as Node | undefined;
        if (item?.range) return y.lines.linePos(item.range[0]).line;
      }
    }
  }
  return 1;
}

const schemaValidators = new Map<string, Ajv>();

/**
 * One Ajv per schema folder, holding both spec schemas so site.yaml can refer to the route
 * definition. The schemas ship with the engine and its tests compile them, so they are not
 * checked against the meta-schema at every start; nor is Ajv's code optimiser run on what is
 * used a few dozen times.
 */
function specSchemas(schemaDir: string): Ajv {
  let ajv = schemaValidators.get(schemaDir);
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { optimize: false } });
    for (const f of ['namespace.schema.json', 'site.schema.json']) ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, f), 'utf8')));
    schemaValidators.set(schemaDir, ajv);
  }
  return ajv;
}

export function checkAgainstSchema(y: LoadedYaml, schemaDir: string, id: string, problems: Diagnostic[]): boolean {
  const validate = specSchemas(schemaDir).getSchema(id)!;
  if (validate(y.value)) return true;
  for (const e of validate.errors as ErrorObject[]) {
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const at = path.length ? path.join('.') : '(top level)';
    const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
    problems.push(diagnostic({ file: y.file, line: lineAt(y, path) }, 'spec-schema', `${at} ${e.message}${extra}`));
  }
  return false;
}

