import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parse, type AnyNode, type Function as FunctionNode, type Program } from 'acorn';
import { transformSync } from 'esbuild';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import type { SourcePos } from './spec.ts';

/**
 * A handler module read for static analysis: esbuild strips its types, acorn parses the result, and
 * esbuild's source map takes each node back to the line it was written on.
 */
export interface SourceModule {
  file: string;
  program: Program;
  /** Where a node was written in the module's own source, the file relative to the working directory as lint prints it. */
  posOf(node: AnyNode): SourcePos;
}

export type FunctionLike = FunctionNode & AnyNode;

export const isFunction = (n: AnyNode | null | undefined): n is FunctionLike => !!n && (n.type === 'FunctionDeclaration' || n.type === 'FunctionExpression' || n.type === 'ArrowFunctionExpression');

/** Parsed modules by file, for one lint run (a module several handlers share is read once). */
export class SourceModules {
  private readonly byFile = new Map<string, SourceModule | null>();

  /** The module, or null when it cannot be read or parsed (importing it reports that as handler-load). */
  get(file: string): SourceModule | null {
    if (!this.byFile.has(file)) this.byFile.set(file, readModule(file));
    return this.byFile.get(file)!;
  }

  /** The function `name` exports, following `export { x as name } from`, `export *` and exported imports; null when it is not a plain function. */
  exported(mod: SourceModule, name: string, seen = new Set<string>()): { mod: SourceModule; fn: FunctionLike } | null {
    const key = `${mod.file}#${name}`;
    if (seen.has(key)) return null;
    seen.add(key);
    for (const s of mod.program.body) {
      if (s.type === 'ExportNamedDeclaration') {
        const d = s.declaration;
        if (d?.type === 'FunctionDeclaration' && d.id?.name === name) return { mod, fn: d };
        if (d?.type === 'VariableDeclaration') for (const v of d.declarations) if (v.id.type === 'Identifier' && v.id.name === name) return isFunction(v.init) ? { mod, fn: v.init } : null;
        for (const spec of s.specifiers) {
          if (nameOf(spec.exported) !== name) continue;
          const local = nameOf(spec.local);
          if (!s.source) return this.local(mod, local, seen);
          const from = this.imported(mod, String(s.source.value));
          return from && this.exported(from, local, seen);
        }
      } else if (s.type === 'ExportDefaultDeclaration' && name === 'default') {
        return isFunction(s.declaration as AnyNode) ? { mod, fn: s.declaration as FunctionLike } : null;
      }
    }
    for (const s of mod.program.body) {
      if (s.type !== 'ExportAllDeclaration' || s.exported) continue;
      const from = this.imported(mod, String(s.source.value));
      const found = from && this.exported(from, name, seen);
      if (found) return found;
    }
    return null;
  }

  /** The function a module-level name is bound to: declared in the module, or imported from a relative module. */
  local(mod: SourceModule, name: string, seen = new Set<string>()): { mod: SourceModule; fn: FunctionLike } | null {
    for (const s of mod.program.body) {
      const d = s.type === 'ExportNamedDeclaration' ? s.declaration : s;
      if (d?.type === 'FunctionDeclaration' && d.id?.name === name) return { mod, fn: d };
      if (d?.type === 'VariableDeclaration') for (const v of d.declarations) if (v.id.type === 'Identifier' && v.id.name === name) return isFunction(v.init) ? { mod, fn: v.init } : null;
      if (s.type === 'ImportDeclaration') {
        for (const spec of s.specifiers) {
          if (spec.local.name !== name || spec.type === 'ImportNamespaceSpecifier') continue;
          const from = this.imported(mod, String(s.source.value));
          return from && this.exported(from, spec.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(spec.imported), seen);
        }
      }
    }
    return null;
  }

  /** The modules and every module they import, relatively and transitively (packages are not followed), each once. */
  reachable(files: Iterable<string>): SourceModule[] {
    const found = new Map<string, SourceModule>();
    const visit = (mod: SourceModule | null) => {
      if (!mod || found.has(mod.file)) return;
      found.set(mod.file, mod);
      for (const s of mod.program.body)
        if ((s.type === 'ImportDeclaration' || s.type === 'ExportNamedDeclaration' || s.type === 'ExportAllDeclaration') && s.source) visit(this.imported(mod, String(s.source.value)));
    };
    for (const file of files) visit(this.get(file));
    return [...found.values()];
  }

  /** A relative import of a module (`./x.ts`, `../y.js`, `./z`); packages are not followed. */
  private imported(mod: SourceModule, specifier: string): SourceModule | null {
    if (!specifier.startsWith('.')) return null;
    const base = resolve(dirname(resolve(mod.file)), specifier);
    const file = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.js`, `${base}/index.ts`].find((f) => /\.[jt]s$/.test(f) && existsSync(f));
    return file ? this.get(file) : null;
  }
}

const nameOf = (n: AnyNode): string => (n.type === 'Identifier' ? n.name : String((n as { value?: unknown }).value));

function readModule(file: string): SourceModule | null {
  try {
    const source = readFileSync(file, 'utf8');
    const out = transformSync(source, { loader: file.endsWith('.ts') ? 'ts' : 'js', format: 'esm', sourcemap: 'external', sourcefile: file });
    const program = parse(out.code, { ecmaVersion: 'latest', sourceType: 'module', locations: true });
    const map = new TraceMap(out.map);
    const shown = relative(process.cwd(), file) || file;
    return {
      file,
      program,
      posOf: (node) => ({ file: shown, line: (node.loc && originalPositionFor(map, { line: node.loc.start.line, column: node.loc.start.column }).line) || node.loc?.start.line || 1 }),
    };
  } catch {
    return null;
  }
}
