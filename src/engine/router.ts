import { decodePercent } from './url-decoding.ts';

/**
 * A segment tree: static children are looked up in a Map (case-insensitively, as WordPress matches
 * with `@i`), variable segments are tested against their pattern compiled once at start. Lookup
 * cost depends on the path's depth, not on the number of routes.
 */
interface ParamEdge<T> {
  name: string;
  test: RegExp;
  /** The pattern admits `/`, so the variable may take several segments (WordPress's plugin ids, `folder/file`). */
  spans: boolean;
  node: Node<T>;
}

interface Node<T> {
  statics: Map<string, Node<T>>;
  params: ParamEdge<T>[];
  value: T | undefined;
}

const newNode = <T>(): Node<T> => ({ statics: new Map(), params: [], value: undefined });

export interface Match<T> {
  value: T;
  params: Record<string, string>;
}

export class Router<T> {
  private root: Node<T> = newNode();

  /** Adds `/a/{id}/b` whose variables are described by `patterns`; the first route added wins a tie. */
  add(path: string, patterns: Record<string, string>, value: T): void {
    let node = this.root;
    for (const seg of splitPath(path)) {
      const variable = /^\{(\w+)\}$/.exec(seg);
      if (variable) {
        const name = variable[1];
        const source = patterns[name] ?? '[^/]+';
        let edge = node.params.find((p) => p.name === name && p.test.source === `^(?:${source})$`);
        if (!edge) {
          edge = { name, test: new RegExp(`^(?:${source})$`, 'i'), spans: source.includes('/'), node: newNode() };
          node.params.push(edge);
        }
        node = edge.node;
      } else {
        const key = seg.toLowerCase();
        let next = node.statics.get(key);
        if (!next) node.statics.set(key, (next = newNode()));
        node = next;
      }
    }
    node.value ??= value;
  }

  find(path: string): Match<T> | null {
    const segs: string[] = [];
    for (const seg of path.split('/')) if (seg !== '') segs.push(decodeSegment(seg));
    const params: Record<string, string> = {};
    const found = this.walk(this.root, segs, 0, params);
    return found === undefined ? null : { value: found, params };
  }

  private walk(node: Node<T>, segs: string[], i: number, params: Record<string, string>): T | undefined {
    if (i === segs.length) return node.value;
    const seg = segs[i];
    const next = node.statics.get(seg.toLowerCase());
    if (next) {
      const v = this.walk(next, segs, i + 1, params);
      if (v !== undefined) return v;
    }
    for (const edge of node.params) {
      // a spanning variable tries its longest match first, as a regex over the whole path would
      for (let end = edge.spans ? segs.length : i + 1; end > i; end--) {
        const value = end === i + 1 ? seg : segs.slice(i, end).join('/');
        if (!edge.test.test(value)) continue;
        const v = this.walk(edge.node, segs, end, params);
        if (v !== undefined) {
          params[edge.name] = value;
          return v;
        }
      }
    }
    return undefined;
  }
}

function decodeSegment(seg: string): string {
  return decodePercent(seg) ?? seg;
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}
