import { issueSecret, sha256Hex } from '../../../platform/security/secrets.js';
import type { MailMessage } from '../../../platform/mail/mailer.js';

/** How long a verification link works. */
export const VERIFY_TTL_SECONDS = 24 * 60 * 60;
/** How long a password-reset link works: short, since it gives the account away. */
export const RESET_TTL_SECONDS = 30 * 60;

/** A link token's stored form: its SHA-256 hex, like every other secret (256 random bits, so a fast hash is enough). */
export const hashLinkToken = sha256Hex;

/** A new link token (256 bits, base64url) and the hash the store keeps. */
export function issueLinkToken(): { token: string; tokenHash: string } {
  const { secret, hash } = issueSecret();
  return { token: secret, tokenHash: hash };
}

/**
 * The token rides in the fragment of the dashboard's URL: browsers never send
 * a fragment to a server or in a Referer, so it stays out of access logs.
 */
const dashboardLink = (publicUrl: string, kind: 'verify' | 'reset', token: string) => `${publicUrl}/developers#${kind}=${token}`;

export function verificationMessage(publicUrl: string, to: string, token: string): MailMessage {
  return {
    to,
    subject: 'Verify your email address for the developer dashboard',
    text: [
      'Open this link to verify your address and start creating applications:',
      '',
      dashboardLink(publicUrl, 'verify', token),
      '',
      'It works once, for 24 hours. If you did not sign up, ignore this message.',
    ].join('\n'),
  };
}

export function passwordResetMessage(publicUrl: string, to: string, token: string): MailMessage {
  return {
    to,
    subject: 'Set a new password for the developer dashboard',
    text: [
      'Open this link to set a new password:',
      '',
      dashboardLink(publicUrl, 'reset', token),
      '',
      'It works once, for 30 minutes; setting a new password logs out every session.',
      'If you did not ask for this, ignore this message: your password is unchanged.',
    ].join('\n'),
  };
}
