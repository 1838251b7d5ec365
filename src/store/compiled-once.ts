import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { isPostgres } from './portable.ts';
import { storable } from './postgres-plugin.ts';

/** Shapes kept per dialect: a site's request paths use a few dozen (lists of ids give one per length). */
const KEPT_SHAPES = 500;

/** Each dialect's kept shapes: the query compiled for the first of a shape, or null for a shape whose values are not bound as given. */
const keptShapes = { sqlite: new Map<string, CompiledQuery | null>(), postgres: new Map<string, CompiledQuery | null>() };

/**
 * A query compiled once per shape. `shape` names everything of the query but its values (which
 * filters it has and how many values each, its order, its page size, its columns); `values` are
 * its parameters in the order kysely binds them. The first query of a shape is built and
 * compiled, and when its parameters are `values` its text is kept: later queries of the shape bind
 * their values to that text without building anything (kysely's builders, its compiler and, on
 * PostgreSQL, the plugin's walk of the whole tree: kysely took 71 µs of a list request, profiled
 * under load). A shape whose first parameters are not `values` (a value made into SQL) is built
 * every time. Past KEPT_SHAPES the shape kept longest is dropped, and built again when it comes back.
 *
 * The caller's shape must name everything that changes the text: two queries of one shape share it.
 */
export function compiledOnce<R>(db: Kysely<any>, shape: string, values: readonly unknown[], build: () => Compilable<R>): CompiledQuery<R> {
  const postgres = isPostgres(db);
  const shapes = keptShapes[postgres ? 'postgres' : 'sqlite'];
  // PostgreSQL's text holds no NUL: the plugin drops it from the values of a built query, and from these
  const parameters = postgres ? values.map(storable) : values;
  const found = shapes.get(shape);
  if (found) return { ...found, parameters } as CompiledQuery<R>;
  const compiled = build().compile();
  if (found === undefined) {
    shapes.set(shape, sameValues(compiled.parameters, parameters) ? compiled : null);
    if (shapes.size > KEPT_SHAPES) shapes.delete(shapes.keys().next().value!);
  }
  return compiled;
}

/**
 * A row's columns as kysely writes them in an insert or an update (those whose value is undefined
 * left out), for the shape (their names, in order) and the values compiledOnce is given.
 */
export function definedColumns(row: Readonly<Record<string, unknown>>): { names: string; values: unknown[] } {
  const names: string[] = [];
  const values: unknown[] = [];
  for (const name in row) {
    if (row[name] === undefined) continue;
    names.push(name);
    values.push(row[name]);
  }
  return { names: names.join(','), values };
}

const sameValues = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
