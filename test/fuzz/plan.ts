import type { TestServer } from '../helpers/server.ts';
import {
  fillPath,
  fuzzAgent,
  HOSTILE_BODIES,
  HOSTILE_MARKUP_SHAPES,
  HOSTILE_MARKUP_URLS,
  HOSTILE_NUMBERS,
  HOSTILE_VALUES,
  jsonBody,
  MARKUP_ARG,
  pool,
  problemWith,
  queryString,
  validValue,
  type ArgInfo,
  type Caller,
  type FuzzRequest,
  type IndexedRoute,
  type PathValues,
} from './support.ts';

/**
 * What the fuzz sends to each endpoint of the live index. One hostile arg at a time, the others
 * valid: absent (only the required ones), or all of them given, each enum taking its values in
 * turn and each free string a word the site knows (a type, a taxonomy, an id), since a route's
 * deeper code runs only for some of them (term-select pages terms only for a real `source`).
 * By default every arg gets a sample of the hostile values of its kind, each with the next valid
 * context in turn, and each endpoint one of its methods; FUZZ_FULL=1 sends every value in every
 * context with every method.
 */
export const FULL = process.env.FUZZ_FULL === '1';
const SAMPLE_VALUES = 3;
const SAMPLE_BODIES = 3;
const SAMPLE_CONTEXTS = 2;
const CONCURRENCY = 6;
/** Longer query strings go as a JSON body with the method overridden: Node refuses long URLs itself. */
const MAX_QUERY = 6000;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** A small stable hash, so each route, arg and caller samples its own values, the same ones on every run. */
export const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** `count` items spread over the list from a place the seed picks; all of them under FUZZ_FULL. */
export function sample<T>(items: T[], count: number, seed: string): T[] {
  if (FULL || items.length <= count) return items;
  const start = hash(seed) % items.length;
  return Array.from({ length: count }, (_, i) => items[(start + i * 7) % items.length]);
}

