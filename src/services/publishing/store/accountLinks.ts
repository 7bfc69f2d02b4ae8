import type { Kysely } from 'kysely';
import { ensureAccount } from '../../../accounts/accounts.js';
import { normalizeEmail } from '../../../accounts/email.js';
import { accountsOf } from '../../../accounts/tables.js';

/**
 * Links every publishing user without an account to the account of their
 * email address, creating an account (without a password: it cannot log in
 * until its owner resets one) where the address has none. A user without
 * an address, or whose address another user already linked, stays unlinked.
 * Written against the publishing tables as migration `06-users-accounts`
 * left them, so the migration keeps meaning what it meant; the demo seed
 * runs it too. The accounts are made by `ensureAccount` of src/accounts,
 * the one writer of their tables (migrated before any service's).
 */
// A migration's code runs against the schema of its time, not today's typed Database.
// biome-ignore lint/suspicious/noExplicitAny: migration code, typed by no schema of today
export async function linkUsersToAccounts(db: Kysely<any>, now: string): Promise<void> {
  const users: { id: number; email: string }[] = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('account_id', 'is', null)
    .orderBy('id')
    .execute();
  const linked = new Set<string>(
    (await db.selectFrom('users').select('account_id').where('account_id', 'is not', null).execute()).map(
      (row: { account_id: string }) => row.account_id,
    ),
  );
  for (const user of users) {
    const email = normalizeEmail(user.email);
    if (!email) continue;
    // The account is found or made by the accounts' own function: only src/accounts writes their tables.
    const { id: accountId } = await ensureAccount(accountsOf(db), email, now);
    if (linked.has(accountId)) continue;
    linked.add(accountId);
    await db.updateTable('users').set({ account_id: accountId }).where('id', '=', user.id).execute();
  }
}
