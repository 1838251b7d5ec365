/**
 * The engine's one public entry: what a handler, a plugin or a project of one's own (`cms-spec
 * init`) imports. A handler is `(ctx) => result`: it reads `ctx.args` (checked and defaulted as
 * the spec declares them), returns the answer's body or a `RestResponse` (a status or headers of
 * its own), and throws a `RestError` (or `ctx.fail(code)`, by the namespace's error catalogue) for
 * a WordPress error `{code, message, data: {status}}`. Everything else under src/engine is the
 * engine's own; the CMS built on it (src/core, src/store, src/cli, …) assembles it from there.
 *
 * Only light modules are loaded through here (errors, types, args, params, the parse cache), so
 * a handler module imported at its route's first call costs no more than before.
 */

export {
  RestError,
  authStatus,
  forbidden,
  invalidJson,
  invalidParam,
  invalidParams,
  missingObject,
  type CataloguedError,
  type ErrorCatalogue,
  type ErrorValues,
  type ParamFailure,
} from './errors.ts';
export {
  RestResponse,
  type Handler,
  type HandlerContext,
  type Logger,
  type PageHandler,
  type PageRequest,
  type PageResponse,
  type RequestInfo,
  type UploadedFile,
  type User,
} from './types.ts';
export type { Mount } from './server.ts';
export type { AbilityCategorySpec, ArgDescriptor, EndpointSpec, RouteSpec, Spec } from './spec.ts';
/** WordPress's argument semantics, for a plugin that checks args outside a route (the abilities' input schemas). */
export { compileArgs, INDEX_KEYWORDS, type CompiledArgs } from './args.ts';
export { sanitizeUrl } from './arg-sanitizers.ts';
/** PHP's parse_str, for a form-encoded value a handler receives inside an arg. */
export { parseQueryString } from './params.ts';
/** The parse cache the spec loader keeps, for a plugin that parses files of its own at start-up. */
export { cachedParse } from './parse-cache.ts';
