import type { Site } from '../../core/site.ts';
import type { Store } from '../../store/index.ts';
import { config } from '../../config.ts';

export type Status = 'good' | 'recommended' | 'critical';

/**
 * A test's answer in WordPress's shape and key order (WP_Site_Health's test result arrays). A type,
 * not an interface: it must fit its route's answer type (`cms-spec types`), which admits further
 * keys, as an interface does not.
 */
export type TestResult = {
  label: string;
  status: Status;
  badge: { label: string; color: string };
  description: string;
  actions: string;
  test: string;
};

/** What the checks run against, and from where. */
export interface HealthRun {
  store: Store;
  site: Site;
  /**
   * `server`: inside the running server, for a REST caller. `cli`: beside it (`cms-spec doctor`),
   * where no server may be listening and no caller has credentials to send.
   */
  where: 'server' | 'cli';
  /** The caller's Authorization header and user id, which the round-trip test sends back to the site. */
  caller?: { authorization: string; userId: number };
}

/** A test's starting point: its good result, which the checks then change (as WP_Site_Health builds them). */
export function result(test: string, label: string, badge: 'Security' | 'Performance', description: string): TestResult {
  return { label, status: 'good', badge: { label: badge, color: 'blue' }, description, actions: '', test };
}

/** One paragraph of a description. */
export const p = (html: string) => `<p>${html}</p>`;

/** The outbound allow-list with the site's own host added: a loopback to its own URL is allowed for this call only. */
export function loopbackAllow(site: Site): string[] {
  return [...config().outbound.allow, new URL(site.home).hostname];
}
