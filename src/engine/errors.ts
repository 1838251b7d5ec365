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

/**
 * A 404 for the object a route's URL names (rest_post_invalid_id...). WordPress's permission
 * callbacks of such a route look the object up first, so every one of them fails and the answer
 * carries no Allow header.
 */
export function missingObject(code: string, message: string): RestError {
  const e = new RestError(code, message, 404);
  e.objectMissing = true;
  return e;
}

export const noRoute = () => new RestError('rest_no_route', 'No route was found matching the URL and request method.', 404);

export const invalidJson = (message: string) =>
  new RestError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: message });

export const missingParams = (names: string[]) =>
  new RestError('rest_missing_callback_param', `Missing parameter(s): ${names.join(', ')}`, 400, { params: names });

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
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${[...failures.keys()].join(', ')}`, 400, { params, details });
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

export const forbidden = (loggedIn: boolean, message = 'Sorry, you are not allowed to do that.', code = 'rest_forbidden') =>
  new RestError(code, message, authStatus(loggedIn));
