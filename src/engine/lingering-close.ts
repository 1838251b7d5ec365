import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused body is still read (and dropped) once its answer is sent, at most. */
export const LINGER_MS = 2000;
/** How many bytes of it, at most. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Closes the connection after an answer given before the request's body was read (a 413, an upload
 * refused), so that the client can read that answer. Node closes a `Connection: close` socket as
 * soon as the answer is written; the body still arriving then finds the socket closed, the kernel
 * answers it with a reset, and a client still sending gets EPIPE or ECONNRESET instead of the
 * answer (issue 40: most 10 MB bodies sent with Content-Length). Here the server half-closes
 * instead (its FIN follows the answer, so the client sees the answer end) and goes on reading and
 * dropping what comes, until the client closes its side, LINGER_BYTES have come or LINGER_MS have
 * passed, whichever is first; only then is the socket destroyed. Call it before the answer is
 * written.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  // a request whose body stream was destroyed (an upload cut off while streaming) no longer names its connection; its answer does
  const socket = req.socket ?? res.socket;
  if (!socket) return;
  // what Node calls once a Connection: close answer is written (net.Socket's destroySoon: end, then destroy)
  socket.destroySoon = () => linger(socket);
  // the body is dropped as it comes rather than held
  req.resume();
}

function linger(socket: Socket): void {
  if (socket.destroyed) return;
  let dropped = 0;
  const done = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(done, LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) done();
  });
  socket.once('end', done);
  socket.once('error', done);
  socket.once('close', () => clearTimeout(timer));
  socket.end();
  socket.resume();
}
