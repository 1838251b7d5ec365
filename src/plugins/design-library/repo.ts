import { createHash } from 'node:crypto';
import type { Generated, Kysely } from 'kysely';
import { ExpiringCache } from '../../store/expiring-cache.ts';
import { sqlBound } from '../../store/sql-bound.ts';

export interface DesignLibraryTables {
  design_library_cache: { cache_key: string; kind: string; body: string; expires_at: number };
  design_library_ai_jobs: { context: string; job_id: string; state: string; content: string | null; updated_at: string };
  design_library_events: {
    id: Generated<number>;
    label: string;
    name: string;
    context: string;
    source: string;
    created_at: string;
    forwarded_at: string | null;
    forward_error: string | null;
  };
  design_library_imports: { id: Generated<number>; kind: string; ref: string; previous: string | null; created_at: string };
}

/**
 * Something a starter import did: an object it created through the REST API (`rest`, `ref` its
 * route under cms/v2: `pages/12`, `categories/3`, `media/7`), a post it stored that has no route
 * (`post`, `ref` its id: a navigation menu), or an option it changed (`option`, `ref` the option,
 * `previous` its value before, null when it had none).
 */
export interface ImportRecord {
  /** rest: an object created through cms/v2 (`ref` its path); post: a post created in the store; option: an option changed; post_content: a post's content replaced (`previous` the content before). */
  kind: 'rest' | 'post' | 'option' | 'post_content';
  ref: string;
  previous: string | null;
}

/** An AI content job: started at the service, done (its content kept), or failed there. */
export type JobState = 'processing' | 'ready' | 'failed';

export interface AiJob {
  context: string;
  jobId: string;
  state: JobState;
  /** The content the service wrote, decoded, once ready. */
  content: unknown;
}

export interface StoredEvent {
  id: number;
  label: string;
  name: string;
  context: Record<string, unknown>;
  source: string;
  createdAt: string;
  forwardedAt: string | null;
  forwardError: string | null;
}

const now = () => new Date().toISOString().slice(0, 19).replace('T', ' ');

/** A cache key of what was asked: its parts hashed (they hold license keys, and can be long). */
export const cacheKey = (...parts: unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/** The design library's cached answers, AI jobs and events. */
export class DesignLibraryRepo {
  /** The services' answers, by cacheKey of what was asked, with the `kind` of answer each is. */
  readonly answers: ExpiringCache;

  constructor(private readonly db: Kysely<DesignLibraryTables>) {
    this.answers = new ExpiringCache(db, { table: 'design_library_cache', key: 'cache_key', value: 'body', clock: 'epoch-s' });
  }

  async jobs(): Promise<AiJob[]> {
    const rows = await this.db.selectFrom('design_library_ai_jobs').selectAll().orderBy('context').execute();
    return rows.map((r) => ({ context: r.context, jobId: r.job_id, state: r.state as JobState, content: r.content === null ? null : JSON.parse(r.content) }));
  }

  async job(context: string): Promise<AiJob | undefined> {
    return (await this.jobs()).find((j) => j.context === context);
  }

  /** A job started for a context (replacing the one it had). */
  async startJob(context: string, jobId: string): Promise<void> {
    const values = { job_id: jobId, state: 'processing', content: null, updated_at: now() };
    await this.db
      .insertInto('design_library_ai_jobs')
      .values({ context, ...values })
      .onConflict((oc) => oc.column('context').doUpdateSet(values))
      .execute();
  }

  async finishJob(context: string, jobId: string, content: unknown): Promise<void> {
    await this.db
      .updateTable('design_library_ai_jobs')
      .set({ state: 'ready', content: JSON.stringify(content), updated_at: now() })
      .where('context', '=', context)
      .where('job_id', '=', jobId)
      .execute();
  }

  async failJob(context: string, jobId: string): Promise<void> {
    await this.db.updateTable('design_library_ai_jobs').set({ state: 'failed', updated_at: now() }).where('context', '=', context).where('job_id', '=', jobId).execute();
  }

  /** Forgets every job and its content; answers how many there were. */
  async clearJobs(): Promise<number> {
    const r = await this.db.deleteFrom('design_library_ai_jobs').executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async addEvent(e: { label: string; name: string; context: Record<string, unknown>; source: string }): Promise<number> {
    const row = await this.db
      .insertInto('design_library_events')
      .values({ label: e.label, name: e.name, context: JSON.stringify(e.context), source: e.source, created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async eventForwarded(id: number, error: string | null): Promise<void> {
    await this.db.updateTable('design_library_events').set(error === null ? { forwarded_at: now(), forward_error: null } : { forward_error: error }).where('id', '=', id).execute();
  }

  /** The newest events first. */
  async events(limit = 100): Promise<StoredEvent[]> {
    const rows = await this.db.selectFrom('design_library_events').selectAll().orderBy('id', 'desc').limit(sqlBound(limit)).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      label: r.label,
      name: r.name,
      context: JSON.parse(r.context),
      source: r.source,
      createdAt: r.created_at,
      forwardedAt: r.forwarded_at,
      forwardError: r.forward_error,
    }));
  }

  /** Records what an import did; an option or a post's content is recorded once (its value before the first import that changed it). */
  async recordImport(r: ImportRecord): Promise<void> {
    // what was there before the first import is what remove-content puts back
    if (r.kind === 'option' || r.kind === 'post_content') {
      const seen = await this.db.selectFrom('design_library_imports').select('id').where('kind', '=', r.kind).where('ref', '=', r.ref).executeTakeFirst();
      if (seen) return;
    }
    await this.db.insertInto('design_library_imports').values({ kind: r.kind, ref: r.ref, previous: r.previous, created_at: now() }).execute();
  }

  /** What the imports did, the latest first (the order to undo it in). */
  async imports(): Promise<(ImportRecord & { id: number })[]> {
    const rows = await this.db.selectFrom('design_library_imports').selectAll().orderBy('id', 'desc').execute();
    return rows.map((r) => ({ id: Number(r.id), kind: r.kind as ImportRecord['kind'], ref: r.ref, previous: r.previous }));
  }

  async forgetImport(id: number): Promise<void> {
    await this.db.deleteFrom('design_library_imports').where('id', '=', id).execute();
  }
}
