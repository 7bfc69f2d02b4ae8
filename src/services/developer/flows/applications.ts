import { issueApiKey } from '../../../accounts/apiKey.js';
import type { Application } from '../../../accounts/applications.js';
import {
  applicationLimitReached,
  applicationNameTaken,
  applicationNotFound,
  emailNotVerified,
  keyNotFound,
} from '../errors.js';
import type { FlowDeps } from './deps.js';

/** The account a change of its applications acts for: its id, and its address (the rotations are counted per inbox). */
type Owner = { accountId: string; email: string };

/** An application with a key just issued: the key itself is in this outcome only, never stored. */
export interface IssuedKey {
  application: Application;
  keyId: string;
  key: string;
}

/** A new API key, and what the store keeps of it. */
function newKey() {
  const key = issueApiKey();
  return { key: key.key, stored: { hash: key.hash, displayPrefix: key.displayPrefix } };
}

export const listApplications = (deps: Pick<FlowDeps, 'store'>, accountId: string): Promise<Application[]> =>
  deps.store.listApplications(accountId);

/**
 * "Create an application": its first key is issued with it (shown once); at most `maxApplications` per
 * account, and only once the account's address is verified.
 */
export async function createApplication(
  deps: Pick<FlowDeps, 'store' | 'rotations' | 'maxApplications'>,
  owner: Owner,
  request: { name: string; description: string; websiteUrl: string },
): Promise<IssuedKey> {
  const { accountId, email } = owner;
  // Read from the store, not the session: a verification in another browser counts at once.
  if (!(await deps.store.isEmailVerified(accountId))) throw emailNotVerified();
  // A new application's key counts as a rotation does, so deleting and recreating gives no more keys.
  await deps.rotations.admit(accountId, email);
  const name = request.name.trim();
  const { key, stored } = newKey();
  const created = await deps.store.createApplication(
    accountId,
    { name, description: request.description.trim(), websiteUrl: request.websiteUrl },
    stored,
    deps.maxApplications,
  );
  if (typeof created === 'string') await deps.rotations.giveBack(accountId, email);
  if (created === 'name-taken') throw applicationNameTaken(name);
  if (created === 'limit-reached') throw applicationLimitReached(deps.maxApplications);
  return { application: created.application, keyId: created.keyId, key };
}

/**
 * "Rotate an application's key": a new key, shown once; the old ones stop working at once. Counted
 * against the account's rotations for 24 hours (429 beyond them); a rotation of an application that is
 * not the account's is not counted.
 */
export async function rotateApplicationKey(
  deps: Pick<FlowDeps, 'store' | 'rotations'>,
  owner: Owner,
  applicationId: string,
): Promise<IssuedKey> {
  const { accountId, email } = owner;
  await deps.rotations.admit(accountId, email);
  const { key, stored } = newKey();
  const rotated = await deps.store.rotateKey(accountId, applicationId, stored);
  if (!rotated) {
    await deps.rotations.giveBack(accountId, email);
    throw applicationNotFound();
  }
  return { application: rotated.application, keyId: rotated.keyId, key };
}

/** Revokes one key of one of the account's applications; answers the application as it is now. */
export async function revokeApiKey(
  deps: Pick<FlowDeps, 'store'>,
  accountId: string,
  applicationId: string,
  keyId: string,
): Promise<Application> {
  const application = await deps.store.revokeKey(accountId, applicationId, keyId);
  if (!application) throw keyNotFound();
  return application;
}

/** Deletes one of the account's applications with its keys. */
export async function deleteApplication(
  deps: Pick<FlowDeps, 'store'>,
  accountId: string,
  applicationId: string,
): Promise<void> {
  if (!(await deps.store.deleteApplication(accountId, applicationId))) throw applicationNotFound();
}
