import { RestError } from './errors.ts';
import { errorOutcome, normaliseRestPath, type Engine, type InternalRequest, type Outcome, type Prepared } from './engine.ts';
import { parseQueryString } from './params.ts';
import { RestResponse, type User } from './types.ts';

interface BatchItem {
  method?: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

const notAllowed = () => new RestError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400);

/** wp_parse_url keeps only the path and query of a sub-request: a scheme and host are dropped. */
function toSubRequest(item: BatchItem, parent: InternalRequest): InternalRequest {
  let target = item.path;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(target)) {
    const u = new URL(target);
    target = u.pathname + u.search;
  }
  const q = target.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(item.headers ?? {})) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : String(v);
  return {
    method: (item.method ?? 'POST').toUpperCase(),
    path: normaliseRestPath(q < 0 ? target : target.slice(0, q)),
    query: q < 0 ? {} : parseQueryString(target.slice(q + 1)),
    body: item.body && typeof item.body === 'object' ? item.body : {},
    headers,
    ip: parent.ip,
  };
}

/**
 * `POST /batch/v1` (WP_REST_Server::serve_batch_request_v1): match and validate every
 * sub-request first, then run them in order. Writes share one transaction with a savepoint per
 * sub-request, so each keeps the result it would have alone. Always 207 once the batch body is valid.
 */
export async function serveBatch(engine: Engine, params: Record<string, unknown>, user: User | null, parent: InternalRequest): Promise<RestResponse> {
  const items = params.requests as BatchItem[];
  const slots: (Prepared | Outcome)[] = items.map((item) => {
    const req = toSubRequest(item, parent);
    const matched = engine.match(req);
    if ('endpoint' in matched && !matched.endpoint.allowBatch) return errorOutcome(notAllowed(), matched.route);
    return engine.prepare(req, matched);
  });
  const failed = (s: Prepared | Outcome): s is Outcome => !('endpoint' in s);

  if (params.validation === 'require-all-validate' && slots.some(failed)) {
    const responses = slots.map((s) => (failed(s) ? { body: s.data, status: s.status, headers: [] } : null));
    return new RestResponse({ failed: 'validation', responses }, 207);
  }

  const outcomes = await engine.store.steps(slots.length, async (tx, i) => {
    const s = slots[i];
    const out = failed(s) ? s : await engine.execute(s, user, tx);
    return { value: out, keep: out.status < 400 };
  });
  const responses = outcomes.map((out) => {
    const headers: Record<string, string> = { ...out.headers };
    if (out.route) headers.Allow = engine.allowHeader(out.route, user);
    return { body: out.data, status: out.status, headers: Object.keys(headers).length ? headers : [] };
  });
  return new RestResponse({ responses }, 207);
}
