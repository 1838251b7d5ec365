import { INDEX_KEYWORDS } from './args.ts';
import { canonicalType } from './arg-coercion.ts';
import type { ApiRoot } from './api-root.ts';
import { ENGINE_ERRORS, type ErrorCatalogue } from './errors.ts';
import { answerOf } from './responses.ts';
import type { ArgDescriptor, EndpointSpec, RouteSpec, Spec, Variant } from './spec.ts';

/**
 * An OpenAPI 3.1 document of the routes an API root serves, built from the spec alone (the engine
 * knows no CMS): WordPress route patterns become paths, args become parameters or a request
 * body, the declared response schemas (else the route's resource schema) the answers, and the
 * error catalogues the error answers. `cms-spec openapi`, `cms-spec docs` and the served
 * `?_openapi=1` all build it here.
 */

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  /** The routes to describe, in registration order: the ones served, or a variant's as written. */
  routes: readonly RouteSpec[];
  /** The root they are shown at: its namespace names (`wp/v2` at `/wp-json/`) and its URL for `servers`. */
  root: ApiRoot;
  /** The root's absolute URL (`http://example.com/cms-json/`); without it the document has no `servers`. */
  url?: string;
  variant: Variant;
}

const WP_ERROR = { $ref: '#/components/schemas/WP_Error' };
const SECURITY_SCHEME = 'applicationPassword';
const OPERATION_METHODS = new Set(['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
/** WordPress's own formats that are sanitisers, not string formats a client could check. */
const SANITISER_FORMATS = new Set(['text-field', 'textarea-field']);
const STATUS_TEXT: Record<number, string> = { 400: 'Bad request', 401: 'Not logged in', 403: 'Not allowed', 404: 'Not found', 409: 'Conflict', 500: 'Server error' };

/**
 * A WordPress arg or schema (draft-04 with WordPress's own bits) as JSON Schema 2020-12, which
 * OpenAPI 3.1 uses: `bool`/`int` named as JSON Schema names them, `required: true` on a property
 * moved into its object's `required` list, boolean `exclusiveMinimum`/`Maximum` folded into the
 * bound, an enum written as a map reduced to its values, `readonly` as `readOnly`, an empty PHP
 * array `properties: []` as an object; keywords that are not JSON Schema (`context`,
 * `arg_options`, `index`, sanitiser formats) dropped; an array without `items` takes any items.
 */
export function jsonSchemaOf(arg: ArgDescriptor): Json {
  const out: Json = {};
  const nested = (v: unknown) => (isObject(v) ? jsonSchemaOf(v) : v);
  for (const [k, v] of Object.entries(arg)) {
    if (k === 'type') out.type = Array.isArray(v) ? v.map(canonicalType) : canonicalType(v);
    else if (k === 'readonly') out.readOnly = v === true;
    else if (k === 'enum') out.enum = isObject(v) ? Object.values(v) : v;
    else if (k === 'format') {
      if (!SANITISER_FORMATS.has(String(v))) out.format = v;
    } else if (k === 'items') {
      if (Array.isArray(v)) out.prefixItems = v.map(nested);
      else out.items = nested(v);
    } else if (k === 'properties') {
      const properties = isObject(v) ? v : {};
      out.properties = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, nested(p)]));
      const required = Object.entries(properties).filter(([, p]) => isObject(p) && p.required === true).map(([name]) => name);
      if (required.length) out.required = required;
    } else if (k === 'patternProperties') out.patternProperties = Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, nested(s)]));
    else if (k === 'additionalProperties') out.additionalProperties = nested(v);
    else if (k === 'anyOf' || k === 'oneOf') out[k] = (v as unknown[]).map(nested);
    else if (k === 'exclusiveMinimum' || k === 'exclusiveMaximum') {
      const bound = k === 'exclusiveMinimum' ? 'minimum' : 'maximum';
      if (v === true && typeof arg[bound] === 'number') out[k] = arg[bound];
      else if (typeof v === 'number') out[k] = v;
    } else if (k === 'minimum' || k === 'maximum') {
      if (arg[k === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum'] !== true) out[k] = v;
    } else if (k === 'required') {
      if (Array.isArray(v)) out.required = v;
    } else if (INDEX_KEYWORDS.has(k) || k === 'const' || k === '$ref') out[k] = v;
  }
  // a list of anything, said outright: OpenAPI tools want the items of every array parameter
  if ((out.type === 'array' || (Array.isArray(out.type) && out.type.includes('array'))) && !('items' in out) && !('prefixItems' in out)) out.items = {};
  return out;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a path variable matches when its route gives no regex for it (toRouteKey). */
const ANY_SEGMENT = '[^/]+';

/** `{name}` of a path with its WordPress regex as an anchored pattern (a regex with alternatives kept whole). */
const anchored = (re: string) => (re.includes('|') ? `^(?:${re})$` : `^${re}$`);

/** A namespace as a name without slashes, for operation ids and component names: `cms/v2` → `cms-v2`. */
const slug = (namespace: string) => namespace.replace(/\//g, '-');

/** `posts.listPosts` → `listPosts`; the engine's own `@index` → `index`. */
const handlerFunction = (handler: string) => handler.slice(handler.lastIndexOf('.') + 1).replace(/^@/, '').replace(/_(\w)/g, (_, c: string) => c.toUpperCase());

/** One operation's query or body args: the route's path params are not among them. */
function parameterOf(name: string, arg: ArgDescriptor): Json {
  const { description, ...schema } = jsonSchemaOf(arg);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  // WordPress reads `a=1,2` as a list (wp_parse_list) and `a[b]=1` as an object (PHP's query syntax)
  const style = types.includes('object') ? { style: 'deepObject', explode: true } : types.includes('array') ? { style: 'form', explode: false } : {};
  return { name, in: 'query', ...(description === undefined ? {} : { description }), required: arg.required === true, ...style, schema };
}

/**
 * The errors an endpoint may answer, by status: the engine's that apply and its refusal. What its
 * handler raises of its namespace's catalogue is listed once, on the namespace's tag
 * (`x-error-catalogue`): the spec does not say which handler raises which, and every code under
 * every operation would say each one can answer all of them.
 */
function errorResponses(route: RouteSpec, e: EndpointSpec, method: string, argNames: string[]): Json {
  const byStatus = new Map<number, Map<string, string>>();
  const add = (status: number, code: string, message: string) => {
    const codes = byStatus.get(status) ?? new Map<string, string>();
    if (!codes.has(code)) codes.set(code, message);
    byStatus.set(status, codes);
  };
  if (argNames.some((n) => e.args[n].required === true)) add(400, 'rest_missing_callback_param', ENGINE_ERRORS.rest_missing_callback_param.message);
  if (argNames.length) add(400, 'rest_invalid_param', ENGINE_ERRORS.rest_invalid_param.message);
  if (BODY_METHODS.has(method)) add(400, 'rest_invalid_json', ENGINE_ERRORS.rest_invalid_json.message);
  if ((e.permission ?? 'public') !== 'public') {
    const refusal = e.forbidden ?? { code: 'rest_forbidden', message: ENGINE_ERRORS.rest_forbidden.message };
    add(401, refusal.code, refusal.message);
    add(403, refusal.code, refusal.message);
  }
  if (route.fullPath.includes('{')) add(404, 'rest_no_route', ENGINE_ERRORS.rest_no_route.message);
  const statuses = [...byStatus.keys()].sort((a, b) => a - b);
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = byStatus.get(status)!;
      const lines = [...codes].map(([code, message]) => `- \`${code}\`: ${message}`);
      // the codes alone too, for whoever lists them (cms-spec docs)
      return [String(status), { description: `${STATUS_TEXT[status] ?? 'Error'}:\n${lines.join('\n')}`, 'x-error-codes': [...codes.keys()], content: { 'application/json': { schema: WP_ERROR } } }];
    }),
  );
}

