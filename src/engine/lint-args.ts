import type { AnyNode, Pattern } from 'acorn';
import { ancestor, simple } from 'acorn-walk';
import { handlerModuleFile, splitHandlerName } from './compile.ts';
import { didYouMean } from './did-you-mean.ts';
import type { Report } from './diagnostics.ts';
import { isFunction, SourceModules, type FunctionLike, type SourceModule } from './lint-source.ts';
import { BUILTIN_HANDLERS, type EndpointSpec, type RouteSpec, type SourcePos, type Spec } from './spec.ts';

/** What a function does with the request's args, as far as its source shows. */
interface ArgReads {
  /** Each arg name read, with where it is first read. */
  reads: Map<string, SourcePos>;
  /**
   * Set when the args reach code that cannot be followed (a package's function, a method, a spread,
   * `Object.entries(ctx.args)`, a name computed at run time): any arg may be read there, so none can
   * be called unread. The reads that are seen still count.
   */
  opaque: boolean;
}

/** A parameter's role: the handler's context (`ctx`, whose `args` are the request's), or the args object itself. */
type Role = 'ctx' | 'args';

const keyName = (key: AnyNode, computed: boolean): string | null =>
  !computed && key.type === 'Identifier' ? key.name : key.type === 'Literal' && typeof key.value === 'string' ? key.value : key.type === 'TemplateLiteral' && key.expressions.length === 0 ? key.quasis[0].value.cooked ?? null : null;

/**
 * Finds the args a handler reads: `ctx.args.x`, `ctx.args['x']`, `const { x } = ctx.args`,
 * `const a = ctx.args; a.x`, `function h({ args })`, and the same inside any function of a relative
 * module the context or the args are passed to (followed with the parameter they arrive in).
 */
class ArgReadAnalysis {
  private readonly done = new WeakMap<AnyNode, Map<string, ArgReads>>();

  constructor(private readonly modules: SourceModules) {}

  of(mod: SourceModule, fn: FunctionLike, param: number, role: Role): ArgReads {
    const key = `${param}:${role}`;
    let byParam = this.done.get(fn);
    if (!byParam) this.done.set(fn, (byParam = new Map()));
    const known = byParam.get(key);
    if (known) return known;
    const result: ArgReads = { reads: new Map(), opaque: false };
    // stored before the walk, so a recursive function sees what is found so far instead of looping
    byParam.set(key, result);
    const pattern = fn.params[param] ?? fn.params.find((p) => p.type === 'RestElement');
    // gathered with others into a list (`...rest`) or taken apart as one: not followed
    if (pattern?.type === 'RestElement' || pattern?.type === 'ArrayPattern') result.opaque = true;
    else if (pattern) this.walk(mod, fn, pattern, role, result);
    return result;
  }

