// Outgoing mail (docs/deployment.md "Mail"): invitation and password-reset mails, sent through
// nodemailer to CAIRN_SMTP_URL when it is set. Without it nothing is sent: the owner gets the link in
// the answer, and a self-service reset is logged for the operator.
//
// Nothing here is awaited by a request. A mail goes out after the transaction that made its link has
// committed (no database transaction waits on an SMTP server), and its success or failure never
// shapes an answer: a slow or unreachable mail server costs the caller nothing, and the answer's
// timing cannot tell whether a mail was sent (docs/decisions.md "Invitations and password links").
// The same goes for work done only for a mail (a reset request's lookup: `later`). Every send and
// piece of work is tracked, so that closing the app waits for them and tests can wait for them
// (`idle`) instead of sleeping. nodemailer is loaded on the first mail: a server without SMTP never
// loads it.
import type { FastifyBaseLogger } from 'fastify';
import type { Mail as Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's mailer (app.ts), for its routes and for tests waiting on what it does (`idle`). */
    mailer: Mailer;
  }
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Whether mails go out (CAIRN_SMTP_URL is set). */
  readonly enabled: boolean;
  /** Sends in the background; a failure is logged with the recipient and subject, never the text. */
  send(mail: Mail): void;
  /** Runs `work` in the background, tracked like a send; a failure is logged as `what`. */
  later(what: string, work: () => Promise<void>): void;
  /** Resolves once every send and work under way (and what they started) has finished. */
  idle(): Promise<void>;
  /** Waits for what is under way, then closes the SMTP connections. */
  close(): Promise<void>;
}

/** What a service needs to hand out a link: where links point, and how mails go. */
export interface Outbound {
  publicUrl: string;
  mailer: Mailer;
}

// An SMTP server that does not answer must not hold a send (and the app's close) for minutes, which
// are nodemailer's defaults.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, log: FastifyBaseLogger): Mailer {
  const pending = new Set<Promise<void>>();
  let transport: Promise<Transporter> | undefined;
  const transporter = (url: string) => {
    transport ??= import('nodemailer').then((nodemailer) =>
      nodemailer.createTransport({ url, ...TIMEOUTS }, { from: config.mailFrom }),
    );
    return transport;
  };
  const track = (what: string, work: () => Promise<void>) => {
    const running = Promise.resolve()
      .then(work)
      .catch((error: unknown) => log.error({ err: error }, what))
      .finally(() => pending.delete(running));
    pending.add(running);
  };
  const idle = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };
  return {
    enabled: config.smtpUrl !== undefined,
    send(mail) {
      const url = config.smtpUrl;
      if (url === undefined) return;
      track(`mail to ${mail.to} ("${mail.subject}") was not sent`, async () => {
        await (await transporter(url)).sendMail(mail);
        log.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      });
    },
    later: track,
    idle,
    async close() {
      await idle();
      if (transport) (await transport).close();
    },
  };
}
