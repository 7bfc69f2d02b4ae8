import type { VerifiedAccount } from '../../domain/profile.js';
import { accountUsername } from '../../domain/accountUsername.js';
import type { ProfileVerifiedAccountsTable } from '../tables.js';

/** The search index's rows of a profile's verified accounts: the visible ones that have a username (hidden ones are never found). */
export function verifiedAccountRows(
  accountId: string,
  accounts: readonly VerifiedAccount[],
): ProfileVerifiedAccountsTable[] {
  return accounts.flatMap((account, position) => {
    const username = accountUsername(account);
    return account.hidden || !username
      ? []
      : [{ account_id: accountId, position, service_type: account.serviceType, username }];
  });
}
