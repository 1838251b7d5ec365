import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { SpecError } from '../engine/diagnostics.ts';
import { loadSpec, type Spec } from '../engine/spec.ts';
import { answersFileOf, generateTypes, type GeneratedTypes } from '../engine/typegen.ts';
import { action, CliError } from './errors.ts';

/**
 * `cms-spec types`: writes the handlers' arg and answer types generated from the spec; with
 * `--check`, writes nothing and fails when the file is not what the spec generates now (CI).
 */
export const typesCommand = action((o: TypesOptions) => ({ spec: o.spec }), async (o: TypesOptions) => {
  const out = resolve(o.out);
  // the header names the spec folder as seen from the file, so the text is the same from any working folder
  const generated = typesOf(loadSpec(o.spec), relative(dirname(out), resolve(o.spec)) || '.', dirname(out));
  // the spec's types, and beside them the handlers' answers (absent when no handler is a TypeScript module)
  const files: [string, string, string | null][] = [
    [o.out, out, generated.types],
    [answersFileOf(o.out), answersFileOf(out), generated.answers],
  ];
  const current = (file: string, text: string | null) => (existsSync(file) ? readFileSync(file, 'utf8') === text : text === null);
  if (o.check) {
    const stale = files.find(([, file, text]) => !current(file, text));
    if (stale) throw new CliError(`${stale[0]} is out of date with the spec in ${o.spec}; run \`cms-spec types --spec ${o.spec} --out ${o.out}\` and commit it.`);
    console.log(`${o.out} is up to date.`);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  for (const [, file, text] of files) {
    if (current(file, text)) continue;
    if (text === null) rmSync(file);
    else writeFileSync(file, text);
  }
  console.log(`wrote ${o.out}`);
});

/** The generated text; a spec that loads but cannot be typed (two handler folders of one name) is the user's to fix. */
function typesOf(spec: Spec, from: string, outDir: string): GeneratedTypes {
  try {
    return generateTypes(spec, from, outDir);
  } catch (e) {
    if (e instanceof SpecError) throw new CliError(e.message);
    throw e;
  }
}

interface TypesOptions {
  spec: string;
  out: string;
  check?: boolean;
}
