import { formatDiagnostic } from '../engine/diagnostics.ts';
import { lintSpec } from '../engine/lint.ts';
import type { PermissionNames } from '../engine/lint-permissions.ts';
import type { Spec } from '../engine/spec.ts';

/**
 * The capabilities a permission may name: every role's (WordPress's defaults, roles.json) with what
 * every installed plugin grants, active or not (lint checks the whole spec, not one site's state).
 * None for an API served without the CMS (`core: false`): its callers' capabilities are whatever its
 * own authenticator says, which lint cannot know.
 */
export async function corePermissionNames(spec: Spec): Promise<PermissionNames | null> {
  if (spec.settings.core === false) return null;
  // the CMS's modules are loaded only for a spec served with it
  const [{ Roles, ROLES }, { discoverPlugins, pluginDirs }] = await Promise.all([import('../auth/roles.ts'), import('../core/plugins.ts')]);
  const plugins = await discoverPlugins(pluginDirs(spec));
  const roles = new Roles(plugins.flatMap((p) => (p.def?.capabilities ? [p.def.capabilities] : [])), plugins.flatMap((p) => (p.def?.metaCapabilities ? [p.def.metaCapabilities] : [])));
  return { capabilities: new Set(ROLES.flatMap((role) => [...roles.capabilitiesOf(role)])), roles: new Set(ROLES) };
}

export async function lintCommand(o: { spec: string; format: string }): Promise<void> {
  const findings = await lintSpec(o.spec, { permissionNames: corePermissionNames });
  if (o.format === 'json') console.log(JSON.stringify(findings, null, 2));
  else for (const f of findings) console.log(formatDiagnostic(f));
  const errors = findings.filter((f) => f.severity === 'error').length;
  if (o.format !== 'json') console.log(`${errors} error(s), ${findings.length - errors} warning(s)`);
  process.exitCode = errors ? 1 : 0;
}
