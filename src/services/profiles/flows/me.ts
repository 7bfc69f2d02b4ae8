import type { Profile } from '../domain/profile.js';
import { notAuthorized, profileDisabled } from '../errors.js';
import type { FlowDeps } from './deps.js';

/** The hashes of the signed-in person's email: 401 when the account is gone (or the accounts are not at hand). */
async function emailHashesOf(
  deps: Pick<FlowDeps, 'accounts'>,
  accountId: string,
): Promise<{ sha256: string; md5: string }> {
  // No person is ever resolved without the accounts.
  const hashes = await deps.accounts?.emailHashesOf(accountId);
  if (!hashes) throw notAuthorized();
  return hashes;
}

/** The signed-in person's profile: 404 `disabled` when they have none. */
export async function readMyProfile(
  deps: Pick<FlowDeps, 'accounts' | 'profiles'>,
  accountId: string,
): Promise<Profile> {
  const { sha256 } = await emailHashesOf(deps, accountId);
  const profile = await deps.profiles.findProfile({ by: 'sha256', value: sha256 });
  if (!profile) throw profileDisabled();
  return profile;
}

/** Whether an email hash (SHA-256 or MD5 hex, any letter case) is that of the signed-in person's email. */
export async function isMyEmailHash(
  deps: Pick<FlowDeps, 'accounts'>,
  accountId: string,
  emailHash: string,
): Promise<boolean> {
  const { sha256, md5 } = await emailHashesOf(deps, accountId);
  const hash = emailHash.toLowerCase();
  return hash === sha256 || hash === md5;
}
