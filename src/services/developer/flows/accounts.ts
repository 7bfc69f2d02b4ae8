import { canonicalInbox, normalizeEmail } from '../../../accounts/email.js';
import { checkCurrentPassword, hashNewPassword, refuseWeakPassword } from './credentials.js';
import type { FlowDeps } from './deps.js';
import { passwordChangedNotice } from '../domain/emailLinks.js';
import { sendInBackground, verificationFor } from './emailFlows.js';
import type { ActiveSession } from './sessions.js';

/**
 * "Sign up": a new account with a password that is not easy to guess. The same outcome, after the same
 * work (the password is hashed either way), whether or not the address already has an account, so it
 * reveals nothing; an existing account gets nothing new. The client logs in next.
 */
export async function signUp(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'mailLimit' | 'mailer' | 'logger' | 'publicUrl'>,
  request: { email: string; password: string; ip: string },
): Promise<void> {
  const email = normalizeEmail(request.email);
  await refuseWeakPassword(request.password, email);
  const created = await deps.store.createAccount(email, await hashNewPassword(deps, request.ip, request.password));
  // Sign-ups of one inbox's many spellings (`carol+1@`, `carol+2@`, …) mail it a few times an hour, not once each.
  if (created !== 'email-taken' && (await deps.mailLimit.allows(`to:${canonicalInbox(email)}`))) {
    sendInBackground(deps, await verificationFor(deps, created.accountId, email), 'verification');
  }
}

/**
 * "Change the password" while signed in: the current password again (counted like a log-in), the new one
 * checked as at sign-up; every other session ends, and the address is told.
 */
export async function changePassword(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'mailer' | 'logger' | 'publicUrl'>,
  session: Pick<ActiveSession, 'accountId' | 'email' | 'tokenHash'>,
  request: { currentPassword: string; newPassword: string; ip: string },
): Promise<void> {
  await checkCurrentPassword(deps, session, request.currentPassword, request.ip);
  await refuseWeakPassword(request.newPassword, session.email);
  await deps.store.changePassword(
    session.accountId,
    await hashNewPassword(deps, request.ip, request.newPassword),
    session.tokenHash,
  );
  sendInBackground(deps, passwordChangedNotice(deps.publicUrl, session.email), 'password changed');
}

/**
 * "Delete my account": the password again (counted like a log-in), then what the services keep for the account
 * and do not let go of by themselves ends (`farewell`: its publishing user's tokens), then the account and
 * everything it owns go in one statement; its keys stop working at once here and, through the change bus and
 * the key caches' bound, on every instance.
 */
export async function deleteAccount(
  deps: Pick<FlowDeps, 'store' | 'throttle' | 'passwords' | 'farewell'>,
  session: Pick<ActiveSession, 'accountId' | 'email'>,
  request: { password: string; ip: string },
): Promise<void> {
  await checkCurrentPassword(deps, session, request.password, request.ip);
  await deps.farewell(session.accountId);
  await deps.store.deleteAccount(session.accountId);
}
