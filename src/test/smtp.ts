// A local SMTP server for tests (smtp-server), on a free port of 127.0.0.1: it accepts every mail, with
// no TLS and no login, and keeps what it received, parsed (mailparser), for the test to read back.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface LocalSmtp {
  /** CAIRN_SMTP_URL for the app under test. */
  url: string;
  received: ReceivedMail[];
  /** The mails received for `to` so far, removed from `received`. */
  take(to: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<LocalSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    take(to) {
      const mine = received.filter((m) => m.to.includes(to));
      for (const m of mine) received.splice(received.indexOf(m), 1);
      return mine;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The one link of a mail's text that starts with `prefix` (a Cairn page of the public URL). */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const links = mail.text.split(/\s+/).filter((word) => word.startsWith(prefix));
  assert.equal(links.length, 1, `one ${prefix} link in: ${mail.text}`);
  return links[0]!;
}
