import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Mailer } from '../domain/mail.js';

/**
 * Email out through nodemailer to `SMTP_URL`. Without it, each message is
 * written to the log at info level, link included: that is the local demo
 * (nothing can be delivered), and the only place a link's secret is ever logged.
 * nodemailer is loaded with the first message sent: start-up does not wait for it.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  const { smtpUrl, from, logger } = options;
  if (!smtpUrl) {
    return {
      logsOnly: true,
      async send(message) {
        logger.info(
          { mail: message },
          `email not sent (no SMTP_URL): to ${message.to}: ${message.subject}\n${message.text}`,
        );
      },
    };
  }
  let transport: Promise<Transporter> | undefined;
  return {
    logsOnly: false,
    async send(message) {
      transport ??= import('nodemailer').then(({ createTransport }) => createTransport(smtpUrl));
      await (await transport).sendMail({ from, ...message });
    },
  };
}
