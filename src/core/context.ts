import type { Engine } from '../engine/engine.ts';
import type { HandlerContext } from '../engine/types.ts';
import type { Store } from '../store/index.ts';
import type { Site } from './site.ts';

/** The context every core and plugin handler gets: the engine's, with this CMS's store and site. */
export type Ctx = HandlerContext<Store, Site>;

/** The engine as this CMS runs it: its store and its site. */
export type CmsEngine = Engine<Store, Site>;
