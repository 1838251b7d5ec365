import { existsSync, watch, type FSWatcher } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import type { Engine } from '../engine/engine.ts';
import { formatDiagnostic, SpecError, type Diagnostic } from '../engine/diagnostics.ts';
import { loadSpec, type Spec } from '../engine/spec.ts';
import { plural } from './output.ts';

export interface SpecWatchOptions {
  specDir: string;
  engine: Engine;
  /** Folders beyond the spec's and its handlers' where a change matters (the plugin folders). */
  moreFolders?(spec: Spec): string[];
  /** After the engine took the new spec: serves what the site wants served now (a namespace or plugin may be new). */
  reserve(): Promise<void>;
}

/** Folders that hold no other of them (a handlers folder inside a plugin folder is watched with it). */
function outermost(folders: Iterable<string>): string[] {
  const all = [...new Set([...folders].map((f) => resolve(f)))].filter(existsSync).sort();
  return all.filter((f) => !all.some((other) => other !== f && f.startsWith(other + sep)));
}

/**
 * `serve --watch`: a change under the spec folder, a handlers folder or a plugin folder loads the
 * spec again and swaps the engine's route table (a changed handler module imported afresh); a
 * spec or module with problems leaves the table as it was and says `file:line: rule: message`
 * for each. Changes that come together (an editor's save, a scaffold) are taken as one.
 */
export function watchSpec(o: SpecWatchOptions): void {
  // what it did goes to stdout, problems to stderr
  const say = (line: string) => console.log(line);
  const complain = (line: string) => console.error(line);
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const changed = new Set<string>();

  const foldersOf = (spec: Spec) => outermost([spec.dir, spec.handlersDir, ...spec.routes.map((r) => r.handlersDir), ...(o.moreFolders?.(spec) ?? [])]);

  /** Watches the folders the spec now names, and only those. */
  const follow = (spec: Spec) => {
    const wanted = new Set(foldersOf(spec));
    for (const [dir, w] of watchers) if (!wanted.has(dir)) (w.close(), watchers.delete(dir));
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      const w = watch(dir, { recursive: true }, (_event, file) => {
        if (file) changed.add(relative(process.cwd(), resolve(dir, file.toString())));
        schedule();
      });
      w.on('error', () => {});
      watchers.set(dir, w);
    }
  };

  const problems = (list: Diagnostic[]) => {
    complain(`The spec has ${plural(list.length, 'problem')}; still serving the routes from before the change:`);
    for (const d of list) complain(formatDiagnostic(d));
  };

  const reload = async () => {
    const files = [...changed].sort();
    changed.clear();
    let spec: Spec;
    try {
      spec = loadSpec(o.specDir);
    } catch (e) {
      if (e instanceof SpecError) return problems(e.problems);
      throw e;
    }
    const refused = await o.engine.reload(spec);
    if (refused.length) return problems(refused);
    try {
      await o.reserve();
    } catch (e) {
      if (e instanceof SpecError) return problems(e.problems);
      throw e;
    }
    follow(spec);
    say(`Reloaded after a change to ${files.join(', ') || 'the spec'}: ${plural(o.engine.served.length, 'route')} served.`);
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // one reload at a time: changes made during one are taken by the next
      running = running.then(() => reload().catch((e: unknown) => complain(`Reloading failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)));
    }, 100);
  };

  follow(o.engine.spec);
}
