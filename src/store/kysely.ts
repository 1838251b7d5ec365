import { createRequire } from 'node:module';

/**
 * kysely's runtime values, taken from its CommonJS build. Its ESM build is a graph of hundreds of
 * small modules, and under tsx's loader each one is resolved through the loader's thread: that
 * made kysely alone about a fifth of start-up. The CommonJS build is the same code, loaded by
 * require without the round trips. Types still come from 'kysely' (type imports cost nothing).
 */
export const kysely = createRequire(import.meta.url)('kysely') as typeof import('kysely');
export const sql = kysely.sql;