  private walk(mod: SourceModule, fn: FunctionLike, param: Pattern, role: Role, result: ArgReads): void {
    const names: Record<Role, Set<string>> = { ctx: new Set(), args: new Set() };
    const read = (name: string, node: AnyNode) => {
      if (!result.reads.has(name)) result.reads.set(name, mod.posOf(node));
    };
    const bind = (p: Pattern, as: Role): void => {
      if (p.type === 'Identifier') names[as].add(p.name);
      else if (p.type === 'AssignmentPattern') bind(p.left, as);
      else if (p.type === 'ObjectPattern') {
        for (const prop of p.properties) {
          if (prop.type === 'RestElement') {
            bind(prop.argument, as); // the rest of a context still holds args; the rest of args is args
            continue;
          }
          const name = keyName(prop.key, prop.computed);
          if (as === 'ctx') {
            if (name === 'args') bind(prop.value, 'args');
          } else if (name === null) result.opaque = true;
          else read(name, prop.key);
        }
      }
    };
    const roleOf = (e: AnyNode | null | undefined): Role | null => {
      if (!e) return null;
      if (e.type === 'Identifier') return names.ctx.has(e.name) ? 'ctx' : names.args.has(e.name) ? 'args' : null;
      if (e.type === 'MemberExpression' && roleOf(e.object) === 'ctx' && keyName(e.property, e.computed) === 'args') return 'args';
      return null;
    };

    bind(param, role);
    // aliases (`const a = ctx.args`, `const { args } = ctx`), until no new name appears
    for (let size = -1; size !== names.ctx.size + names.args.size; ) {
      size = names.ctx.size + names.args.size;
      simple(fn.body as AnyNode, {
        VariableDeclarator(d) {
          const as = roleOf(d.init);
          if (as) bind(d.id, as);
        },
      });
    }

    const opaque = () => (result.opaque = true);
    const passed = (call: AnyNode, arg: AnyNode, as: Role) => {
      if (call.type !== 'CallExpression' && call.type !== 'NewExpression') return opaque();
      const index = call.arguments.indexOf(arg as never);
      const callee = this.callee(mod, fn, call.callee as AnyNode);
      if (index < 0 || !callee || call.arguments.slice(0, index).some((a) => a.type === 'SpreadElement')) return opaque();
      const inner = this.of(callee.mod, callee.fn, index, as);
      for (const [name, pos] of inner.reads) if (!result.reads.has(name)) result.reads.set(name, pos);
      if (inner.opaque) opaque();
    };
    /** The args object (an alias, or `ctx.args`) used as `ancestors[i]`. */
    const usedArgs = (ancestors: AnyNode[], i: number) => {
      if (i === 0) return opaque(); // an arrow whose body is `ctx.args` itself
      const [node, parent, grand] = [ancestors[i], ancestors[i - 1], ancestors[i - 2]];
      if (parent.type === 'MemberExpression' && parent.object === node) {
        if (grand?.type === 'AssignmentExpression' && grand.left === parent && grand.operator === '=') return; // a write
        const name = keyName(parent.property, parent.computed);
        if (name === null) opaque();
        else read(name, parent.property);
      } else if (parent.type === 'VariableDeclarator' && parent.init === node) {
        // an alias, bound above
      } else if (parent.type === 'BinaryExpression' && parent.operator === 'in' && parent.right === node && parent.left.type === 'Literal') {
        read(String(parent.left.value), parent.left);
      } else passed(parent, node, 'args');
    };
    const usedCtx = (ancestors: AnyNode[], i: number) => {
      const [node, parent] = [ancestors[i], ancestors[i - 1]];
      if (parent.type === 'MemberExpression' && parent.object === node) {
        if (keyName(parent.property, parent.computed) === 'args') usedArgs(ancestors, i - 1);
      } else if (parent.type === 'VariableDeclarator' && parent.init === node) {
        // an alias, bound above
      } else passed(parent, node, 'ctx');
    };

    ancestor(fn.body as AnyNode, {
      Identifier(node, _state, ancestors) {
        const id = node as AnyNode & { name: string };
        const as = names.ctx.has(id.name) ? 'ctx' : names.args.has(id.name) ? 'args' : null;
        if (!as || shadowed(id.name, ancestors)) return;
        const i = ancestors.length - 1;
        if (i === 0) return opaque(); // an arrow whose body is the context or the args itself
        if (as === 'args') usedArgs(ancestors as AnyNode[], i);
        else usedCtx(ancestors as AnyNode[], i);
      },
    });
  }

  /** The function a call's callee names: one declared in the calling function, a module-level one, a relative import, or a function written in place. */
  private callee(mod: SourceModule, caller: FunctionLike, callee: AnyNode): { mod: SourceModule; fn: FunctionLike } | null {
    if (isFunction(callee)) return { mod, fn: callee };
    if (callee.type !== 'Identifier') return null;
    let inner: FunctionLike | null = null;
    simple(caller.body as AnyNode, {
      FunctionDeclaration(d) {
        if (d.id?.name === callee.name) inner ??= d as FunctionLike;
      },
      VariableDeclarator(d) {
        if (d.id.type === 'Identifier' && d.id.name === callee.name && isFunction(d.init)) inner ??= d.init;
      },
    });
    return inner ? { mod, fn: inner } : this.modules.local(mod, callee.name);
  }
}

/** Whether a function between the analysed one and the use binds the name to a parameter of its own. */
function shadowed(name: string, ancestors: readonly AnyNode[]): boolean {
  return ancestors.some((a) => isFunction(a) && a.params.some((p) => patternNames(p).includes(name)));
}

function patternNames(p: Pattern): string[] {
  if (p.type === 'Identifier') return [p.name];
  if (p.type === 'AssignmentPattern') return patternNames(p.left);
  if (p.type === 'RestElement') return patternNames(p.argument);
  if (p.type === 'ArrayPattern') return p.elements.flatMap((e) => (e ? patternNames(e) : []));
  if (p.type === 'ObjectPattern') return p.properties.flatMap((q) => (q.type === 'RestElement' ? patternNames(q.argument) : patternNames(q.value)));
  return [];
}

