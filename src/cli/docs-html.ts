/**
 * The pages of `cms-spec docs`, rendered from the OpenAPI document of the routes (so the reference
 * and the document say the same): an index of the namespaces, and one page per namespace with
 * each route's methods, args, permission, errors and an example request. Every text from the
 * spec is escaped; the markup is XHTML-clean (every element closed) so any parser reads it.
 */

type Json = Record<string, any>;

export interface NamespaceErrors {
  /** The namespace as the document names it; '' for the routes at the API root. */
  namespace: string;
  errors: Record<string, { status: number; message: string }>;
}

export interface ReferencePage {
  file: string;
  html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

const ROOT_GROUP = '';
const pageFile = (namespace: string) => (namespace === ROOT_GROUP ? 'root.html' : `${namespace.replace(/[^\w.-]+/g, '-')}.html`);
const groupTitle = (namespace: string) => (namespace === ROOT_GROUP ? 'The API root' : namespace);
/** An element id for a route and method: `get-cms-v2-posts-id`. */
const anchor = (method: string, path: string) => `${method}${path}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/-$/, '');

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#1e1e1e}
code,pre{font-family:ui-monospace,monospace}pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
.method{font-weight:bold}section.route{border-top:2px solid #ddd;margin-top:2rem}`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8" /><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body></html>
`;
}

/** A schema's type in words: `integer`, `array of string`, `object | array`. */
export function typeText(schema: Json): string {
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const words = types.map((t) => (t === 'array' && schema.items && Object.keys(schema.items).length ? `array of ${typeText(schema.items)}` : t));
  return words.join(' | ') || 'any';
}

/** A schema's bounds and choices in words: `one of: asc, desc`, `1 to 100`, `at least 1`. */
export function constraintsText(schema: Json): string {
  const parts: string[] = [];
  const list = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (Array.isArray(schema.enum)) parts.push(`one of: ${list(schema.enum)}`);
  if (schema.items && Array.isArray(schema.items.enum)) parts.push(`items one of: ${list(schema.items.enum)}`);
  const low = schema.minimum ?? schema.exclusiveMinimum;
  const high = schema.maximum ?? schema.exclusiveMaximum;
  const lowText = schema.exclusiveMinimum !== undefined ? `more than ${low}` : `at least ${low}`;
  const highText = schema.exclusiveMaximum !== undefined ? `less than ${high}` : `at most ${high}`;
  if (low !== undefined && high !== undefined && schema.exclusiveMinimum === undefined && schema.exclusiveMaximum === undefined) parts.push(`${low} to ${high}`);
  else if (low !== undefined && high !== undefined) parts.push(`${lowText}, ${highText}`);
  else if (low !== undefined) parts.push(lowText);
  else if (high !== undefined) parts.push(highText);
  if (schema.minLength !== undefined || schema.maxLength !== undefined) parts.push(`length ${schema.minLength ?? 0} to ${schema.maxLength ?? 'any'}`);
  if (schema.minItems !== undefined || schema.maxItems !== undefined) parts.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? 'any'} items`);
  if (schema.uniqueItems === true) parts.push('unique items');
  if (schema.pattern !== undefined) parts.push(`pattern ${schema.pattern}`);
  if (schema.format !== undefined) parts.push(`format ${schema.format}`);
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[k])) parts.push(`${k === 'oneOf' ? 'one' : 'any'} of: ${schema[k].map((alt: Json) => (alt.title ? `${alt.title} (${typeText(alt)})` : typeText(alt))).join('; ')}`);
  }
  return parts.join('; ');
}

interface Arg {
  name: string;
  where: string;
  required: boolean;
  description?: string;
  schema: Json;
}

function argsOf(op: Json): Arg[] {
  const args: Arg[] = (op.parameters ?? []).map((p: Json) => ({ name: p.name, where: p.in, required: p.required === true, description: p.description, schema: p.schema }));
  const body = op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  for (const [name, schema] of Object.entries((body?.properties ?? {}) as Record<string, Json>)) {
    const { description, ...rest } = schema;
    args.push({ name, where: 'body', required: (body!.required ?? []).includes(name), description, schema: rest });
  }
  return args;
}

const FORMAT_EXAMPLES: Record<string, string> = { 'date-time': '2026-01-01T12:00:00', email: 'someone@example.com', uri: 'https://example.com/', uuid: '123e4567-e89b-42d3-a456-426614174000', ip: '192.0.2.1', 'hex-color': '#336699' };

/** A value of an arg for the example request: its default, its first choice, one of its format, else one of its type. */
function exampleValue(schema: Json): unknown {
  if (schema.default !== undefined && !(Array.isArray(schema.default) && schema.default.length === 0)) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [exampleValue(schema.items ?? {})];
  if (type === 'object') return {};
  return 'example';
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** An example request with curl: the path's params filled in, the required args (or the first one) given. */
export function curlExample(server: string, path: string, method: string, op: Json): string {
  const args = argsOf(op);
  const url = server + path.replace(/\{(\w+)\}/g, (_, name: string) => String(exampleValue(args.find((a) => a.where === 'path' && a.name === name)?.schema ?? {})));
  const parts = ['curl'];
  if (method !== 'get') parts.push('-X', method.toUpperCase());
  if ((op.security ?? []).length) parts.push('-u', shellQuote('USER:APPLICATION_PASSWORD'));
  const given = args.filter((a) => a.where !== 'path' && a.required);
  if (op.requestBody) {
    const body = given.length ? given : args.filter((a) => a.where === 'body').slice(0, 1);
    parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(Object.fromEntries(body.map((a) => [a.name, exampleValue(a.schema)])))));
    parts.push(shellQuote(url));
  } else {
    const query = new URLSearchParams(given.map((a) => [a.name, [exampleValue(a.schema)].flat().join(',')])).toString();
    parts.push(shellQuote(query ? `${url}?${query}` : url));
  }
  return parts.join(' ');
}