const preview = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 40)}…(${s.length})` : s;
};

const typesOf = (arg: ArgInfo) => (Array.isArray(arg.type) ? arg.type : [arg.type]);
const isNumeric = (arg: ArgInfo) => typesOf(arg).some((t) => t === 'number' || t === 'integer' || t === 'int');
const isFreeString = (arg: ArgInfo) => !arg.enum?.length && !arg.format && typesOf(arg).includes('string');

/** The hostile values of an arg's own kind: a number at ±1e300 and another for a numeric arg; a broken URL and a broken shape in markup for one that carries it. */
function ofItsKind(name: string, arg: ArgInfo, seed: string): unknown[] {
  if (isNumeric(arg)) return [...sample(HOSTILE_NUMBERS.slice(0, 2), 1, seed), ...sample(HOSTILE_NUMBERS.slice(2), 1, seed)];
  if (MARKUP_ARG.test(name) && (typesOf(arg).includes('string') || typesOf(arg).includes('object') || arg.type === undefined)) return [...sample(HOSTILE_MARKUP_URLS, 1, seed), ...sample(HOSTILE_MARKUP_SHAPES, 1, seed)];
  return [];
}

/**
 * The valid contexts of an endpoint's args: the required ones alone, then every arg given, the
 * i-th context giving each enum its i-th value and each free string (past the first context,
 * which gives its default) the i-th known word, as many as the longest of those lists (each value
 * is used at least once).
 */
export function validContexts(args: Record<string, ArgInfo>, words: string[]): Record<string, unknown>[] {
  const entries = Object.entries(args);
  const required = Object.fromEntries(entries.filter(([, a]) => a.required).map(([n, a]) => [n, validValue(a)]));
  const hasFree = entries.some(([, a]) => isFreeString(a));
  const count = Math.max(1, hasFree ? words.length + 1 : 0, ...entries.map(([, a]) => a.enum?.length ?? a.items?.enum?.length ?? 0));
  const given = Array.from({ length: count }, (_, i) =>
    Object.fromEntries(
      entries.map(([n, a]) => {
        if (a.enum?.length) return [n, a.enum[i % a.enum.length]];
        if (a.items?.enum?.length) return [n, [a.items.enum[i % a.items.enum.length]]];
        if (isFreeString(a) && i > 0) return [n, words[(i - 1) % words.length]];
        return [n, validValue(a)];
      }),
    ),
  );
  return [required, ...given];
}

/** The requests one caller sends to one route; `words` are the free strings the valid contexts take in turn. */
export function requestsFor(route: IndexedRoute, caller: Caller, paths: PathValues, words: string[]): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  const path = fillPath(route.key, paths).replace(/^\//, '');
  const hasVariables = path !== route.key.replace(/^\//, '');
  for (const endpoint of route.endpoints) {
    const methods = sample(endpoint.methods, 1, `${route.key}|${caller.name}|${endpoint.methods}`);
    const contexts = validContexts(endpoint.args, words);
    for (const method of methods) {
      const label = (what: string) => `${caller.name} ${method} /${path} ${what}`;
      const send = (what: string, params: Record<string, unknown>, at = path) => out.push(withParams({ label: label(what), method, path: at, auth: caller.auth }, params));
      const contextsSent = sample(contexts.map((c, i) => [c, i] as const), SAMPLE_CONTEXTS, `${route.key}|${method}|contexts|${caller.name}`);
      for (const [context, i] of contextsSent) send(`(valid context ${i})`, context);
      let turn = hash(`${route.key}|${method}|${caller.name}`);
      for (const [name, arg] of Object.entries(endpoint.args) as [string, ArgInfo][]) {
        const seed = `${route.key}|${method}|${name}|${caller.name}`;
        const values = [validValue(arg), ...sample(HOSTILE_VALUES, SAMPLE_VALUES, seed), ...ofItsKind(name, arg, `${seed}|kind`)];
        for (const value of values) {
          const chosen = FULL ? contexts.map((c, i) => [c, i] as const) : [[contexts[turn % contexts.length], turn++ % contexts.length] as const];
          for (const [context, i] of chosen) send(`${name}=${preview(value)} (context ${i})`, { ...context, [name]: value });
        }
      }
      if (hasVariables) {
        for (const variable of sample(['0', '99999999999999999999', '9'.repeat(400)], 1, `${route.key}|path|${caller.name}`)) {
          const at = fillPath(route.key, paths, variable).replace(/^\//, '');
          send(`(path variables ${preview(variable)})`, contexts[0], at);
        }
      }
      if (BODY_METHODS.has(method) || method === 'DELETE') {
        for (const b of sample(HOSTILE_BODIES, SAMPLE_BODIES, `${route.key}|${method}|body|${caller.name}`))
          out.push({ label: label(`body: ${b.name}`), method, path, body: b.body, type: b.type, auth: caller.auth });
      }
    }
  }
  return out;
}

/** GET and DELETE carry params in the query (long ones as a JSON body under an override); the others in a JSON body. */
function withParams(r: FuzzRequest, params: Record<string, unknown>): FuzzRequest {
  if (BODY_METHODS.has(r.method)) return { ...r, body: jsonBody(params), type: 'application/json' };
  const qs = queryString(params);
  if (qs.length <= MAX_QUERY) return { ...r, path: qs ? `${r.path}?${qs}` : r.path };
  return { ...r, method: 'POST', headers: { 'x-http-method-override': r.method }, body: jsonBody(params), type: 'application/json' };
}

/**
 * Sends every caller's requests to every route; what was sent, and each problem found (see
 * problemWith). A route's requests are made when the pool reaches it, not all at once: the 200 KB
 * values in tens of thousands of bodies held the test process at 1.5 GB and busied its collector.
 */
export async function fuzzRoutes(server: TestServer, routes: IndexedRoute[], callers: Caller[], paths: PathValues, words: string[]): Promise<{ sent: number; problems: string[] }> {
  function* requests(): Generator<FuzzRequest> {
    for (const caller of callers) for (const route of routes) yield* requestsFor(route, caller, paths, words);
  }
  const problems: string[] = [];
  let sent = 0;
  const agent = fuzzAgent();
  try {
    await pool(requests(), CONCURRENCY, async (r) => {
      sent++;
      const problem = await problemWith(server, r, agent);
      if (problem) problems.push(problem);
    });
  } finally {
    await agent.close();
  }
  return { sent, problems };
}
