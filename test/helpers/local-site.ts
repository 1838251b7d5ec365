import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A third-party site a test starts on a loopback port (an oEmbed provider, a page to discover):
 * `answer` replies by the request's URL, and the requests are counted per path, so a test can
 * tell whether the site was reached.
 */
export abstract class LocalSite {
  private server?: Server;
  /** `http://127.0.0.1:PORT`, once started. */
  base = '';
  private readonly hits = new Map<string, number>();

  protected abstract answer(url: URL, req: IncomingMessage, res: ServerResponse): void;

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.base);
      this.hits.set(url.pathname, (this.hits.get(url.pathname) ?? 0) + 1);
      this.answer(url, req, res);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  hitsOf(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
