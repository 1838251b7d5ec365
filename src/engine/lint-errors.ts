/**
 * The error catalogue checks of `cms-spec lint`: every code a namespace's handlers can raise is
 * declared (its `errors:`, site.yaml's, or the engine's own), and every declared code is raised
 * somewhere. Codes are found in the source, not by running it: each handler module an endpoint
 * names and every module it imports (relative imports, outside the engine) is stripped of its
 * types by esbuild and walked by acorn for `ctx.fail('code', …)` and `new RestError('code', …)`,
 * and for calls of the helpers that pass a parameter on as the code (`denied(ctx,
 * 'rest_cannot_read')`, where `denied = (ctx, code, values) => ctx.fail(code, values, …)`).
 */
import { relative, resolve } from 'node:path';
import { handlerModuleFile, splitHandlerName } from './compile.ts';
import { ENGINE_ERRORS } from './errors.ts';
import { BUILTIN_HANDLERS, type ErrorSpec, type SourcePos, type Spec } from './spec.ts';
import type { Report } from './diagnostics.ts';
import { isFunction, type SourceModule, type SourceModules } from './lint-source.ts';

/** A place in a module that raises an error. */
interface Raise {
  /** The code, or null when it is not written as a literal (so no search finds it). */
  code: string | null;
  /** The names a `ctx.fail` call gives values for, or null when they are not an object literal of plain keys. */
  values: string[] | null;
  pos: SourcePos;
}

/** A call with string literals among its arguments: a raise when it calls a helper that passes one on as the code. */
interface Call {
  name: string;
  literals: (string | null)[];
  pos: SourcePos;
  /** The raise it is, once known (the same object for every namespace, so it is reported once). */
  raise?: Raise;
}

/** A call, inside a named function, passing one of that function's parameters on to another function. */
interface Forward {
  from: string;
  param: number;
  to: string;
  arg: number;
}

interface ScannedModule {
  raises: Raise[];
  /** Functions of the module that raise with a parameter as the code: its index, by function name. */
  helpers: Map<string, number>;
  calls: Call[];
  forwards: Forward[];
}

const ENGINE_DIR = import.meta.dirname;
const PLACEHOLDER = /\{(\w+)\}/g;

export function checkErrorCatalogues(spec: Spec, sources: SourceModules, report: Report): void {
  const scanned = new Map<SourceModule, ScannedModule>();
  const scan = (mod: SourceModule) => {
    if (!scanned.has(mod)) scanned.set(mod, scanModule(mod));
    return scanned.get(mod)!;
  };
  const shared = spec.errors;
  // by declaration (where it is written): a namespace that takes another's codes ($use) holds the same ones
  const raised = new Set<string>();
  const declaration = (code: string, e: ErrorSpec) => `${e.pos.file}:${e.pos.line}:${code}`;
  // a module several namespaces import is reported once per raise, naming every namespace it fails in
  const undeclared = new Map<Raise, string[]>();
  const namespaces = [{ name: '', own: {} as Record<string, ErrorSpec> }, ...spec.namespaces.map((ns) => ({ name: ns.name, own: ns.errors }))];
  for (const { name, own } of namespaces) {
    const modules = reachableModules(spec, name, sources).map(scan);
    const helpers = helpersOf(modules);
    for (const m of modules) {
      const viaHelpers = m.calls.filter((c) => helpers.has(c.name)).map((c) => (c.raise ??= { code: c.literals[helpers.get(c.name)!] ?? null, values: null, pos: c.pos }));
      for (const r of [...m.raises, ...viaHelpers]) {
        if (r.code === null) {
          report(r.pos, 'error-code-literal', 'the error code is not a string literal, so lint cannot check that a catalogue declares it', 'warning');
          continue;
        }
        const declared = own[r.code] ?? shared[r.code];
        if (declared) raised.add(declaration(r.code, declared));
        const entry: { message: string } | undefined = declared ?? ENGINE_ERRORS[r.code as keyof typeof ENGINE_ERRORS];
        if (!entry) undeclared.set(r, [...(undeclared.get(r) ?? []), name || 'the root routes']);
        else if (r.values) {
          const missing = [...entry.message.matchAll(PLACEHOLDER)].map((m) => m[1]).filter((v) => !r.values!.includes(v));
          if (missing.length) report(r.pos, 'error-values', `error ${r.code} gets no value for {${missing.join('}, {')}} of its message`);
        }
      }
    }
  }
  for (const [r, names] of undeclared) {
    const where = names.length > 1 ? `the errors: of each of ${names.join(', ')}, or of site.yaml` : `the errors: of ${names[0]} or of site.yaml`;
    report(r.pos, 'error-undeclared', `error code ${r.code} is not declared: add it to ${where}`);
  }
  for (const catalogue of [shared, ...spec.namespaces.map((ns) => ns.errors)])
    for (const [code, e] of Object.entries(catalogue)) {
      const other = code in ENGINE_ERRORS ? 'the engine' : catalogue !== shared && shared[code] ? `${shared[code].pos.file}:${shared[code].pos.line}` : null;
      if (other) report(e.pos, 'error-declared-twice', `error code ${code} is already declared by ${other}`);
      if (!raised.has(declaration(code, e))) report(e.pos, 'error-unused', `error code ${code} is declared, but no handler that answers with it raises it`, 'warning');
    }
}

