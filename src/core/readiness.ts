import type { PageHandler, PageResponse } from '../engine/server.ts';
import type { Store } from '../store/index.ts';

/** Where a load balancer asks whether this instance can serve. */
export const READINESS_PATH = '/healthz';

/**
 * `GET /healthz`: 200 when this instance answers and its database does, 503 otherwise, as JSON a
 * load balancer or an orchestrator can read. Says nothing about the content.
 */
export async function readiness(store: Store): Promise<PageResponse> {
  let body: Record<string, string>;
  let status = 200;
  try {
    await store.ping();
    body = { status: 'ok', database: store.dialect };
  } catch (e) {
    status = 503;
    body = { status: 'unavailable', database: store.dialect, reason: e instanceof Error ? e.message : String(e) };
  }
  const json = JSON.stringify(body);
  return { status, headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(json)) }, body: json };
}

/** The site's pages, with the readiness answer in front of them. */
export function withReadiness(store: Store, pages: PageHandler): PageHandler {
  return (req) => (req.path === READINESS_PATH ? readiness(store) : pages(req));
}
