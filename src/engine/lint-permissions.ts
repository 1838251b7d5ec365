import { simple } from 'acorn-walk';
import { handlerModuleFile, splitHandlerName } from './compile.ts';
import { didYouMean } from './did-you-mean.ts';
import type { Report } from './diagnostics.ts';
import type { SourceModules } from './lint-source.ts';
import { BUILTIN_HANDLERS, type SourcePos, type Spec } from './spec.ts';

/**
 * The names a permission may use. The engine knows no CMS, so the application says which exist
 * (the CLI: the core's roles and what its plugins grant).
 */
export interface PermissionNames {
  /** Every capability some role can hold. */
  capabilities: ReadonlySet<string>;
  /** The roles: a user holds their capabilities, never their names, so a permission naming one admits nobody. */
  roles: ReadonlySet<string>;
}

/** The engine's own permission: anyone, logged in or not. */
const PUBLIC = 'public';

/**
 * permission-known: each capability of each endpoint's `permission` (each part of `a|b`) is one some
 * role can hold, and so is each capability a handler checks by name (`ctx.can('edit_posts')`, in its
 * module or any module it imports; a name computed at run time is not checked). A misspelt one
 * (`pubic`) admits nobody, the administrator included. Reported where the name was written (a
 * file's `defaults:` line for an inherited permission), once per line and name.
 */
export function checkPermissionNames(spec: Spec, names: PermissionNames, sources: SourceModules, report: Report): void {
  const known = [PUBLIC, ...names.capabilities];
  /** `named` is how the message shows the name where it was written, `never` what that means. */
  const check = (capability: string, at: SourcePos, named: string, never: string) => {
    if (names.roles.has(capability) && !names.capabilities.has(capability))
      report(at, 'permission-known', `'${capability}' is a role, not a capability: users are checked against their role's capabilities, never its name, so ${named} ${never}`);
    else if (!names.capabilities.has(capability)) report(at, 'permission-known', `${named} names no capability any role holds, so it ${never}${didYouMean(capability, known)}`);
  };
  const handlerFiles = new Set<string>();
  for (const route of spec.routes) {
    for (const e of route.endpoints) {
      for (const name of [e.handler, ...(e.check ? [e.check] : [])]) {
        if (BUILTIN_HANDLERS.has(name)) continue;
        const file = handlerModuleFile(route.handlersDir, splitHandlerName(name)[0]);
        if (file) handlerFiles.add(file);
      }
      if (e.permission === undefined) continue; // permission-declared reports it
      const at = e.permissionPos ?? e.pos;
      const parts = e.permission.split('|');
      for (const part of parts) {
        if (part !== PUBLIC) check(part, at, `permission '${part}'`, 'admits nobody');
        else if (parts.length > 1) report(at, 'permission-known', `'public' in '${e.permission}' is checked as a capability nobody holds: 'public' admits anyone only on its own`);
      }
    }
  }
  for (const mod of sources.reachable(handlerFiles)) {
    simple(mod.program, {
      CallExpression(call) {
        const [first] = call.arguments;
        const callee = call.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier' || callee.property.name !== 'can') return;
        if (first?.type === 'Literal' && typeof first.value === 'string') check(first.value, mod.posOf(first), `can('${first.value}')`, 'is never true');
      },
    });
  }
}
