import { resolve } from 'node:path';

/**
 * Runtime settings read from the environment. Every variable is optional:
 *
 * | variable                        | default  | meaning                                                              |
 * |---------------------------------|----------|----------------------------------------------------------------------|
 * | CMS_SPEC_OUTBOUND_ALLOW         | (empty)  | comma-separated hosts, IPs and CIDRs outbound requests may reach even |
 * |                                 |          | though they are loopback/private (tests, intranet providers)          |
 * | CMS_SPEC_OUTBOUND_TIMEOUT_MS    | 5000     | whole-exchange deadline of one outbound request, redirects included  |
 * | CMS_SPEC_OUTBOUND_CONNECT_TIMEOUT_MS | 2000 | time to connect to a host (DNS, TCP and TLS): a host with no route |
 * |                                 |          | to it fails after this, not after the whole deadline                 |
 * | CMS_SPEC_OUTBOUND_UNREACHABLE_MS | 5000    | how long a host that could not be connected to is not tried again:   |
 * |                                 |          | requests to it fail at once meanwhile                                |
 * | CMS_SPEC_OUTBOUND_MAX_BYTES     | 1048576  | largest response body an outbound request accepts                    |
 * | CMS_SPEC_OEMBED_MAX_BYTES       | 153600   | largest oEmbed provider answer or page read for discovery (WP: 150 KB)|
 * | CMS_SPEC_OEMBED_CACHE_TTL       | 86400    | seconds a proxied oEmbed answer stays cached (WP: DAY_IN_SECONDS)     |
 * |                                 |          | and an embed's answer in post meta is fresh (oembed_ttl, the same)    |
 * | CMS_SPEC_OEMBED_PROVIDERS       | (none)   | path of a JSON provider list, same format as src/core/oembed/providers.json,|
 * |                                 |          | tried before the built-in list                                         |
 * | CMS_SPEC_SECRET_KEY             | (none)   | at least 32 characters: the key stored secrets (plugins' OAuth tokens)|
 * |                                 |          | are sealed with, kept out of the database so that a copy of it alone  |
 * |                                 |          | cannot open them; without it they are sealed with the site's secret   |
 * | CMS_SPEC_WP_COMPAT              | on       | `off`: the API answers only at its own root, not at the aliases of    |
 * |                                 |          | site.yaml's api_aliases (`/wp-json/` with `wp/v2`); `serve --wp-compat`|
 * | CMS_SPEC_MCP_PATH               | /mcp     | where the MCP server answers under each API root (`/cms-json/mcp`):   |
 * |                                 |          | `/` and path segments of letters, digits, `-`, `_`, `.` and `~`       |
 * | CMS_SPEC_SMTP_URL               | (none)   | the SMTP server the site's mail goes through, smtp:// or smtps://     |
 * |                                 |          | user:password@host:port (`serve --smtp`); without one, mail is written|
 * |                                 |          | to the server log                                                     |
 * | CMS_SPEC_MAIL_FROM              | (none)   | the address the site's mail comes from; default wordpress@{site host} |
 * | CMS_SPEC_PLUGIN_SOURCE          | (none)   | the folder `POST plugins` installs from: plugin folders and `{slug}.zip`|
 * |                                 |          | files the server trusts (it never reaches WordPress.org)               |
 *
 * Settings are read when first needed and re-read only when the environment changes, so a
 * process (or a test) that sets a variable before starting a server sees it without restarting.
 */
export interface Config {
  outbound: {
    /** Raw allow-list entries; src/net parses them once per distinct value. */
    allow: string[];
    /** Whole-exchange deadline, redirects and body included. */
    timeoutMs: number;
    /** Deadline of the connection alone (DNS, TCP, TLS), within the whole one. */
    connectTimeoutMs: number;
    /** How long a host whose connection failed is not tried again. */
    unreachableMs: number;
    maxBytes: number;
  };
  oembed: {
    maxBytes: number;
    cacheTtlSeconds: number;
    providersFile: string | null;
  };
  /** CMS_SPEC_SECRET_KEY, or null when the server is given none. */
  secretKey: string | null;
  /** CMS_SPEC_WP_COMPAT: whether the API answers at its aliases (WordPress's `/wp-json/`) too. */
  wpCompat: boolean;
  /** CMS_SPEC_MCP_PATH: the MCP server's path under each API root, as `/mcp`. */
  mcpPath: string;
  mail: {
    /** CMS_SPEC_SMTP_URL, checked; null: mail is written to the log. */
    smtpUrl: string | null;
    /** CMS_SPEC_MAIL_FROM; null: wordpress@{the site's host}. */
    from: string | null;
  };
  /** CMS_SPEC_PLUGIN_SOURCE, resolved; null: `POST plugins` has nowhere to install from. */
  pluginSource: string | null;
}

