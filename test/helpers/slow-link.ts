import { connect, createServer, type Socket } from 'node:net';

/** A TCP relay to a database whose answers reach the client `delayMs` late, as from a database on a farther machine. */
export interface SlowLink {
  /** How late the database's answers arrive from now on (milliseconds). */
  delayMs: number;
  /** `location` (a postgres:// URL) reached through the relay. */
  through(location: string): string;
  close(): Promise<void>;
}

/**
 * Relays every connection to `location`'s host and port; what the client sends goes on at once,
 * what the server answers is held `delayMs` (in order). So a query the database ran before some
 * other client's commit can still be on its way when that commit has been acknowledged: the window
 * in which an instance could take an old read for a current one.
 */
export async function startSlowLink(location: string, delayMs = 0): Promise<SlowLink> {
  const target = new URL(location);
  const sockets = new Set<Socket>();
  let link: SlowLink;
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === client ? upstream : client).destroy());
    }
    client.on('data', (chunk) => upstream.write(chunk));
    // timers of one delay fire in the order they were set: the bytes stay in order (while the delay stays what it is)
    upstream.on('data', (chunk) => setTimeout(() => client.writable && client.write(chunk), link.delayMs));
    client.on('end', () => upstream.end());
    upstream.on('end', () => setTimeout(() => client.end(), link.delayMs));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  link = {
    delayMs,
    through(location) {
      const url = new URL(location);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.href;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return link;
}
