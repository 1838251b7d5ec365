import type { Transporter } from 'nodemailer';
import { checkSmtpUrl } from '../config.ts';
import type { Logger } from '../engine/types.ts';
import { decodePercent } from '../engine/url-decoding.ts';

/** One message of the site's (wp_mail's arguments): plain text, as WordPress's own notices are. */
export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  replyTo?: string;
}

export interface MailFrom {
  name: string;
  address: string;
}

/**
 * Where the site's mail goes (wp_mail): the SMTP server the site is configured with, through
 * nodemailer; with none, each message is written to the server log instead (so a site without a
 * mail server still shows an administrator the reset link it would have sent).
 */
export interface Mailer {
  /** The SMTP server as `smtp://host:port` (never its password), or null when mail goes to the log. */
  readonly destination: string | null;
  /** Sends a message; false (and the reason logged) when it could not be handed over, as wp_mail returns. */
  send(message: MailMessage, from: MailFrom): Promise<boolean>;
  close(): void;
}

/** The server's address without its credentials, to say where mail goes. */
const describe = (url: URL) => `${url.protocol}//${url.host}`;

const recipients = (m: MailMessage) => [m.to].flat().join(', ');

export function createMailer(smtpUrl: string | null, log: Logger): Mailer {
  if (!smtpUrl) {
    return {
      destination: null,
      async send(m, from) {
        log.info(`mail (no SMTP server configured, so it is written here instead of sent)\nFrom: ${from.name} <${from.address}>\nTo: ${recipients(m)}\nSubject: ${m.subject}\n\n${m.text}`);
        return true;
      },
      close() {},
    };
  }
  const url = checkSmtpUrl(smtpUrl);
  const secure = url.protocol === 'smtps:';
  // nodemailer is loaded with the first message: a site that sends none never loads it
  let transport: Promise<Transporter> | undefined;
  const connect = async () => {
    const { createTransport } = await import('nodemailer');
    return createTransport({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      auth: url.username ? { user: decodePercent(url.username) ?? url.username, pass: decodePercent(url.password) ?? url.password } : undefined,
      // one connection kept between messages, and a bounded wait for a server that does not answer
      pool: true,
      maxConnections: 1,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  };
  return {
    destination: describe(url),
    async send(m, from) {
      try {
        transport ??= connect();
        await (await transport).sendMail({ from: { name: from.name, address: from.address }, to: m.to, subject: m.subject, text: m.text, replyTo: m.replyTo });
        return true;
      } catch (e) {
        log.error(`mail to ${recipients(m)} ("${m.subject}") could not be sent through ${describe(url)}: ${e instanceof Error ? e.message : String(e)}`);
        return false;
      }
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}