const VARIABLES = [
  'CMS_SPEC_OUTBOUND_ALLOW',
  'CMS_SPEC_OUTBOUND_TIMEOUT_MS',
  'CMS_SPEC_OUTBOUND_CONNECT_TIMEOUT_MS',
  'CMS_SPEC_OUTBOUND_UNREACHABLE_MS',
  'CMS_SPEC_OUTBOUND_MAX_BYTES',
  'CMS_SPEC_OEMBED_MAX_BYTES',
  'CMS_SPEC_OEMBED_CACHE_TTL',
  'CMS_SPEC_OEMBED_PROVIDERS',
  'CMS_SPEC_SECRET_KEY',
  'CMS_SPEC_WP_COMPAT',
  'CMS_SPEC_MCP_PATH',
  'CMS_SPEC_SMTP_URL',
  'CMS_SPEC_MAIL_FROM',
  'CMS_SPEC_PLUGIN_SOURCE',
] as const;

let cached: { key: string; config: Config } | null = null;

export function config(env: NodeJS.ProcessEnv = process.env): Config {
  const key = VARIABLES.map((v) => env[v] ?? '').join('\0');
  if (cached?.key !== key) cached = { key, config: readConfig(env) };
  return cached.config;
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  return {
    outbound: {
      allow: (env.CMS_SPEC_OUTBOUND_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean),
      timeoutMs: positiveInt(env, 'CMS_SPEC_OUTBOUND_TIMEOUT_MS', 5000),
      connectTimeoutMs: positiveInt(env, 'CMS_SPEC_OUTBOUND_CONNECT_TIMEOUT_MS', 2000),
      unreachableMs: positiveInt(env, 'CMS_SPEC_OUTBOUND_UNREACHABLE_MS', 5000),
      maxBytes: positiveInt(env, 'CMS_SPEC_OUTBOUND_MAX_BYTES', 1024 * 1024),
    },
    oembed: {
      maxBytes: positiveInt(env, 'CMS_SPEC_OEMBED_MAX_BYTES', 150 * 1024),
      cacheTtlSeconds: positiveInt(env, 'CMS_SPEC_OEMBED_CACHE_TTL', 24 * 60 * 60),
      providersFile: env.CMS_SPEC_OEMBED_PROVIDERS?.trim() || null,
    },
    secretKey: secretKey(env),
    wpCompat: onOff(env, 'CMS_SPEC_WP_COMPAT', true),
    mcpPath: pathUnderRoot(env, 'CMS_SPEC_MCP_PATH', '/mcp'),
    mail: { smtpUrl: smtpUrl(env), from: mailFrom(env) },
    pluginSource: env.CMS_SPEC_PLUGIN_SOURCE?.trim() ? resolve(env.CMS_SPEC_PLUGIN_SOURCE.trim()) : null,
  };
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw !== 'on' && raw !== 'off') throw new Error(`${name} must be 'on' or 'off', got '${raw}'`);
  return raw === 'on';
}

const PATH_UNDER_ROOT = /^(\/[\w.~-]+)+$/;

/** A path under the API root: one a URL carries as written, with no query, no `..` trick and no trailing slash. */
function pathUnderRoot(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!PATH_UNDER_ROOT.test(raw) || raw.split('/').some((s) => s === '.' || s === '..')) throw new Error(`${name} must be a path such as /mcp (segments of letters, digits, '-', '_', '.' and '~'), got '${raw}'`);
  return raw;
}

const SMTP_SCHEMES = new Set(['smtp:', 'smtps:']);

/** An SMTP URL as given (`--smtp`, CMS_SPEC_SMTP_URL); a mistake is said at start-up, not at the first message. */
export function checkSmtpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`the SMTP server must be a URL such as smtp://user:password@mail.example.com:587, got '${raw}'`);
  }
  if (!SMTP_SCHEMES.has(url.protocol) || !url.hostname) throw new Error(`the SMTP server's URL must start with smtp:// or smtps:// and name a host, got '${url.protocol}//${url.host}'`);
  return url;
}

function smtpUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.CMS_SPEC_SMTP_URL?.trim();
  if (!raw) return null;
  checkSmtpUrl(raw);
  return raw;
}

function mailFrom(env: NodeJS.ProcessEnv): string | null {
  const raw = env.CMS_SPEC_MAIL_FROM?.trim();
  if (!raw) return null;
  if (!/^[^@\s<>]+@[^@\s<>]+$/.test(raw)) throw new Error(`CMS_SPEC_MAIL_FROM must be an email address, got '${raw}'`);
  return raw;
}

/** A short key is as weak as no key, and said so at once rather than used. */
function secretKey(env: NodeJS.ProcessEnv): string | null {
  const raw = env.CMS_SPEC_SECRET_KEY?.trim();
  if (!raw) return null;
  if (raw.length < 32) throw new Error('CMS_SPEC_SECRET_KEY must be at least 32 characters long');
  return raw;
}

/** A bad value is a startup-visible mistake, not something to silently replace with the default. */
function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return Number(raw);
}
