import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger as PinoLogger } from 'pino';
import type { Logger } from '../engine/types.ts';
import { decodePercent } from '../engine/url-decoding.ts';

/**
 * serve's log: one access line per request (method, path, status, milliseconds) and the server's
 * own messages, through pino — JSON lines for log collectors, or pino-pretty's readable lines on
 * a terminal. Never a secret: no header is logged, and the values of credential query args are
 * replaced before a path is written.
 */

export const LOG_FORMATS = ['pretty', 'json', 'off'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** On by default where a person watches (a terminal), off where output goes to a file or pipe. */
export const defaultLogFormat = (): LogFormat => (process.stdout.isTTY ? 'pretty' : 'off');

/** Query args that carry credentials: their values never reach a log line (compared case-insensitively, `a[key]` by `a`). */
const CREDENTIAL_ARGS = new Set(['api_key', 'apikey', 'key', 'code', 'access_jwt', 'refresh_jwt', 'password', 'pwd', 'token', 'access_token', 'refresh_token', '_wpnonce', 'app_password', 'secret']);
const REDACTED = '[redacted]';

/** The request target as logged: the path, and the query with credential values replaced. */
export function loggedPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    // an undecodable key is compared as written
    const key = decodePercent(rawKey.replace(/\+/g, ' ')) ?? rawKey;
    const base = key.split('[')[0].toLowerCase();
    return eq >= 0 && CREDENTIAL_ARGS.has(base) ? `${rawKey}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

export interface ServeLog {
  /** The server's own messages (the engine's Logger). */
  server: Logger;
  /** False when access lines are not written: requests are then only counted, nothing is computed for them. */
  writesAccess: boolean;
  access(entry: { method: string; path: string; status: number; ms: number; aborted: boolean }): void;
}

/** pino and pino-pretty load only when a log is wanted, so `--log-format off` starts as fast as before. */
export async function createServeLog(format: LogFormat): Promise<ServeLog> {
  const plain: Logger = { error: (m) => console.error(`[cms-spec] ${m}`), info: (m) => console.log(`[cms-spec] ${m}`) };
  if (format === 'off') return { server: plain, writesAccess: false, access: () => {} };
  const { pino } = await import('pino');
  let logger: PinoLogger;
  if (format === 'json') {
    logger = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
  } else {
    const { default: pretty } = await import('pino-pretty');
    logger = pino({ base: undefined }, pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: 'HH:MM:ss', ignore: 'method,path,status,ms,aborted' }));
  }
  return {
    server: { error: (m) => logger.error(m), info: (m) => logger.info(m) },
    writesAccess: true,
    access: (e) => {
      const line = `${e.method} ${e.path} ${e.aborted ? 'aborted' : e.status} ${e.ms.toFixed(1)} ms`;
      if (e.aborted || e.status >= 500) logger.warn(e, line);
      else logger.info(e, line);
    },
  };
}

/** What serve knows about the requests it is answering, for the access log and the shutdown report. */
export interface RequestWatch {
  /** Requests received and not yet answered (or abandoned). */
  readonly inFlight: number;
  /** Requests answered since start. */
  readonly answered: number;
}

/**
 * Listens to every request of the HTTP server beside its own handler (first, so the clock starts
 * before any work) and reports each when its response is done or its client goes away.
 */
export function watchRequests(server: Server, log: ServeLog): RequestWatch {
  const watch = { inFlight: 0, answered: 0 };
  if (!log.writesAccess) {
    // the hot path of a server without an access log: one listener, no clock, no path
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      watch.inFlight++;
      res.once('close', () => {
        watch.inFlight--;
        watch.answered++;
      });
    });
    return watch;
  }
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    watch.inFlight++;
    let finished = false;
    res.once('finish', () => {
      finished = true;
    });
    res.once('close', () => {
      watch.inFlight--;
      watch.answered++;
      log.access({ method: req.method ?? 'GET', path: loggedPath(req.url ?? '/'), status: res.statusCode, ms: performance.now() - started, aborted: !finished });
    });
  });
  return watch;
}
