import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 answer as it came on a raw connection. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer;
}

/** A TCP connection to the server of `url`, once connected. */
export function openConnection(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const s = connect(Number(port), hostname, () => done(s));
    s.once('error', fail);
  });
}

/**
 * The answers arriving on a connection, in order, as they are complete (each framed by its
 * Content-Length, as every answer of this server is): `answers` grows, `onAnswer` is told each,
 * `closed` settles when the server closes the connection.
 */
export class AnswerReader {
  readonly answers: RawAnswer[] = [];
  readonly closed: Promise<void>;
  onAnswer: (answer: RawAnswer) => void = () => {};
  private pending: Buffer = Buffer.alloc(0);

  constructor(socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
      this.parse();
    });
    this.closed = new Promise((done) => {
      socket.once('close', () => done());
      // a reset after the answers were read is still the end of the connection
      socket.once('error', () => {});
    });
  }

  /** Settles once `n` answers have come, or fails when the connection closes before. */
  async until(n: number): Promise<RawAnswer[]> {
    if (this.answers.length >= n) return this.answers;
    return new Promise((done, fail) => {
      const previous = this.onAnswer;
      this.onAnswer = (a) => {
        previous(a);
        if (this.answers.length >= n) done(this.answers);
      };
      void this.closed.then(() => fail(new Error(`the connection closed after ${this.answers.length} answers, before ${n}`)));
    });
  }

  private parse(): void {
    for (;;) {
      const end = this.pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.pending.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (this.pending.length < end + 4 + length) return;
      const body = Buffer.from(this.pending.subarray(end + 4, end + 4 + length));
      this.pending = this.pending.subarray(end + 4 + length);
      const answer = { status: Number(head[0].split(' ')[1]), headers, body };
      this.answers.push(answer);
      this.onAnswer(answer);
    }
  }
}