function argsTable(args: Arg[]): string {
  if (!args.length) return '<p>No arguments.</p>';
  const rows = args.map(
    (a) =>
      `<tr><td><code>${escapeHtml(a.name)}</code></td><td>${escapeHtml(a.where)}</td><td>${escapeHtml(typeText(a.schema))}</td><td>${a.required ? 'yes' : 'no'}</td><td>${a.schema.default === undefined ? '' : `<code>${escapeHtml(JSON.stringify(a.schema.default))}</code>`}</td><td>${escapeHtml(constraintsText(a.schema))}</td><td>${escapeHtml(a.description ?? '')}</td></tr>`,
  );
  return `<table><thead><tr><th>Argument</th><th>In</th><th>Type</th><th>Required</th><th>Default</th><th>Bounds and choices</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function errorsList(op: Json): string {
  const items = Object.entries(op.responses as Record<string, Json>)
    .filter(([status]) => Number(status) >= 400)
    .map(([status, r]) => `<li>${escapeHtml(status)}: ${(r['x-error-codes'] as string[]).map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}</li>`);
  return items.length ? `<ul>${items.join('')}</ul>` : '<p>None but the server’s own.</p>';
}

function operationSection(server: string, path: string, method: string, op: Json): string {
  const permission = op['x-permission'] === 'public' ? 'public: anyone, no credentials' : `<code>${escapeHtml(op['x-permission'])}</code> (a user with this capability, with an application password)`;
  return `<h3 id="${anchor(method, path)}"><span class="method">${escapeHtml(method.toUpperCase())}</span> <code>${escapeHtml(path)}</code></h3>
${op.summary ? `<p>${escapeHtml(op.summary)}: ${escapeHtml(op.description ?? '')}</p>` : ''}<p>Permission: ${permission}. Operation id: <code>${escapeHtml(op.operationId)}</code>.</p>
${argsTable(argsOf(op))}
<h4>Errors</h4>
${errorsList(op)}
<h4>Example</h4>
<pre><code>${escapeHtml(curlExample(server, path, method, op))}</code></pre>`;
}

function catalogueTable(errors: NamespaceErrors['errors']): string {
  const rows = Object.entries(errors).map(([code, e]) => `<tr><td><code>${escapeHtml(code)}</code></td><td>${escapeHtml(e.status)}</td><td>${escapeHtml(e.message)}</td></tr>`);
  if (!rows.length) return '';
  return `<h2>Errors</h2><table><thead><tr><th>Code</th><th>Status</th><th>Message</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The index page and one page per namespace (and one for the root's routes) of an OpenAPI document built by openApiDocument. */
export function renderReference(doc: Json, catalogues: readonly NamespaceErrors[]): ReferencePage[] {
  const server: string = doc.servers?.[0]?.url ?? '';
  const groups = new Map<string, [string, Json][]>();
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const namespace = (Object.values(item)[0] as Json).tags?.[0] ?? ROOT_GROUP;
    groups.set(namespace, [...(groups.get(namespace) ?? []), [path, item]]);
  }
  const pages: ReferencePage[] = [];
  const listed: string[] = [];
  for (const [namespace, routes] of groups) {
    const sections = routes.map(([path, item]) => {
      const methods = Object.keys(item).map((m) => `<a href="#${anchor(m, path)}">${escapeHtml(m.toUpperCase())}</a>`);
      return `<section class="route"><h2><code>${escapeHtml(path)}</code></h2><p>Methods: ${methods.join(', ')}</p>
${Object.entries(item)
  .map(([method, op]) => operationSection(server, path, method, op as Json))
  .join('\n')}</section>`;
    });
    const errors = catalogues.find((c) => c.namespace === namespace)?.errors ?? {};
    const title = groupTitle(namespace);
    pages.push({ file: pageFile(namespace), html: page(`${title}: ${doc.info.title}`, `<p><a href="index.html">All namespaces</a></p>\n<h1>${escapeHtml(title)}</h1>\n${catalogueTable(errors)}\n${sections.join('\n')}`) });
    listed.push(`<li><a href="${escapeHtml(pageFile(namespace))}">${escapeHtml(title)}</a>: ${routes.length} route${routes.length === 1 ? '' : 's'}</li>`);
  }
  const intro = `<h1>${escapeHtml(doc.info.title)}</h1>\n<p>${escapeHtml(doc.info.version)}${server ? `, at <code>${escapeHtml(server)}/</code>` : ''}. Calls that need a permission take HTTP Basic credentials: a user's login and one of their application passwords.</p>`;
  pages.unshift({ file: 'index.html', html: page(doc.info.title, `${intro}\n<ul>${listed.join('')}</ul>`) });
  return pages;
}