/** A namespace's catalogue as the document lists it: each code's status and message template. */
const catalogueOf = (catalogue: ErrorCatalogue): Json => Object.fromEntries(Object.entries(catalogue).map(([code, e]) => [code, { status: e.status, message: e.message }]));

/** The body of a successful answer, as answerOf decides it (the route's resource as `resourceRef`); any JSON where the spec does not say. */
function successSchema(route: RouteSpec, e: EndpointSpec, method: string, resourceRef: Json | undefined): Json {
  const answer = answerOf(route, e, method);
  switch (answer.kind) {
    case 'declared':
      return jsonSchemaOf(answer.schema);
    case 'unknown':
      return {};
    case 'item':
      return resourceRef!;
    case 'list':
      return { type: 'array', items: resourceRef };
    case 'map':
      return { type: 'object', additionalProperties: resourceRef };
    case 'deleted': {
      const deleted = { type: 'object', properties: { deleted: { type: 'boolean' }, previous: resourceRef } };
      return answer.orItem ? { anyOf: [deleted, resourceRef] } : deleted;
    }
  }
}

/**
 * Operation ids: `namespace.function` (`cms-v2.listPosts`, the namespace as the root shows it);
 * where one handler serves several routes or methods, the later ones add the route's path, then
 * the method (`cms-v2.listPosts.pages`, `cms-v2.updatePost.put`).
 */
class OperationIds {
  private readonly used = new Set<string>();

