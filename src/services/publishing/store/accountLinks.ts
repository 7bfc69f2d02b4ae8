import type { Kysely, Transaction } from 'kysely';
import { ensureAccount } from '../../../accounts/accounts.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { AccountsTables } from '../../../accounts/tables.js';

/**
 * What this code reads and writes: the publishing users' columns as migration
 * `06-users-accounts` left them (the migration hands it its untyped store,
 * the demo seed today's), beside the accounts' tables.
 */
interface LinkedUsers extends AccountsTables {
  users: { id: number; email: string; account_id: string | null };
}

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
export async function linkUsersToAccounts(
  db: Kysely<LinkedUsers> | Transaction<LinkedUsers>,
  now: string,
): Promise<void> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('account_id', 'is', null)
    .orderBy('id')
    .execute();
  const linked = new Set(
    (await db.selectFrom('users').select('account_id').where('account_id', 'is not', null).execute()).flatMap(
      (row) => row.account_id ?? [],
    ),
  );
  for (const user of users) {
    const email = normalizeEmail(user.email);
    if (!email) continue;
    // The account is found or made by the accounts' own function: only src/accounts writes their tables.
    const { id: accountId } = await ensureAccount(db, email, now);
    if (linked.has(accountId)) continue;
    linked.add(accountId);
    await db.updateTable('users').set({ account_id: accountId }).where('id', '=', user.id).execute();
  }
}
