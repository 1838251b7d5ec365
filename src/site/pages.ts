import type { Engine } from '../engine/engine.ts';
import type { PageHandler } from '../engine/server.ts';

// PLACEHOLDER until the site-rendering work lands here: no pages yet.
export function createPageHandler(_engine: Engine): PageHandler {
  return async () => null;
}