  /** `namespace` as the root shows it. */
  take(namespace: string, route: RouteSpec, handler: string, method: string, firstMethod: boolean): string {
    const base = namespace ? `${slug(namespace)}.${handlerFunction(handler)}` : handlerFunction(handler);
    const words = route.fullPath.slice(route.namespace.length + 1).split('/').filter(Boolean).map((w) => w.replace(/[{}<>]/g, '')).join('.');
    const m = method.toLowerCase();
    const candidates = firstMethod ? [base, `${base}.${words}`, `${base}.${words}.${m}`] : [`${base}.${m}`, `${base}.${words}.${m}`];
    let id = candidates.find((c) => !this.used.has(c));
    for (let n = 2; id === undefined; n++) if (!this.used.has(`${candidates.at(-1)}.${n}`)) id = `${candidates.at(-1)}.${n}`;
    this.used.add(id);
    return id;
  }
}

export function openApiDocument(spec: Spec, o: OpenApiOptions): Json {
  const { root } = o;
  const namespaces = new Map(spec.namespaces.map((ns) => [ns.name, ns]));
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {
    WP_Error: {
      type: 'object',
      description: "WordPress's error answer (WP_Error as the REST API sends it).",
      required: ['code', 'message', 'data'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        data: { type: ['object', 'null'], properties: { status: { type: 'integer' } }, additionalProperties: true },
      },
    },
  };
  const ids = new OperationIds();
  const tags = new Map<string, Json>();

  for (const route of o.routes) {
    const ns = namespaces.get(route.namespace);
    const shownNamespace = route.namespace && root.namespace(route.namespace);
    if (shownNamespace && !tags.has(shownNamespace)) tags.set(shownNamespace, { name: shownNamespace, 'x-error-catalogue': catalogueOf({ ...spec.errors, ...ns?.errors }) });
    let resourceRef: Json | undefined;
    if (route.schema && route.schemaName) {
      const name = `${slug(shownNamespace)}.${route.schemaName}`;
      schemas[name] ??= jsonSchemaOf(route.schema);
      resourceRef = { $ref: `#/components/schemas/${name}` };
    }
    const pathParams = [...route.fullPath.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const path = root.path(route.fullPath);
    const item: Json = (paths[path] ??= {});
    for (const e of route.endpoints) {
      const methods = e.methods.filter((m) => OPERATION_METHODS.has(m) && !(m.toLowerCase() in item));
      methods.forEach((method, i) => {
        // `index: false` args are validated but documented nowhere, as the index does not show them
        const argNames = Object.keys(e.args).filter((n) => !pathParams.includes(n) && e.args[n].index !== false);
        const inPath = pathParams.map((name) => {
          const arg = e.args[name];
          const { description, ...schema } = arg ? jsonSchemaOf(arg) : { description: undefined };
          return { name, in: 'path', required: true, ...(description === undefined ? {} : { description }), schema: { ...schema, pattern: anchored(route.params[name] ?? ANY_SEGMENT) } };
        });
        const op: Json = {
          operationId: ids.take(shownNamespace, route, e.handler, method, i === 0),
          ...(shownNamespace ? { tags: [shownNamespace] } : {}),
          ...(e.ability ? { summary: e.ability.label, description: e.ability.description } : {}),
          'x-permission': e.permission ?? 'public',
        };
        if (BODY_METHODS.has(method)) {
          op.parameters = inPath;
          const body: Json = { type: 'object', properties: Object.fromEntries(argNames.map((n) => [n, jsonSchemaOf(e.args[n])])) };
          const required = argNames.filter((n) => e.args[n].required === true);
          if (required.length) body.required = required;
          const media: Json = { 'application/json': { schema: body }, 'application/x-www-form-urlencoded': { schema: body } };
          if (e.upload) media['multipart/form-data'] = { schema: { ...body, properties: { ...(body.properties as Json), file: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
          op.requestBody = { required: required.length > 0, content: media };
        } else {
          op.parameters = [...inPath, ...argNames.map((n) => parameterOf(n, e.args[n]))];
        }
        const created = method === 'POST' && resourceRef !== undefined && !route.fullPath.includes('{');
        op.responses = {
          [created ? '201' : '200']: { description: created ? 'Created' : 'OK', content: { 'application/json': { schema: successSchema(route, e, method, resourceRef) } } },
          ...errorResponses(route, e, method, argNames),
        };
        op.security = (e.permission ?? 'public') === 'public' ? [] : [{ [SECURITY_SCHEME]: [] }];
        item[method.toLowerCase()] = op;
      });
    }
    if (Object.keys(item).length === 0) delete paths[path];
  }

  return {
    openapi: '3.1.0',
    info: { title: `The REST API at /${root.prefix}/`, version: `variant ${o.variant}` },
    ...(o.url ? { servers: [{ url: o.url.replace(/\/$/, '') }] } : {}),
    tags: [...tags.values()],
    paths,
    components: {
      schemas,
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'http', scheme: 'basic', description: "A user's login and one of their application passwords (WordPress's Application Passwords)." },
      },
    },
  };
}
