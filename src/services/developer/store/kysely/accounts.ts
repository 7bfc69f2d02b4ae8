import type { Kysely } from 'kysely';
import {
  changeAccountEmail,
  createAccount,
  deleteAccountIn,
  findAccountId,
  isAccountEmailVerified,
  markAccountEmailVerified,
} from '../../../../accounts/accounts.js';
import { endWhatCredentialsOpened } from '../credentialsChanged.js';
import { normalizeEmail } from '../../../../accounts/email.js';
import type { DeveloperDatabase } from '../tables.js';
import type { DeveloperAccounts } from '../../domain/developerStore.js';
import { isUniqueViolation } from '../../../../platform/store/uniqueViolation.js';

/** Sets an account's password hash (its credentials' one row). */
const setPasswordHash = (db: Kysely<DeveloperDatabase>, accountId: string, passwordHash: string) =>
  db
    .updateTable('developer_credentials')
    .set({ password_hash: passwordHash })
    .where('account_id', '=', accountId)
    .execute();

/**
 * Dashboard accounts on a Kysely database: an account (see src/accounts) and its password. Whether the
 * address is verified is the account's own record, read and marked through src/accounts.
 */
export function kyselyDeveloperAccounts(db: Kysely<DeveloperDatabase>): DeveloperAccounts {
  return {
    async createAccount(email, passwordHash) {
      const now = new Date().toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          const accountId = await createAccount(trx, email, now);
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

    isEmailVerified: (accountId) => isAccountEmailVerified(db, accountId),

    markEmailVerified: (accountId) => markAccountEmailVerified(db, accountId, new Date().toISOString()),

    async resetPassword(accountId, passwordHash) {
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, accountId, passwordHash);
        // A reset link opened shows the address is the owner's.
        await markAccountEmailVerified(trx, accountId, now);
        // Every session, the apps' grants and tokens, the other reset links.
        await endWhatCredentialsOpened(trx, accountId);
      });
    },

    async changePassword(accountId, passwordHash, keptSession) {
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, accountId, passwordHash);
        // Every other session, the apps' grants and tokens, the reset links.
        await endWhatCredentialsOpened(trx, accountId, { keptSession });
      });
    },

    // What the credentials opened ends as on every change of them, then the account goes, in one transaction.
    deleteAccount: (accountId) =>
      db.transaction().execute(async (trx) => {
        await endWhatCredentialsOpened(trx, accountId);
        return deleteAccountIn(trx, accountId);
      }),

    async isEmailTaken(email) {
      return (await findAccountId(db, email)) !== undefined;
    },

    async changeEmail(accountId, newEmail) {
      const now = new Date().toISOString();
      try {
        return await db.transaction().execute(async (trx) => {
          if ((await changeAccountEmail(trx, accountId, newEmail)) === 'email-taken') return 'email-taken';
          // The link that moves the account was opened at the new address: verified as of now.
          await markAccountEmailVerified(trx, accountId, now, { replace: true });
          // A new address is a change of credentials (the reset links go to it): what the old ones opened ends.
          await endWhatCredentialsOpened(trx, accountId);
          // A link mailed to the old address (a password reset above all) must not work for the account any more.
          await trx.deleteFrom('developer_email_tokens').where('account_id', '=', accountId).execute();
          return 'changed' as const;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return 'email-taken';
        throw error;
      }
    },

    async issueEmailToken({ tokenHash, accountId, purpose, expiresAt, newEmail }) {
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('developer_email_tokens')
          .where('account_id', '=', accountId)
          .where('purpose', '=', purpose)
          .execute();
        // Expired links of every account go with it: nothing expired is kept.
        await trx.deleteFrom('developer_email_tokens').where('expires_at', '<=', now).execute();
        await trx
          .insertInto('developer_email_tokens')
          .values({
            token_hash: tokenHash,
            account_id: accountId,
            purpose,
            new_email: newEmail ?? null,
            created_at: now,
            expires_at: expiresAt,
          })
          .execute();
      });
    },

    async consumeEmailToken(tokenHash, purpose) {
      // One statement deletes and answers the row, so two uses of one token cannot both succeed.
      const used = await db
        .deleteFrom('developer_email_tokens')
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', new Date().toISOString())
        .returning(['account_id', 'expires_at', 'new_email'])
        .executeTakeFirst();
      if (!used) return undefined;
      const account = await db
        .selectFrom('accounts')
        .select('email')
        .where('id', '=', used.account_id)
        .executeTakeFirst();
      return (
        account && {
          accountId: used.account_id,
          email: account.email,
          expiresAt: used.expires_at,
          newEmail: used.new_email,
        }
      );
    },
  };
}
