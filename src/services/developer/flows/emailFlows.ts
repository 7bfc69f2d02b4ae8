import { canonicalInbox, normalizeEmail } from '../../../accounts/email.js';
import type { Mailer } from '../domain/mail.js';
import { rateLimitClient } from '../../../platform/security/clientAddress.js';
import { emailTaken, invalidToken, sameEmail, weakPassword } from '../errors.js';
import { checkCurrentPassword, hashNewPassword } from './credentials.js';
import type { FlowDeps } from './deps.js';
import type { EmailTokenPurpose } from '../domain/developerStore.js';
import {
  EMAIL_CHANGE_TTL_SECONDS,
  emailChangedNotice,
  emailChangeMessage,
  emailTakenMessage,
  hashLinkToken,
  issueLinkToken,
  passwordChangedNotice,
  passwordResetMessage,
  RESET_TTL_SECONDS,
  VERIFY_TTL_SECONDS,
  verificationMessage,
} from '../domain/emailLinks.js';
import { passwordWeakness } from '../domain/passwordPolicy.js';
import type { ActiveSession } from './sessions.js';

/** How long a link of each purpose works. */
const LINK_TTL_SECONDS: Readonly<Record<EmailTokenPurpose, number>> = {
  verify: VERIFY_TTL_SECONDS,
  reset: RESET_TTL_SECONDS,
  email: EMAIL_CHANGE_TTL_SECONDS,
};

/**
 * Issues an emailed link's token: a new one (the account's earlier ones of
 * the purpose stop working), kept hashed with its expiry (and, to move the
 * account, the new address). Answers the token, which only the email carries.
 */
async function issueLink(
  deps: Pick<FlowDeps, 'store'>,
  link: { accountId: string; purpose: EmailTokenPurpose; newEmail?: string },
): Promise<string> {
  const { token, tokenHash } = issueLinkToken();
  const expiresAt = new Date(Date.now() + LINK_TTL_SECONDS[link.purpose] * 1000).toISOString();
  const { accountId, purpose, newEmail } = link;
  await deps.store.issueEmailToken({
    tokenHash,
    accountId,
    purpose,
    expiresAt,
    ...(newEmail === undefined ? {} : { newEmail }),
  });
  return token;
}

/**
 * Sends a message without making the caller wait for the mail server: the
 * answer takes as long whether or not an email goes out (nothing to learn
 * from its timing), and a mail server down does not fail the request.
 */
export function sendInBackground(
  deps: Pick<FlowDeps, 'mailer' | 'logger'>,
  message: Parameters<Mailer['send']>[0],
  what: string,
): void {
  deps.mailer
    .send(message)
    .catch((error: unknown) => deps.logger.error({ err: error }, `could not send the ${what} email`));
}

/** A new verification link for the account's address, as the message that carries it. */
export async function verificationFor(deps: Pick<FlowDeps, 'store' | 'publicUrl'>, accountId: string, email: string) {
  return verificationMessage(deps.publicUrl, email, await issueLink(deps, { accountId, purpose: 'verify' }));
}

/** "Send the verification email again": a new link (earlier ones stop working), a few per hour. */
export async function resendVerification(
  deps: Pick<FlowDeps, 'store' | 'mailLimit' | 'mailer' | 'publicUrl'>,
  session: Pick<ActiveSession, 'accountId' | 'email'>,
): Promise<void> {
  if (!(await deps.store.isEmailVerified(session.accountId))) {
    await deps.mailLimit.take(`account:${session.accountId}`);
    await deps.mailer.send(await verificationFor(deps, session.accountId, session.email));
  }
}

/** "Verify an email address": the link's token, used once. Answers the address verified. */
export async function verifyEmail(deps: Pick<FlowDeps, 'store'>, token: string): Promise<string> {
  const owner = await deps.store.consumeEmailToken(hashLinkToken(token), 'verify');
  if (!owner) throw invalidToken();
  await deps.store.markEmailVerified(owner.accountId);
  return owner.email;
}

/**
 * "Ask to change the account's email address": the password again (counted like a log-in), then a link to
 * the new address. The same outcome whether or not that address has an account: its owner is told by
 * email instead, so the asker learns nothing sign-up would not tell. A few per hour per account and per
 * new address, so nobody can flood an inbox through it. Answers the new address as it will be kept.
 */