interface HandlerUse {
  name: string;
  /** The endpoints naming it, with their routes. */
  endpoints: { route: RouteSpec; e: EndpointSpec }[];
}

/** The path variables of a route: declared by its path, whoever reads them. */
const pathVariables = (route: RouteSpec) => new Set([...route.fullPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));

/**
 * arg-undeclared: a handler reads an arg none of the endpoints naming it declares (args of the
 * endpoint or its route, or a path variable): a typo, or an arg the index does not show and nothing
 * validates. A handler serving several endpoints may read an arg only some declare (it branches on
 * the method or its config), so the union of theirs is what it may read.
 *
 * arg-unread: an endpoint declares an arg its handler never reads, so a client's value is
 * validated and then ignored. Not reported for a handler whose args reach code the analysis cannot
 * follow, nor for path variables (the router reads them), nor for an arg marked `unread: true`
 * (declared so the index shows it as WordPress does). A mark is not checked against the reads: an
 * arg set shared by many endpoints may be marked once though some of their handlers read it.
 */
export function checkHandlerArgs(spec: Spec, modules: SourceModules, report: Report): void {
  const analysis = new ArgReadAnalysis(modules);
  // an endpoint's permission check reads its args too; the Allow header runs it on any endpoint's request of its route
  const byFunction = new Map<string, HandlerUse & { file: string; fn: string; check: boolean }>();
  const functionsOf = new Map<EndpointSpec, string[]>();
  for (const route of spec.routes) {
    for (const e of route.endpoints) {
      for (const [name, check] of [[e.handler, false], ...(e.check ? [[e.check, true] as const] : [])] as const) {
        if (BUILTIN_HANDLERS.has(name)) continue;
        const [mod, fn] = splitHandlerName(name);
        const file = handlerModuleFile(route.handlersDir, mod);
        if (!file) continue; // handler-exists reports it
        const key = `${file}#${fn}`;
        if (!byFunction.has(key)) byFunction.set(key, { name, file, fn, endpoints: [], check });
        byFunction.get(key)!.endpoints.push({ route, e });
        functionsOf.set(e, [...(functionsOf.get(e) ?? []), key]);
      }
    }
  }
  const readsOf = new Map<string, { reads: Map<string, SourcePos>; opaque: boolean }>();
  for (const [key, use] of byFunction) {
    const mod = modules.get(use.file);
    const found = mod && modules.exported(mod, use.fn);
    if (!found) continue; // not a plain function (built by a call): nothing to analyse
    const { reads, opaque } = analysis.of(found.mod, found.fn, 0, 'ctx');
    readsOf.set(key, { reads, opaque });
    const routes = new Set(use.endpoints.map(({ route }) => route));
    const declared = new Set(use.check ? [...routes].flatMap((route) => [...route.endpoints.flatMap((o) => Object.keys(o.args)), ...pathVariables(route)]) : use.endpoints.flatMap(({ route, e }) => [...Object.keys(e.args), ...pathVariables(route)]));
    for (const [name, at] of reads) {
      if (declared.has(name)) continue;
      const where = use.endpoints.map(({ route, e }) => `${e.methods.join(',')} ${route.key}`);
      report(at, 'arg-undeclared', `${use.check ? 'permission check' : 'handler'} '${use.name}' reads arg '${name}', which ${where.length > 1 ? `none of the ${where.length} endpoints naming it (${where[0]}, ...) declares` : `${where[0]} does not declare`}${didYouMean(name, declared)}`);
    }
  }
  for (const route of spec.routes) {
    for (const e of route.endpoints) {
      const keys = functionsOf.get(e) ?? [];
      // a function lint could not analyse may read anything
      if (keys.length === 0 || keys.some((k) => !readsOf.has(k) || readsOf.get(k)!.opaque)) continue;
      const variables = pathVariables(route);
      for (const [name, arg] of Object.entries(e.args)) {
        const at = e.argPos[name] ?? e.pos;
        if (arg.unread !== true && !keys.some((k) => readsOf.get(k)!.reads.has(name)) && !variables.has(name)) {
          report(at, 'arg-unread', `arg '${name}' of ${e.methods.join(',')} ${route.key} is declared, but ${e.check ? `handler '${e.handler}' and permission check '${e.check}' never read it` : `handler '${e.handler}' never reads it`} (mark it unread: true if the index must show it anyway)`);
        }
      }
    }
  }
}
