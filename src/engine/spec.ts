/**
 * The spec: a folder of YAML loaded into plain data (spec-model.ts). Its concerns are modules of
 * their own: reading and checking a file (spec-check.ts), what a file says once and uses many times
 * (spec-expand.ts), putting the folder together (spec-load.ts).
 */
import { join, resolve } from 'node:path';
import { cachedParse } from './parse-cache.ts';
import { LOADER_MODULES, namespaceIndexRoute, parseSpec, specFiles } from './spec-load.ts';
import type { RouteSpec, Spec, Variant } from './spec-model.ts';

export * from './spec-model.ts';
export { expandTemplates } from './spec-expand.ts';

/**
 * Loads `site.yaml` and `namespaces/*.yaml` from a spec folder, checks each against the spec's own
 * JSON Schema and returns plain data. Throws SpecError with every problem found.
 */
export function loadSpec(specDir: string): Spec {
  const dir = resolve(specDir);
  const files = specFiles(dir);
  const schemas = ['namespace.schema.json', 'site.schema.json'].map((f) => join(files.schemaDir, f));
  const loaded = cachedParse({ kind: 'spec', loader: import.meta.filename, files: [files.siteFile, ...schemas, ...files.namespaceFiles, ...LOADER_MODULES] }, () => parseSpec(dir, files));
  const routes: RouteSpec[] = [...loaded.rootRoutes];
  for (const ns of loaded.namespaces) routes.push(namespaceIndexRoute(ns), ...ns.routes);
  const { rootRoutes: _, ...spec } = loaded;
  return { ...spec, routes };
}

/** The routes and endpoints one variant serves, in registration order. */
export function routesForVariant(spec: Spec, variant: Variant): RouteSpec[] {
  return spec.routes
    .map((r) => ({ ...r, endpoints: r.endpoints.filter((e) => e.variants.includes(variant)) }))
    .filter((r) => r.endpoints.length > 0);
}
