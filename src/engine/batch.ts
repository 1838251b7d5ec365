import type { ApiRoot } from './api-root.ts';
import { engineError, RestError } from './errors.ts';
import { parseQueryString } from './params.ts';
import { envelopeHeaders } from './wp-rest.ts';
import { errorOutcome, isPrepared, normaliseRestPath, type InternalRequest, type Outcome, type Pipeline, type Prepared } from './pipeline.ts';
import { RestResponse, type HandlerContext, type Handler, type TransactionalStore } from './types.ts';

interface BatchItem {
  method?: string;
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}

const notAllowed = () => engineError('rest_batch_not_allowed');
const unparsablePath = () => engineError('parse_path_failed');
const ABSOLUTE = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * wp_parse_url keeps only the path and query of a sub-request: a scheme and host are dropped. An
 * absolute URL that does not parse is that item's own 400, as WordPress answers it. Paths name
 * namespaces as the batch request's root does (`/wp/v2/posts` through `/wp-json/batch/v1`).
 */
function toSubRequest(item: BatchItem, ip: string, root: ApiRoot): InternalRequest | RestError {
  let target = item.path;
  if (ABSOLUTE.test(target)) {
    if (!URL.canParse(target)) return unparsablePath();
    const u = new URL(target);
    target = u.pathname + u.search;
  }
  const q = target.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(item.headers ?? {})) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : String(v);
  return {
    method: (item.method ?? 'POST').toUpperCase(),
    path: root.path(normaliseRestPath(q < 0 ? target : target.slice(0, q))),
    root,
    query: q < 0 ? {} : parseQueryString(target.slice(q + 1)),
    body: item.body && typeof item.body === 'object' ? item.body : {},
    headers,
    ip,
  };
}

/**
 * `POST /batch/v1` (WP_REST_Server::serve_batch_request_v1), the built-in `@batch` handler: match
 * and validate every sub-request first, then run them in order. Writes share one transaction of
 * the store with a savepoint per sub-request, so each keeps the result it would have alone.
 * Always 207 once the batch body is valid.
 */
export function batchHandler<S extends TransactionalStore<S>>(pipeline: Pipeline<S>): Handler<S> {
  return async (ctx: HandlerContext<S>) => {
    const items = ctx.args.requests as BatchItem[];
    const slots: (Prepared | Outcome)[] = items.map((item) => {
      let req: InternalRequest | RestError;
      try {
        req = toSubRequest(item, ctx.request.ip, ctx.api);
      } catch (e) {
        if (!(e instanceof RestError)) throw e;
        req = e;
      }
      if (req instanceof RestError) return errorOutcome(req);
      const matched = pipeline.match(req);
      if ('endpoint' in matched && !matched.endpoint.allowBatch) return errorOutcome(notAllowed(), matched.route);
      return pipeline.prepare(req, matched);
    });

    if (ctx.args.validation === 'require-all-validate' && !slots.every(isPrepared)) {
      const responses = slots.map((s) => (isPrepared(s) ? null : { body: s.data, status: s.status, headers: [] }));
      return new RestResponse({ failed: 'validation', responses }, 207);
    }

    const outcomes = await ctx.store.steps(slots.length, async (tx, i) => {
      const s = slots[i];
      const out = await pipeline.withAllow(isPrepared(s) ? await pipeline.execute(s, ctx.user, tx) : s, ctx.user, tx);
      return { value: out, keep: out.status < 400 };
    });
    const responses = outcomes.map((out) => {
      const headers: Record<string, string> = { ...out.headers };
      if (out.allow) headers.Allow = out.allow;
      return { body: out.data, status: out.status, headers: envelopeHeaders(headers) };
    });
    return new RestResponse({ responses }, 207);
  };
}
