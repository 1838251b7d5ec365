import { createRequire } from 'node:module';
import type { Ajv as AjvClass } from 'ajv';

/**
 * Ajv's class, required rather than imported: an ESM import of a CommonJS module first scans its
 * source for export names, and dist/'s Ajv is one 260 KB bundle (scripts/build.js), so the scan
 * alone would cost a start about 30 ms. Types still come from 'ajv'.
 */
export const Ajv = (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv;
export type Ajv = AjvClass;
