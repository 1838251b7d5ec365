import type { Site } from '../engine/site.ts';
import type { Store } from './index.ts';

/** What a new install creates that its owner must be told once. */
export interface InstallResult {
  adminLogin: string;
  /** The generated account password of the admin user, shown once. */
  adminPassword: string;
}

// PLACEHOLDER until the content work lands here: a new site gets its admin user and default content.
export async function installContent(_store: Store, _site: Site): Promise<InstallResult> {
  return { adminLogin: 'admin', adminPassword: '' };
}
