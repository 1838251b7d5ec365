/** A REST error in WordPress's shape: `{code, message, data: {status, ...}}`. Handlers throw it. */
export class RestError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown> | null;
  /** Headers the error response carries (e.g. Retry-After). */
  readonly headers: Record<string, string> = {};

  constructor(code: string, message: string, status = 500, data: Record<string, unknown> | null = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }

  /** Whether it says the object the route's URL names does not exist (see missingObject). */
  objectMissing = false;

  /** Data the error held before its last (WP_Error::add_data on a code that has some): the body's `additional_data`. */
  additionalData?: unknown[];

  /** The body WordPress sends: `data` carries the status unless the error has no data at all. */
  toBody(): { code: string; message: string; data: Record<string, unknown> | null; additional_data?: unknown[] } {
    const body = { code: this.code, message: this.message, data: this.data === null ? null : { status: this.status, ...this.data } };
    return this.additionalData ? { ...body, additional_data: this.additionalData } : body;
  }
}

/** A code of an error catalogue: its status and its message, `{name}` placeholders filled from the raise's values. */
export interface CataloguedError {
  status: number;
  message: string;
}

export type ErrorCatalogue = Readonly<Record<string, CataloguedError>>;

/**
 * The engine's own codes: what it answers itself (no route, bad JSON, args that fail
 * validation, a refused permission...), which any handler may raise too without declaring them.
 */
export const ENGINE_ERRORS = {
  rest_no_route: { status: 404, message: 'No route was found matching the URL and request method.' },
  rest_invalid_json: { status: 400, message: 'Invalid JSON body passed.' },
  rest_missing_callback_param: { status: 400, message: 'Missing parameter(s): {params}' },
  rest_invalid_param: { status: 400, message: 'Invalid parameter(s): {params}' },
  rest_forbidden: { status: 403, message: 'Sorry, you are not allowed to do that.' },
  rest_invalid_namespace: { status: 404, message: 'The specified namespace could not be found.' },
  rest_batch_not_allowed: { status: 400, message: 'The requested route does not support batch requests.' },
  parse_path_failed: { status: 400, message: 'Could not parse the path.' },
  rest_too_many_params: { status: 400, message: 'A request may carry at most {max} parameters.' },
  rest_params_too_deep: { status: 400, message: 'Parameters may be nested at most {max} levels deep.' },
  rest_payload_too_large: { status: 413, message: 'The request body is larger than the limit of {limit} bytes.' },
  rest_upload_malformed: { status: 400, message: 'The multipart/form-data body could not be read.' },
  rest_service_unavailable: { status: 503, message: 'The site cannot answer right now; try again shortly.' },
  rest_header_fields_too_large: { status: 431, message: 'The request line or its headers are larger than this server accepts.' },
  rest_request_timeout: { status: 408, message: 'The request was not received in time.' },
  rest_bad_request: { status: 400, message: 'The request is not valid HTTP, or its URL has characters no URL may have.' },
} satisfies ErrorCatalogue;

export type EngineErrorCode = keyof typeof ENGINE_ERRORS;

/** Values a message template's `{name}` placeholders are filled from; a list is written `a, b`. */
export type ErrorValues = Readonly<Record<string, string | number | readonly (string | number)[]>>;

/**
 * The error a catalogue entry describes, its message filled in. A `status` in `data` is the
 * answer's status instead of the catalogued one, as WordPress's `['status' => 404]` says it
 * (one code, e.g. rest_user_invalid_id, answers 400 or 404 by where it is raised). A placeholder
 * with no value is a mistake in the handler, not the request's, so it throws a plain Error (a 500).
 */
export function catalogued(code: string, entry: CataloguedError, values: ErrorValues = {}, data: Record<string, unknown> = {}): RestError {
  const message = entry.message.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`error ${code}: no value for {${name}} in its message`);
    return Array.isArray(value) ? value.join(', ') : String(value);
  });
  const { status, ...rest } = data;
  return new RestError(code, message, typeof status === 'number' ? status : entry.status, rest);
}

/** One of the engine's own errors. */
export const engineError = (code: EngineErrorCode, values?: ErrorValues, data?: Record<string, unknown>): RestError => catalogued(code, ENGINE_ERRORS[code], values, data);

/**
 * The error (a 404: rest_post_invalid_id...) marked as saying that the object the route's URL
 * names does not exist: `throw missingObject(ctx.fail('rest_post_invalid_id'))`. WordPress's
 * permission callbacks of such a route look the object up first, so every one of them fails and
 * the answer carries no Allow header.
 */
export function missingObject(e: RestError): RestError {
  e.objectMissing = true;
  return e;
}

export const noRoute = () => engineError('rest_no_route');

export const invalidJson = (message: string) => engineError('rest_invalid_json', {}, { json_error_code: 4, json_error_message: message });

export const missingParams = (names: string[]) => engineError('rest_missing_callback_param', { params: names }, { params: names });

export interface ParamFailure {
  code: string;
  message: string;
  data: Record<string, unknown> | null;
}

export function invalidParams(failures: Map<string, ParamFailure>): RestError {
  const params: Record<string, string> = {};
  const details: Record<string, ParamFailure> = {};
  for (const [name, f] of failures) {
    params[name] = f.message;
    details[name] = f;
  }
  return engineError('rest_invalid_param', { params: [...failures.keys()] }, { params, details });
}

/**
 * One param a handler-level check refuses, as WP_REST_Request::has_valid_params answers it. With a
 * message, its validate_callback returned a WP_Error: `details` holds that error (`code` and
 * `data` as WordPress's schema check gives them: rest_not_in_enum, rest_invalid_type with
 * `{param}`...; rest_invalid_param and null otherwise). Without one, the callback returned false:
 * WordPress says "Invalid parameter." and has no details (an empty PHP array, `[]`).
 */
export function invalidParam(name: string, message?: string, failure: { code?: string; data?: Record<string, unknown> } = {}): RestError {
  if (message === undefined) return engineError('rest_invalid_param', { params: [name] }, { params: { [name]: 'Invalid parameter.' }, details: [] });
  return invalidParams(new Map([[name, { code: failure.code ?? 'rest_invalid_param', message, data: failure.data ?? null }]]));
}

/** `%l` of wp_sprintf_l: "a", "a and b", "a, b, and c". */
export function listJoin(items: unknown[]): string {
  const s = items.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  if (s.length <= 1) return s.join('');
  if (s.length === 2) return `${s[0]} and ${s[1]}`;
  return `${s.slice(0, -1).join(', ')}, and ${s[s.length - 1]}`;
}

/** 401 when nobody is logged in, 403 when someone is (rest_authorization_required_code). */
export const authStatus = (loggedIn: boolean) => (loggedIn ? 403 : 401);

export const forbidden = (loggedIn: boolean, message = ENGINE_ERRORS.rest_forbidden.message, code = 'rest_forbidden') =>
  new RestError(code, message, authStatus(loggedIn));
