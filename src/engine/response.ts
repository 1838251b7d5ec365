/** Response shaping that WordPress applies after dispatch: `_fields`, JSON encoding (`_envelope`'s headers: wp-rest.ts). */

type FieldTree = Map<string, FieldTree | true>;

/** `a,b.c` → {a: true, b: {c: true}}; a listed parent wins over its children (rest_filter_response_fields). */
export function parseFields(spec: string): FieldTree {
  const tree: FieldTree = new Map();
  for (const raw of spec.split(/[\s,]+/)) {
    const path = raw.trim();
    if (!path) continue;
    let node = tree;
    const parts = path.split('.');
    for (let i = 0; i < parts.length; i++) {
      const existing = node.get(parts[i]);
      if (existing === true) break;
      if (i === parts.length - 1) {
        node.set(parts[i], true);
        break;
      }
      let next = existing;
      if (!next) node.set(parts[i], (next = new Map()));
      node = next;
    }
  }
  return tree;
}

function pick(data: unknown, tree: FieldTree): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of tree) {
    if (!(k in (data as object))) continue;
    const v = (data as Record<string, unknown>)[k];
    out[k] = sub === true ? v : pick(v, sub);
  }
  return out;
}

/** Keeps only the listed fields, per item for a list body. */
export function filterFields(data: unknown, tree: FieldTree): unknown {
  return Array.isArray(data) ? data.map((item) => pick(item, tree)) : pick(data, tree);
}

export function fieldsInclude(tree: FieldTree, key: string): boolean {
  return tree.has(key);
}

/** JSON as the response body; `_pretty` indents as PHP's JSON_PRETTY_PRINT does. */
export function encodeJson(data: unknown, pretty: boolean): string {
  return pretty ? JSON.stringify(data, null, 4) : JSON.stringify(data);
}
