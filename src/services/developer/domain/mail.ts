/** Mail as the flows send it; `mail/mailer.ts` builds the `Mailer` over SMTP or the log. */

/** One plain-text message to one address. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Sends a message; rejects when the SMTP server refuses it or cannot be reached. */
  send(message: MailMessage): Promise<void>;
  /** True when messages are only written to the log (no `SMTP_URL`). */
  readonly logsOnly: boolean;
}
