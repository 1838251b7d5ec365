import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiRoot } from '../engine/api-root.ts';
import { openApiDocument } from '../engine/openapi.ts';
import { loadSpec, routesForVariant, type Variant } from '../engine/spec.ts';
import { renderReference } from './docs-html.ts';

/**
 * `cms-spec docs`: a static HTML reference of every namespace the spec declares for a variant (no
 * site needed: every plugin's routes, route templates as written), rendered from the same OpenAPI
 * document `cms-spec openapi` writes.
 */
export function docsCommand(o: { spec: string; variant: string; out: string; url: string }): void {
  const spec = loadSpec(o.spec);
  const variant = o.variant.toUpperCase() as Variant;
  const doc = openApiDocument(spec, { routes: routesForVariant(spec, variant), root: new ApiRoot(spec.apiPrefix), url: o.url, variant });
  const catalogues = [{ namespace: '', errors: spec.errors }, ...spec.namespaces.map((ns) => ({ namespace: ns.name, errors: ns.errors }))];
  const pages = renderReference(doc, catalogues);
  mkdirSync(o.out, { recursive: true });
  for (const p of pages) writeFileSync(join(o.out, p.file), p.html);
  console.log(`Wrote ${pages.length} pages to ${join(o.out, 'index.html')} and beside it.`);
}
