import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** The kinds of dashboard link a message carries (`/developers#<kind>=<token>`). */
export type LinkKind = 'verify' | 'reset' | 'email';

/** A real SMTP server in this process (the `smtp-server` package): every message it takes, parsed. */
export interface Mailbox {
  /** `SMTP_URL` for a server that should send here. */
  url: string;
  /** Every message taken and not yet read by `next`. */
  inbox: ParsedMail[];
  /** The next message to an address whose text matches (waits for it); throws when none comes within 5 s. */
  next(to: string, match: (mail: ParsedMail) => boolean): Promise<ParsedMail>;
  /** The next message to an address with a dashboard link of this kind, the link and its token. */
  nextLink(to: string, kind: LinkKind): Promise<{ mail: ParsedMail; link: string; token: string }>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const inbox: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        inbox.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;

  async function next(to: string, match: (mail: ParsedMail) => boolean) {
    for (let waited = 0; waited < 5000; waited += 20) {
      const index = inbox.findIndex((mail) => match(mail) && JSON.stringify(mail.to).includes(to));
      if (index >= 0) return inbox.splice(index, 1)[0]!;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no matching email to ${to}`);
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    next,
    async nextLink(to, kind) {
      const mail = await next(to, (candidate) => candidate.text?.includes(`#${kind}=`) ?? false);
      const link = new RegExp(`(\\S+/developers#${kind}=([A-Za-z0-9_-]+))`).exec(mail.text!)!;
      return { mail, link: link[1]!, token: link[2]! };
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
