import type { Ctx } from '../../core/context.ts';
import type { ImportTarget } from '../../core/image-imports.ts';
import { keptAnswer } from '../../net/kept.ts';
import type { RemoteService } from '../../net/service.ts';
import { designLibrary } from './plugin.ts';
import { cacheKey, type DesignLibraryRepo } from './repo.ts';
import { libraryService, type ServiceId } from './services.ts';
import { readSettings, type Settings } from './settings.ts';

/** What every design and starter library handler works with: the settings, the plugin's store, and its services. */
export interface LibraryCall {
  ctx: Ctx;
  settings: Settings;
  repo: DesignLibraryRepo;
  /** The AI content service, its requests carrying the site's token. */
  ai(): RemoteService;
  service(id: ServiceId, baseUrl: string, o?: { token?: boolean }): RemoteService;
  /** Who imports images, into which site. */
  target: ImportTarget;
}

export async function libraryCall(ctx: Ctx): Promise<LibraryCall> {
  const settings = await readSettings(ctx.store);
  const service = (id: ServiceId, baseUrl: string, o: { token?: boolean } = {}) => libraryService(id, baseUrl, ctx.site, settings, o);
  return {
    ctx,
    settings,
    repo: ctx.store.plugin(designLibrary),
    service,
    ai: () => service('ai', settings.aiUrl, { token: true }),
    target: { store: ctx.store, site: ctx.site, author: ctx.user!.id },
  };
}

/** How long answers are kept, from the settings (a week when the setting is not a number). */
export const cacheSeconds = (s: Settings): number => {
  const n = Number(s.cacheSeconds);
  return Number.isFinite(n) && n >= 0 ? n : 7 * 24 * 3600;
};

/**
 * A service's answer, from the store while it is fresh (unless `reload`), else asked for and kept
 * for `seconds`; the last one kept, said to be stale, when the service is down (src/net/kept.ts).
 * `key` is what was asked (hashed: it can hold a license key).
 */
export function cachedAnswer<T>(call: LibraryCall, kind: string, key: unknown[], o: { reload: boolean; seconds?: number }, ask: () => Promise<T>): Promise<T> {
  return keptAnswer(call.ctx, call.repo.answers, cacheKey(kind, ...key), { reload: o.reload, seconds: o.seconds ?? cacheSeconds(call.settings), columns: { kind } }, ask);
}

/** The license the AI services are called with; refused clearly when none is set (they answer nothing without one). */
export function requireLicense(call: LibraryCall): void {
  if (!call.settings.licenseKey)
    throw call.ctx.fail('kb_design_library_not_licensed');
}

/** A request field that must be a non-empty string: the missing ones refused together. */
export function requireFields(ctx: Ctx, names: readonly string[]): Record<string, string> {
  const { args } = ctx;
  const missing = names.filter((n) => typeof args[n] !== 'string' || !(args[n] as string).trim());
  if (missing.length) throw ctx.fail('kb_design_library_missing_params', { params: missing }, { params: missing });
  return Object.fromEntries(names.map((n) => [n, (args[n] as string).trim()]));
}

/** A service's answer that must be an object (or a list) to be of use. */
export function expectObject<T = Record<string, unknown>>(service: RemoteService, path: string, answer: unknown): T {
  if (answer === null || typeof answer !== 'object') throw service.invalidAnswer(path, 'something that is not a JSON object or list');
  return answer as T;
}