export async function requestEmailChange(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'mailLimit' | 'mailer' | 'logger' | 'publicUrl'>,
  session: Pick<ActiveSession, 'accountId' | 'email'>,
  request: { newEmail: string; password: string; ip: string },
): Promise<string> {
  const newEmail = normalizeEmail(request.newEmail);
  await checkCurrentPassword(deps, session, request.password, request.ip);
  if (newEmail === session.email) throw sameEmail();
  await deps.mailLimit.take(`account:${session.accountId}`);
  await deps.mailLimit.take(`to:${canonicalInbox(newEmail)}`);
  if (await deps.store.isEmailTaken(newEmail)) {
    sendInBackground(deps, emailTakenMessage(deps.publicUrl, newEmail), 'address taken');
  } else {
    const token = await issueLink(deps, { accountId: session.accountId, purpose: 'email', newEmail });
    sendInBackground(deps, emailChangeMessage(deps.publicUrl, newEmail, session.email, token), 'new address');
  }
  return newEmail;
}

/**
 * "Confirm a new email address": the link's token, used once. The account moves to the address the link
 * was sent to (verified by it), every session ends, and the old address is told. Answers the new address.
 */
export async function confirmEmailChange(
  deps: Pick<FlowDeps, 'store' | 'mailer' | 'logger' | 'publicUrl'>,
  token: string,
): Promise<string> {
  const owner = await deps.store.consumeEmailToken(hashLinkToken(token), 'email');
  if (!owner?.newEmail) throw invalidToken();
  if ((await deps.store.changeEmail(owner.accountId, owner.newEmail)) === 'email-taken') throw emailTaken();
  sendInBackground(deps, emailChangedNotice(deps.publicUrl, owner.email, owner.newEmail), 'address changed');
  return owner.newEmail;
}

/**
 * "Ask for a password reset link": the same work before the answer for every address (no enumeration); a
 * link goes out only to an account that can log in. Counted per address and client address together, and
 * per address more loosely: a stranger's requests use up their own budget, not the owner's, so nobody can
 * block an owner's recovery from one address.
 */
export async function requestPasswordReset(
  deps: Pick<FlowDeps, 'store' | 'mailLimit' | 'resetLimit' | 'mailer' | 'logger' | 'publicUrl'>,
  request: { email: string; ip: string },
): Promise<void> {
  const email = normalizeEmail(request.email);
  const credentials = await deps.store.findCredentials(email);
  // Counted for unknown addresses too, so both take the same work; the rest happens after the answer.
  // The recipient's own count is taken only within the asker's share: a stranger refused there uses up nothing of the owner's.
  const allowed =
    (await deps.mailLimit.allows(`reset:${canonicalInbox(email)}\n${rateLimitClient(request.ip)}`)) &&
    (await deps.resetLimit.allows(`reset:${canonicalInbox(email)}`));
  if (credentials && allowed) {
    // Started once the answer is on its way: nothing the caller waits for depends on the address.
    setImmediate(() => {
      issueLink(deps, { accountId: credentials.accountId, purpose: 'reset' })
        .then((token) => sendInBackground(deps, passwordResetMessage(deps.publicUrl, email, token), 'password reset'))
        .catch((error: unknown) => deps.logger.error({ err: error }, 'could not issue a password reset link'));
    });
  }
}

/** "Set a new password": the link's token, used once; the password checked as at sign-up; every session ends. */
export async function resetPassword(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'mailer' | 'logger' | 'publicUrl'>,
  request: { token: string; password: string; ip: string },
): Promise<void> {
  const { store } = deps;
  const tokenHash = hashLinkToken(request.token);
  // The token is checked before the password so a used link says so; it is spent only once the password passes.
  const owner = await store.consumeEmailToken(tokenHash, 'reset');
  if (!owner) throw invalidToken();
  const weakness = await passwordWeakness(request.password, owner.email);
  const giveBack = () =>
    store.issueEmailToken({ tokenHash, accountId: owner.accountId, purpose: 'reset', expiresAt: owner.expiresAt });
  if (weakness) {
    // Given back (with what is left of its life) so the owner can choose a better password with the same link.
    await giveBack();
    throw weakPassword(weakness);
  }
  // A hash refused while too many run (503) changes nothing either: the same link works on a retry.
  const stored = await hashNewPassword(deps, request.ip, request.password).catch(async (error: unknown) => {
    await giveBack();
    throw error;
  });
  await store.resetPassword(owner.accountId, stored);
  sendInBackground(deps, passwordChangedNotice(deps.publicUrl, owner.email), 'password changed');
}
