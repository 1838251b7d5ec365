import { createRequire } from 'node:module';

/**
 * kysely's runtime values, taken from its CommonJS build. Its ESM build is a graph of hundreds of
 * small modules, and when cms-spec runs from its sources (tests, or after an edit, before
 * `npm run build`) tsx's loader resolves each one through its thread: about 140 ms of start-up.
 * The CommonJS build is the same code, loaded by require without the round trips; from dist/
 * the two load alike. Types still come from 'kysely' (type imports cost nothing).
 */
export const kysely = createRequire(import.meta.url)('kysely') as typeof import('kysely');
export const sql = kysely.sql;
