import type { Engine } from '../engine/engine.ts';
import type { HandlerContext, RestResponse } from '../engine/types.ts';
import type { HandlerArgs, HandlerResults } from '../generated/endpoints.ts';
import type { Store } from '../store/index.ts';
import type { Site } from './site.ts';

/** A handler the spec names, as `cms-spec types` keys it: `cms-v2:posts.listPosts` (handlers folder, then `module.export`). */
export type HandlerName = keyof HandlerArgs;

/**
 * The context every core and plugin handler gets: the engine's, with this CMS's store and site.
 * `Ctx<'cms-v2:posts.listPosts'>` has that handler's args as its endpoints declare them, so
 * reading one none declares fails `tsc`; plain `Ctx` (helpers shared by many handlers) has any.
 */
export type Ctx<K extends HandlerName = never> = HandlerContext<Store, Site, [K] extends [never] ? Record<string, any> : HandlerArgs[K]>;

/** A handler typed by its spec: its args, and the answer its endpoints declare (`response:`) or any RestResponse. */
export type Handler<K extends HandlerName> = (ctx: Ctx<K>) => HandlerResults[K] | RestResponse | Promise<HandlerResults[K] | RestResponse>;

/** The engine as this CMS runs it: its store and its site. */
export type CmsEngine = Engine<Store, Site>;
