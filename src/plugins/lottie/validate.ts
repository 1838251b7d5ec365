import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Lottie documents checked against the Lottie Animation Community's specification schema, with its
 * own validator (@lottie-animation-community/lottie-specs over ajv): the top level must have the
 * version, frame rate, in and out points, size and layers the format requires, and every layer and
 * shape must be well-formed. Warnings (properties or types the specification does not list, which
 * bodymovin exports carry) are not errors.
 */

interface LottieValidatorError {
  type: 'error' | 'warning';
  message: string;
  path: string;
}

interface LottieValidator {
  validate(data: unknown, showWarnings?: boolean): LottieValidatorError[];
}

const require = createRequire(import.meta.url);

let validator: LottieValidator | undefined;

/** Built on first use: compiling the specification's schema takes a moment no other request should pay. */
function lottieValidator(): LottieValidator {
  if (validator) return validator;
  const { LottieValidator: Validator, get_schema_path } = require('@lottie-animation-community/lottie-specs/src/validator-node.js') as {
    LottieValidator: new (ajv: unknown, schema: unknown) => LottieValidator;
    get_schema_path(): string;
  };
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  return (validator = new Validator(Ajv, JSON.parse(readFileSync(get_schema_path(), 'utf8'))));
}

/** The problems that make `data` no Lottie animation, as `path: message` lines; empty when it is one. */
export function lottieProblems(data: unknown): string[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return ['the animation must be a JSON object'];
  const missing = ['v', 'fr', 'ip', 'op', 'layers'].filter((k) => !(k in data));
  // the bodymovin version string is what every player reads first; the specification keeps it optional
  if (missing.includes('v')) return ['the animation has no version (v)'];
  const problems = lottieValidator()
    .validate(data, false)
    .filter((e) => e.type === 'error')
    .map((e) => `${e.path || '(top level)'}: ${e.message}`);
  const { ip, op, layers } = data as { ip: unknown; op: unknown; layers: unknown };
  // the schema lets these through, yet no player can show them: an empty time range, a layer of no kind
  if (typeof ip === 'number' && typeof op === 'number' && op <= ip) problems.push('/op: the out point must come after the in point');
  if (Array.isArray(layers))
    layers.forEach((l, i) => {
      if (!l || typeof l !== 'object' || !Number.isInteger((l as { ty?: unknown }).ty)) problems.push(`/layers/${i}: a layer needs its type (ty) as an integer`);
    });
  return problems;
}
