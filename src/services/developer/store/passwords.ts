import type { Kysely } from 'kysely';
import { markAccountEmailVerified } from '../../../accounts/accounts.js';
import { endWhatCredentialsOpened } from './credentialsChanged.js';
import type { DeveloperDatabase } from './tables.js';

/**
 * Gives an account this password hash, as an operator or the demo data
 * does: credentials are made when the account has none (its address then
 * counts as verified: nobody signs up for it), replaced otherwise; what the
 * old credentials opened ends (`endWhatCredentialsOpened`: sessions, the
 * apps' OAuth grants and tokens, reset links).
 */
export async function setAccountPassword(
  db: Kysely<DeveloperDatabase>,
  accountId: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('developer_credentials')
      .set({ password_hash: passwordHash })
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await trx
        .insertInto('developer_credentials')
        .values({ account_id: accountId, password_hash: passwordHash, created_at: now })
        .execute();
      await markAccountEmailVerified(trx, accountId, now);
    }
    await endWhatCredentialsOpened(trx, accountId);
  });
}
