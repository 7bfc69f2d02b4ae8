import type { Kysely } from 'kysely';
import { createAccount } from '../../../../accounts/accounts.js';
import { accountsOf } from '../../../../accounts/tables.js';
import { normalizeEmail } from '../../../../accounts/email.js';
import type { DeveloperDatabase } from '../tables.js';
import type { DeveloperAccounts } from '../developerStore.js';
import { isUniqueViolation } from '../../../../platform/store/uniqueViolation.js';

/** Dashboard accounts on a Kysely database: an account (see src/accounts) and its password. */
export function kyselyDeveloperAccounts(db: Kysely<DeveloperDatabase>): DeveloperAccounts {
  return {
    async createAccount(email, passwordHash) {
      const now = new Date().toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          const accountId = await createAccount(accountsOf(trx), email, now);
          if (accountId === 'email-taken') return accountId;
          await trx
            .insertInto('developer_credentials')
            .values({ account_id: accountId, password_hash: passwordHash, created_at: now })
            .execute();
          return { accountId };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'email-taken';
        throw error;
      }
    },

    async findCredentials(email) {
      const row = await db
        .selectFrom('accounts')
        .innerJoin('developer_credentials', 'developer_credentials.account_id', 'accounts.id')
        .select(['accounts.id', 'developer_credentials.password_hash'])
        .where('accounts.email', '=', normalizeEmail(email))
        .executeTakeFirst();
      return row && { accountId: row.id, passwordHash: row.password_hash };
    },
  };
}
