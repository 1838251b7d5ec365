import { loadSpec, routesForVariant, type RouteSpec, type Variant } from '../engine/spec.ts';

/**
 * `cms-spec routes`: method, route key, handler and permission, one endpoint a line; or, with
 * `--format markdown`, one route a row with its methods and what it follows (the README's table
 * of the core routes is this output).
 */
export function routesCommand(o: { spec: string; variant: string; namespace?: string; format?: string }): void {
  const spec = loadSpec(o.spec);
  const routes = routesForVariant(spec, o.variant.toUpperCase() as Variant).filter((r) => o.namespace === undefined || r.namespace === o.namespace);
  if (o.format === 'markdown') return console.log(markdownTable(routes));
  const rows = routes.flatMap((r) => r.endpoints.map((e) => [e.methods.join(','), r.key, e.handler, e.permission ?? '(none)']));
  const header = ['METHODS', 'ROUTE', 'HANDLER', 'PERMISSION'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) console.log(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
}

function markdownTable(routes: readonly RouteSpec[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const lines = ['| route | methods | follows |', '|---|---|---|'];
  for (const r of routes) {
    // a route template is written once and served per instance: shown as written
    const methods = [...new Set(r.endpoints.flatMap((e) => e.methods))].join(', ');
    lines.push(`| \`${cell(r.each ? r.fullPath : r.key)}\` | ${methods} | ${cell(r.follows ?? '')} |`);
  }
  return lines.join('\n');
}
