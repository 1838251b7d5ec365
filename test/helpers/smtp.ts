import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: the envelope, the headers and the decoded text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:PORT` */
  url: string;
  received: ReceivedMail[];
  /** The next message to `to` (with this subject, when given) not taken yet; waits for it up to ten seconds. */
  next(to: string, subject?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as a header may carry them. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=\s*/gi, (_, _charset, kind: string, data: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : Buffer.from(data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

/** A single-part text message, as nodemailer writes the site's: 7bit, quoted-printable or base64. */
function parse(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const body = raw.slice(split + 4);
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  let text = Buffer.from(body, 'latin1').toString('utf8');
  if (encoding === 'quoted-printable') text = Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  else if (encoding === 'base64') text = Buffer.from(body, 'base64').toString('utf8');
  return { headers, text };
}

/** A real SMTP server (the smtp-server library) on a free port of this machine, keeping what it is sent. */
export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    // no TLS on the loopback: the library's own certificate is self-signed
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const { headers, text } = parse(Buffer.concat(chunks).toString('latin1'));
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), headers, subject: headers.subject ?? '', text });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async next(to, subject) {
      for (let waited = 0; waited < 10_000; waited += 50) {
        const found = received.find((m) => !taken.has(m) && m.to.includes(to) && (subject === undefined || m.subject === subject));
        if (found) {
          taken.add(found);
          return found;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no mail to ${to} arrived; received: ${received.map((m) => `${m.to.join(',')} ${m.subject}`).join('; ')}`);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