/** The handler modules a namespace's endpoints name and every module they import, the engine's own excepted. */
function reachableModules(spec: Spec, namespace: string, sources: SourceModules): SourceModule[] {
  const files = new Set<string>();
  for (const route of spec.routes) {
    if (route.namespace !== namespace) continue;
    for (const name of route.endpoints.flatMap((e) => [e.handler, ...(e.check ? [e.check] : [])])) {
      if (BUILTIN_HANDLERS.has(name)) continue;
      const file = handlerModuleFile(route.handlersDir, splitHandlerName(name)[0]);
      if (file) files.add(resolve(file)); // a missing one is handler-exists's finding
    }
  }
  return sources.reachable(files).filter((m) => !isInside(ENGINE_DIR, m.file));
}

const isInside = (dir: string, file: string) => !relative(dir, file).startsWith('..');

type AstNode = { type: string; start: number; end: number; [key: string]: unknown };

/** The raises of one module, the helpers it declares and the calls that may be raises through them. */
function scanModule(source: SourceModule): ScannedModule {
  const module: ScannedModule = { raises: [], helpers: new Map(), calls: [], forwards: [] };
  const at = (node: AstNode): SourcePos => source.posOf(node as never);
  const raise = (codeArg: AstNode | undefined, values: string[] | null, node: AstNode, functions: Enclosing[]) => {
    const code = literal(codeArg);
    // a parameter passed on as the code makes its function a helper: its callers' literals are the codes
    const helper = code === null && codeArg?.type === 'Identifier' ? forwardingFunction(functions, String(codeArg.name)) : null;
    if (helper) module.helpers.set(helper.name, helper.index);
    else module.raises.push({ code, values, pos: at(node) });
  };
  walk(source.program as unknown as AstNode, (node, functions) => {
    if (node.type === 'NewExpression' && isNamed(node.callee, 'RestError')) {
      raise(args(node)[0], null, node, functions);
    } else if (node.type === 'CallExpression' && isMethod(node.callee, 'fail')) {
      raise(args(node)[0], valueNames(args(node)[1]), node, functions);
    } else if (node.type === 'CallExpression' && (node.callee as AstNode).type === 'Identifier') {
      const name = String((node.callee as AstNode).name);
      const literals = args(node).map((a) => literal(a));
      if (literals.some((l) => l !== null)) module.calls.push({ name, literals, pos: at(node) });
      args(node).forEach((a, arg) => {
        const from = a.type === 'Identifier' ? forwardingFunction(functions, String(a.name)) : null;
        if (from) module.forwards.push({ from: from.name, param: from.index, to: name, arg });
      });
    }
  });
  return module;
}

/** The helpers of these modules, with those that pass their parameter on to a helper's code (`notAllowedToEdit(ctx, code, …) => denied(ctx, code, …)`). */
function helpersOf(modules: ScannedModule[]): Map<string, number> {
  const helpers = new Map(modules.flatMap((m) => [...m.helpers]));
  const forwards = modules.flatMap((m) => m.forwards);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of forwards)
      if (helpers.get(f.to) === f.arg && !helpers.has(f.from)) {
        helpers.set(f.from, f.param);
        grew = true;
      }
  }
  return helpers;
}

/** The innermost named function with a parameter of this name, and that parameter's index. */
function forwardingFunction(functions: Enclosing[], param: string): { name: string; index: number } | null {
  for (let i = functions.length - 1; i >= 0; i--) {
    const f = functions[i];
    const index = f.params.findIndex((p) => (p.type === 'AssignmentPattern' ? (p.left as AstNode) : p).name === param);
    if (index >= 0) return f.name ? { name: f.name, index } : null;
  }
  return null;
}

const args = (node: AstNode) => node.arguments as AstNode[];
const isNamed = (callee: unknown, name: string) => (callee as AstNode).type === 'Identifier' && (callee as { name: string }).name === name;
const isMethod = (callee: unknown, name: string) => {
  const c = callee as AstNode;
  return c.type === 'MemberExpression' && !c.computed && isNamed(c.property, name);
};

/** A string literal's value (a template literal without substitutions counts), else null. */
function literal(node: AstNode | undefined): string | null {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && (node.expressions as unknown[]).length === 0) return String((node.quasis as { value: { cooked: string } }[])[0].value.cooked);
  return null;
}

/** The keys of `{a: …, b}` as given to ctx.fail; [] for no values; null when they cannot be known (a spread, a variable). */
function valueNames(node: AstNode | undefined): string[] | null {
  if (!node) return [];
  if (node.type !== 'ObjectExpression') return null;
  const names: string[] = [];
  for (const p of node.properties as AstNode[]) {
    if (p.type !== 'Property' || p.computed) return null;
    const key = p.key as AstNode;
    names.push(key.type === 'Identifier' ? String(key.name) : String(key.value));
  }
  return names;
}

/** A function a node is inside: its parameters, and its name as declared or as the variable it is assigned to. */
interface Enclosing {
  params: AstNode[];
  name?: string;
}

/** Visits every node with the functions it is inside, innermost last. */
function walk(node: AstNode, visit: (node: AstNode, functions: Enclosing[]) => void, functions: Enclosing[] = [], assignedTo?: string): void {
  visit(node, functions);
  const inside = isFunction(node as never) ? [...functions, { params: node.params as AstNode[], name: assignedTo ?? ((node.id as AstNode | null)?.name as string | undefined) }] : functions;
  for (const key in node) {
    const child = node[key];
    const name = node.type === 'VariableDeclarator' && key === 'init' && (node.id as AstNode).type === 'Identifier' ? String((node.id as AstNode).name) : undefined;
    if (Array.isArray(child)) {
      for (const c of child) if (c && typeof c === 'object' && typeof (c as AstNode).type === 'string') walk(c as AstNode, visit, inside);
    } else if (child && typeof child === 'object' && typeof (child as AstNode).type === 'string') walk(child as AstNode, visit, inside, name);
  }
}
