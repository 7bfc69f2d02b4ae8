import type { Kysely } from 'kysely';
import type { DeveloperDatabase } from './tables.js';

/**
 * Gives an account this password hash, as an operator or the demo data
 * does: credentials are made when the account has none (its address then
 * counts as verified: nobody signs up for it), replaced otherwise; every
 * session of the account ends and every reset link stops working.
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
        .values({ account_id: accountId, password_hash: passwordHash, created_at: now, email_verified_at: now })
        .execute();
    }
    await trx.deleteFrom('developer_sessions').where('account_id', '=', accountId).execute();
    await trx
      .deleteFrom('developer_email_tokens')
      .where('account_id', '=', accountId)
      .where('purpose', '=', 'reset')
      .execute();
  });
}
