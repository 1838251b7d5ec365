import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { SpecError } from '../engine/diagnostics.ts';
import { loadSpec, type Spec } from '../engine/spec.ts';
import { generateTypes } from '../engine/typegen.ts';
import { action, CliError } from './errors.ts';

/**
 * `cms-spec types`: writes the handlers' arg and answer types generated from the spec; with
 * `--check`, writes nothing and fails when the file is not what the spec generates now (CI).
 */
export const typesCommand = action((o: TypesOptions) => ({ spec: o.spec }), async (o: TypesOptions) => {
  const out = resolve(o.out);
  // the header names the spec folder as seen from the file, so the text is the same from any working folder
  const text = typesOf(loadSpec(o.spec), relative(dirname(out), resolve(o.spec)) || '.', dirname(out));
  if (o.check) {
    if (!existsSync(out) || readFileSync(out, 'utf8') !== text) throw new CliError(`${o.out} is out of date with the spec in ${o.spec}; run \`cms-spec types --spec ${o.spec} --out ${o.out}\` and commit it.`);
    console.log(`${o.out} is up to date.`);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  if (!existsSync(out) || readFileSync(out, 'utf8') !== text) writeFileSync(out, text);
  console.log(`wrote ${o.out}`);
});

/** The generated text; a spec that loads but cannot be typed (two handler folders of one name) is the user's to fix. */
function typesOf(spec: Spec, from: string, outDir: string): string {
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
