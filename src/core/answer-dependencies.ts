import type { AnswerDependencies, Stamp } from '../engine/response-cache.ts';
import { isTableTopic, observeReads, tableTopic } from '../store/table-versions.ts';
import type { SharedState } from './shared-state.ts';

/**
 * Tables every answer depends on whether it read them or not: the site keeps the options in
 * memory (the permalinks, the address, what the filters do), so a write to them that did not
 * say so through its topic (`site.refresh()` after a direct write) still discards every answer.
 */
const EVERY_ANSWER_READS = ['options'];

/**
 * What an answer (or a part of one, answer-fragments.ts) depends on, for the response cache: the
 * tables its statements read (observed, never declared: see store/table-versions.ts), each at its
 * version, and every other shared-state topic (the options, the active plugins, the snippets,
 * plugins' own: what the filters, the routes and the index are made of), whatever the answer read.
 * Versions are taken before the answer is computed, so a write that commits meanwhile makes it stale at once.
 */
export class SiteDependencies implements AnswerDependencies {
  /** The part of a fingerprint every answer shares (the topics that are not tables), per snapshot of the versions. */
  private readonly common = new WeakMap<ReadonlyMap<string, number>, string>();

  constructor(private readonly shared: SharedState) {}

  async observe<T>(compute: () => Promise<T>): Promise<{ value: T; stamp: Stamp | null }> {
    const before = this.shared.snapshot();
    const { value, tables, unrepeatable } = await observeReads(compute);
    return { value, stamp: unrepeatable ? null : this.stampOf(before, tables) };
  }

  /** The stamp of what was made from `tables`, read at the versions `before` (a snapshot taken before the first of them was read). */
  stampOf(before: ReadonlyMap<string, number>, tables: Iterable<string>): Stamp {
    const deps = [...new Set([...tables, ...EVERY_ANSWER_READS])].sort();
    return { deps, fingerprint: this.fingerprint(before, deps) };
  }

  current(stamp: Stamp): boolean {
    return this.fingerprint(this.shared.snapshot(), stamp.deps) === stamp.fingerprint;
  }

  private fingerprint(versions: ReadonlyMap<string, number>, tables: readonly string[]): string {
    let common = this.common.get(versions);
    if (common === undefined) {
      common = [...versions].filter(([topic]) => !isTableTopic(topic)).map(([topic, v]) => `${topic}=${v}`).sort().join(' ');
      this.common.set(versions, common);
    }
    let out = common;
    for (const t of tables) out += ` ${t}=${versions.get(tableTopic(t)) ?? 0}`;
    return out;
  }
}
