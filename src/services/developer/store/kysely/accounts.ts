import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { emailHashes, normalizeEmail } from '../../../profiles/domain/emailHash.js';
import type { Database } from '../../../../platform/store/database.js';
import type { DeveloperAccounts } from '../developerStore.js';
import { isUniqueViolation } from './uniqueViolation.js';

/** Dashboard accounts on a Kysely database: a row of the shared `accounts` table and its password. */
export function kyselyDeveloperAccounts(db: Kysely<Database>): DeveloperAccounts {
  return {
    async createAccount(email, passwordHash) {
      const normalized = normalizeEmail(email);
      const { sha256, md5 } = emailHashes(normalized);
      const accountId = randomUUID();
      const now = new Date().toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          const existing = await trx.selectFrom('accounts').select('id').where('email', '=', normalized).executeTakeFirst();
          if (existing) return 'email-taken' as const;
          await trx
            .insertInto('accounts')
            .values({ id: accountId, email: normalized, email_sha256: sha256, email_md5: md5, created_at: now })
            .execute();
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
