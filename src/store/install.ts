import type { Site } from '../engine/site.ts';
import type { Store } from './index.ts';

// PLACEHOLDER until the content work lands here: a new site gets its default content.
export async function installContent(_store: Store, _site: Site): Promise<void> {}
