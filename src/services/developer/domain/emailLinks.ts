import { issueSecret, sha256Hex } from '../../../platform/security/secrets.js';
import type { MailMessage } from './mail.js';

/** How long a verification link works. */
export const VERIFY_TTL_SECONDS = 24 * 60 * 60;
/** How long a password-reset link works: short, since it gives the account away. */
export const RESET_TTL_SECONDS = 30 * 60;
/** How long a new-address link works: short too, since it moves the account (and its password resets) to that address. */
export const EMAIL_CHANGE_TTL_SECONDS = 60 * 60;

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
const dashboardLink = (publicUrl: string, kind: 'verify' | 'reset' | 'email', token: string) =>
  `${publicUrl}/developers#${kind}=${token}`;

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

/** To the new address: the link that moves the account to it. */
export function emailChangeMessage(publicUrl: string, to: string, from: string, token: string): MailMessage {
  return {
    to,
    subject: 'Confirm your new email address for the developer dashboard',
    text: [
      `Open this link to move your developer dashboard account from ${from} to this address:`,
      '',
      dashboardLink(publicUrl, 'email', token),
      '',
      'It works once, for 60 minutes; confirming logs out every session, so log in with this address next.',
      'If you did not ask for this, ignore this message: nothing changes.',
    ].join('\n'),
  };
}

/** To a new address that already has an account: the account cannot move there (told to its owner only, never to the asker). */
export function emailTakenMessage(publicUrl: string, to: string): MailMessage {
  return {
    to,
    subject: 'Your address already has a developer dashboard account',
    text: [
      'Someone asked to move another developer dashboard account to this address, but it already has an account,',
      'so nothing changed. If it was you, log in with this address instead, or set a new password for it:',
      '',
      `${publicUrl}/developers`,
      '',
      'If it was not you, ignore this message.',
    ].join('\n'),
  };
}

/** To the old address, once the account has moved: its owner learns of a change they did not make. */
export function emailChangedNotice(publicUrl: string, to: string, newEmail: string): MailMessage {
  return {
    to,
    subject: 'The email address of your developer dashboard account changed',
    text: [
      `The developer dashboard account of this address now uses ${newEmail}; every session was logged out.`,
      'Emails about the account, password resets included, now go there.',
      '',
      `If you did not make this change, someone knows your password: contact the operators of ${publicUrl}.`,
    ].join('\n'),
  };
}

/** To the account's address, once its password changed (by a reset link or while signed in): its owner learns of a change they did not make. */
export function passwordChangedNotice(publicUrl: string, to: string): MailMessage {
  return {
    to,
    subject: 'The password of your developer dashboard account changed',
    text: [
      'The password of the developer dashboard account of this address was changed; other sessions were logged out, and the apps you authorized lost their access (they must ask you again).',
      '',
      `If you did not make this change, set a new password at once: ${publicUrl}/developers (Forgot your password?).`,
    ].join('\n'),
  };
}
