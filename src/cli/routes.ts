import { loadSpec, routesForVariant, type Variant } from '../engine/spec.ts';

/** `cms-spec routes`: method, route key, handler and permission, one endpoint a line. */
export function routesCommand(o: { spec: string; variant: string }): void {
  const spec = loadSpec(o.spec);
  const rows = routesForVariant(spec, o.variant.toUpperCase() as Variant).flatMap((r) =>
    r.endpoints.map((e) => [e.methods.join(','), r.key, e.handler, e.permission ?? '(none)']),
  );
  const header = ['METHODS', 'ROUTE', 'HANDLER', 'PERMISSION'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
}
