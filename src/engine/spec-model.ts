/** The plain data a spec folder is loaded into (spec.ts loads it; see spec-load.ts). */
import type { ApiAliasSpec } from './api-root.ts';

export type Variant = 'A' | 'B';
export const ALL_VARIANTS: Variant[] = ['A', 'B'];

/** An argument descriptor exactly as written in YAML (key order kept). */
export type ArgDescriptor = Record<string, unknown>;

/** Where a spec item was written, for `file:line:` messages. */
export interface SourcePos {
  file: string;
  line: number;
}

/**
 * An endpoint offered as a named action (WordPress 6.9's Abilities API): what an agent is told it
 * does. The engine only carries the declaration; whoever serves abilities reads it from the Spec.
 */
export interface AbilitySpec {
  /** `vendor/action`: lower-case letters, digits and hyphens on each side of one slash. */
  name: string;
  label: string;
  description: string;
  /** The slug of a category declared in site.yaml or in the endpoint's namespace file. */
  category: string;
  pos: SourcePos;
}

/** A code of an error catalogue (`errors:` in a namespace file or site.yaml): what `ctx.fail(code, values)` answers. */
export interface ErrorSpec {
  status: number;
  /** The message, `{name}` placeholders filled from the raise's values. */
  message: string;
  pos: SourcePos;
}

/** A group of abilities (`ability_categories:` in site.yaml or a namespace file). */
export interface AbilityCategorySpec {
  slug: string;
  label: string;
  description: string;
  pos: SourcePos;
}

export interface EndpointSpec {
  methods: string[];
  handler: string;
  /** Unset when the spec declares none (lint reports it); the spec is plain JSON, so absent rather than undefined. */
  permission?: string;
  /** Where the permission was written: the endpoint's own line, or its file's `defaults:`. */
  permissionPos?: SourcePos;
  /** Present (true) when the permission comes from the file's `defaults:` rather than the endpoint. */
  permissionInherited?: true;
  /** The refusal a caller without the permission gets (a permission callback's own WP_Error). */
  forbidden?: { code: string; message: string };
  /**
   * `permission_check:`, a handler module's export (`comments.mayCreate`) deciding for the request
   * what the capability cannot (WordPress's permission_callback): it throws the refusal, and the
   * engine runs it before the handler and for the Allow header.
   */
  check?: string;
  args: Record<string, ArgDescriptor>;
  allowBatch: boolean;
  variants: Variant[];
  /** Declared as a second handler for a method the route already has (the interface's repeated methods). */
  repeat: boolean;
  /**
   * Takes file uploads (a raw body, or multipart/form-data): the body may be as large as the
   * server's upload limit and is streamed to temporary files, which the handler finds in
   * `ctx.request.files`, instead of being read into memory under the body limit.
   */
  upload: boolean;
  pos: SourcePos;
  /** Position of each arg, for lint messages. */
  argPos: Record<string, SourcePos>;
  /** Where the endpoint itself declares `allow_batch` (absent when it inherits the route's), for lint. */
  batchPos?: SourcePos;
  /** Declared as an ability; never shown in the index (WordPress's index does not show abilities either). */
  ability?: AbilitySpec;
  /** The JSON Schema of a successful answer's body, as declared; not shown in the index. */
  response?: Record<string, unknown>;
  responsePos?: SourcePos;
}

export interface RouteSpec {
  namespace: string;
  /** Path as written, relative to the namespace: `/snippets/{id}`. */
  path: string;
  /** Full path with `{name}` variables: `/code-snippets/v1/snippets/{id}`. */
  fullPath: string;
  /** The route key WordPress clients know: `/code-snippets/v1/snippets/(?P<id>[\d]+)`. */
  key: string;
  params: Record<string, string>;
  /** Where each of `params` was written: the route's `params:`, or the file's `defaults:` it inherits. */
  paramPos?: Record<string, SourcePos>;
  /** Handed to the handlers as `ctx.config`: what one handler serving several routes needs to tell them apart. */
  config: Record<string, unknown>;
  /** Folder of the handler modules the endpoints name. */
  handlersDir: string;
  endpoints: EndpointSpec[];
  pos: SourcePos;
  /**
   * Set on a route template: the kind of thing it is written for (`each: post_type`). It is served
   * once per instance the application names for that kind (EngineHost.routeInstances), with each
   * `<name>` in its path and config replaced by the instance's value.
   */
  each?: string;
  /** What the route's behaviour follows (`follows:` of the route or its file), for the docs: `WordPress 6.1 WP_REST_Comments_Controller`. Not served. */
  follows?: string;
  /** The name of its resource's schema among the namespace's `schemas:` (`schema: post`), as written. */
  schemaName?: string;
  /** That schema, resolved once every file of the namespace is read: OPTIONS answers it (WordPress's get_item_schema). */
  schema?: Record<string, unknown>;
  /**
   * What a GET of the route answers of its resource, when its path does not say it (`collection:`):
   * `list` (items), `map` (items by name, WordPress's types and statuses) or `none` (one item,
   * `/users/me`). Unsaid, a path ending in a static segment is a list. Not served. See responses.ts.
   */
  collection?: 'list' | 'map' | 'none';
}

export interface NamespaceSpec {
  name: string;
  variants: Variant[];
  routes: RouteSpec[];
  /** Folder of the namespace's handler modules (its `handlers:`, else site.yaml's). */
  handlersDir: string;
  /** Named JSON Schemas of the namespace's resources (`schemas:`), for handlers that shape and serve them. */
  schemas: Record<string, Record<string, unknown>>;
  /** Ability categories this file declares for its own endpoints. */
  abilityCategories: AbilityCategorySpec[];
  /** The namespace's error catalogue (`errors:` of its files), by code; site.yaml's and the engine's codes are not repeated here. */
  errors: Record<string, ErrorSpec>;
  pos: SourcePos;
}

export interface Spec {
  dir: string;
  apiPrefix: string;
  /** Further addresses the API answers at (site.yaml's `api_aliases`), each with the namespaces it renames. */
  apiAliases: ApiAliasSpec[];
  /** Default folder of handler modules (site.yaml's `handlers`), for namespaces that name none of their own. */
  handlersDir: string;
  /** site.yaml as written: the application reads its own keys (`site`, `auth_path`, `plugins`) from it. */
  settings: Record<string, unknown>;
  namespaces: NamespaceSpec[];
  /** Every route in registration order: root routes, then each namespace's index and routes. */
  routes: RouteSpec[];
  /** Ability categories site.yaml declares, for the endpoints of any namespace. */
  abilityCategories: AbilityCategorySpec[];
  /** site.yaml's error catalogue: codes every namespace's handlers may raise. */
  errors: Record<string, ErrorSpec>;
}

const BUILTIN_INDEX = '@index';
const BUILTIN_BATCH = '@batch';
export const BUILTIN_NAMESPACE_INDEX = '@namespace_index';
export const BUILTIN_HANDLERS = new Set([BUILTIN_INDEX, BUILTIN_BATCH, BUILTIN_NAMESPACE_INDEX]);
