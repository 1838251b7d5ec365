import type { Report } from './diagnostics.ts';
import { ALL_VARIANTS, routesForVariant, type RouteSpec, type Spec } from './spec.ts';

/**
 * A path segment as the router (router.ts) keys it: a static one by its lower-cased text (a
 * template's `<placeholder>` stays as written: its instances differ from every other text), a
 * variable by its name and pattern, with its rank among its node's variables (the router tries
 * them in the order they were first added).
 */
type Segment = { kind: 'static'; key: string } | { kind: 'param'; name: string; pattern: string; rank: number };

interface Shape {
  route: RouteSpec;
  segments: Segment[];
  /** A variable whose pattern admits `/` spans several segments; such routes are not compared. */
  spans: boolean;
}

interface TrieNode {
  statics: Map<string, TrieNode>;
  params: { name: string; pattern: string; node: TrieNode }[];
}

const ANY_SEGMENT = '[^/]+';

/** The routes of one variant as the router's tree holds them, in registration order. */
function shapesOf(routes: readonly RouteSpec[]): Shape[] {
  const root: TrieNode = { statics: new Map(), params: [] };
  return routes.map((route) => {
    let node = root;
    let spans = false;
    const segments = route.fullPath.split('/').filter(Boolean).map((seg): Segment => {
      const variable = /^\{(\w+)\}$/.exec(seg);
      if (!variable) {
        const key = seg.toLowerCase();
        if (!node.statics.has(key)) node.statics.set(key, { statics: new Map(), params: [] });
        node = node.statics.get(key)!;
        return { kind: 'static', key };
      }
      const [name, pattern] = [variable[1], route.params[variable[1]] ?? ANY_SEGMENT];
      spans ||= pattern.includes('/');
      let rank = node.params.findIndex((p) => p.name === name && p.pattern === pattern);
      if (rank < 0) rank = node.params.push({ name, pattern, node: { statics: new Map(), params: [] } }) - 1;
      node = node.params[rank].node;
      return { kind: 'param', name, pattern, rank };
    });
    return { route, segments, spans };
  });
}

const sameSegment = (a: Segment, b: Segment) => (a.kind === 'static' ? b.kind === 'static' && a.key === b.key : b.kind === 'param' && a.name === b.name && a.pattern === b.pattern);

/**
 * A pattern of one character class repeated (`[\d]+`, `\w+`, `[^/]+`, `[a-z0-9_-]{2,}`), the form of
 * nearly every path variable: its class as a one-character regex and its length bounds.
 */
function repeatedClass(pattern: string): { char: RegExp; min: number; max: number } | null {
  const m = /^(\[(?:\\.|[^\]\\])+\]|\\[dDwWsS]|\.)(\+|\*|\{(\d+)(,(\d*))?\})?$/.exec(pattern);
  if (!m) return null;
  const [min, max] = m[2] === '+' ? [1, Infinity] : m[2] === '*' ? [0, Infinity] : m[3] === undefined ? [1, 1] : [Number(m[3]), m[4] === undefined ? Number(m[3]) : m[5] === '' ? Infinity : Number(m[5])];
  try {
    return { char: new RegExp(`^(?:${m[1]})$`, 'i'), min, max };
  } catch {
    return null; // path-args reports a pattern that does not compile
  }
}

const classContains = new Map<string, boolean>();

/** Whether every character (of the Basic Multilingual Plane) the inner class admits, the outer admits too. */
function charsWithin(inner: RegExp, outer: RegExp): boolean {
  const key = `${inner.source} ${outer.source}`;
  let within = classContains.get(key);
  if (within === undefined) {
    within = true;
    for (let c = 0; c <= 0xffff && within; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCharCode(c);
      if (inner.test(ch) && !outer.test(ch)) within = false;
    }
    classContains.set(key, within);
  }
  return within;
}

/** Whether every value the inner segment takes, the outer takes too; false whenever that cannot be shown. */
function segmentWithin(inner: Segment, outer: Segment): boolean {
  if (outer.kind === 'static') return inner.kind === 'static' && inner.key === outer.key;
  if (inner.kind === 'static') return !inner.key.includes('<') && new RegExp(`^(?:${outer.pattern})$`, 'i').test(inner.key);
  if (inner.pattern === outer.pattern) return true;
  const [i, o] = [repeatedClass(inner.pattern), repeatedClass(outer.pattern)];
  return !!i && !!o && i.min >= o.min && i.max <= o.max && charsWithin(i.char, o.char);
}

/**
 * Whether the router gives every path `lost` matches to `winner` (or to a route it tries before
 * it): the router walks its tree trying a static segment before variables and variables in the
 * order they were first added (by any route, so a route added later may still be tried first), so
 * at the first segment where the two differ `winner` must be tried first, and from there on each of
 * its segments must take every value `lost`'s does. Two routes of the same segments share a leaf,
 * which the first one added keeps.
 */
function shadows(winner: Shape, lost: Shape, winnerFirst: boolean): boolean {
  if (winner.spans || lost.spans || winner.segments.length !== lost.segments.length) return false;
  const at = winner.segments.findIndex((s, i) => !sameSegment(s, lost.segments[i]));
  if (at < 0) return winnerFirst;
  const [w, l] = [winner.segments[at], lost.segments[at]];
  if (w.kind !== 'param' || l.kind !== 'param' || w.rank > l.rank) return false;
  return winner.segments.every((s, i) => i < at || segmentWithin(lost.segments[i], s));
}

/**
 * route-unreachable: a route every path of which the router gives to another one, in a variant
 * that serves both. The router picks a route by its path alone and only then looks for the method,
 * so the route is lost whatever methods each serves (its requests answer rest_no_route). Only what
 * can be shown is reported: one other route covering it, with patterns of the same form.
 */
export function checkUnreachableRoutes(spec: Spec, report: Report): void {
  for (const variant of ALL_VARIANTS) {
    const shapes = shapesOf(routesForVariant(spec, variant));
    shapes.forEach((lost, i) => {
      const winner = shapes.find((s, j) => j !== i && shadows(s, lost, j < i));
      if (winner) {
        const { route } = winner;
        report(lost.route.pos, 'route-unreachable', `route ${lost.route.key} is never reached: the router gives every path it matches to ${route.key} (${route.pos.file}:${route.pos.line}), whatever the method`);
      }
    });
  }
}
