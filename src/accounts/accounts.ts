import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { AccountsTables } from './tables.js';
import { emailHashes, normalizeEmail } from './email.js';
import { deleteGrantsOf } from './oauth/grants.js';
import type { Executor } from './rows.js';

/** The account with this primary email, created when there is none (call inside a transaction). */
export async function ensureAccount(
  db: Executor,
  email: string,
  now: string,
): Promise<{ id: string; created: boolean }> {
  const normalized = normalizeEmail(email);
  const existing = await findAccountId(db, normalized);
  if (existing) return { id: existing, created: false };
  return { id: await insertAccount(db, normalized, now), created: true };
}

/**
 * A new account with this primary email, or `email-taken` when the address
 * already has one (call inside a transaction; a concurrent insert of the
 * same address fails on the unique constraint instead).
 */
export async function createAccount(db: Executor, email: string, now: string): Promise<string | 'email-taken'> {
  const normalized = normalizeEmail(email);
  if (await findAccountId(db, normalized)) return 'email-taken';
  return insertAccount(db, normalized, now);
}

/** The id of the account with this primary email, if any. */
export async function findAccountId(db: Executor, email: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
  return row?.id;
}

/**
 * Moves an account to another primary email, with the two hashes its profile
 * is found by; `email-taken` when another account has the address (call
 * inside a transaction; a concurrent change to the same address fails on the
 * unique constraint instead).
 */
export async function changeAccountEmail(
  db: Executor,
  accountId: string,
  email: string,
): Promise<'changed' | 'email-taken'> {
  const normalized = normalizeEmail(email);
  if (await findAccountId(db, normalized)) return 'email-taken';
  const { sha256, md5 } = emailHashes(normalized);
  await db
    .updateTable('accounts')
    .set({ email: normalized, email_sha256: sha256, email_md5: md5 })
    .where('id', '=', accountId)
    .execute();
  return 'changed';
}

/** The one place an `accounts` row is written: the address normalized, with the two hashes profiles are found by. */
async function insertAccount(db: Executor, normalized: string, now: string): Promise<string> {
  const { sha256, md5 } = emailHashes(normalized);
  const id = randomUUID();
  await db
    .insertInto('accounts')
    .values({ id, email: normalized, email_sha256: sha256, email_md5: md5, created_at: now })
    .execute();
  return id;
}

/**
 * Deletes an account and, in the same statement, everything that belongs to
 * it: every table that names an account does so with `ON DELETE CASCADE`
 * (its applications and their keys, its profile and avatar, the dashboard's
 * credentials, sessions and emailed links); and the OAuth grants it gave and
 * those given to its applications, with their tokens. What a service keeps
 * for the account in tables that do not name it (the publishing user's
 * command-line tokens) the service ends first, in its `farewell`
 * (`StoreModule`). False when there was none.
 */
export async function deleteAccount(db: Kysely<AccountsTables>, accountId: string): Promise<boolean> {
  return db.transaction().execute((trx) => deleteAccountIn(trx, accountId));
}

/** `deleteAccount` in the caller's transaction (the dashboard's deletion ends what the credentials opened first, in the same one). */
export async function deleteAccountIn(trx: Executor, accountId: string): Promise<boolean> {
  // The OAuth records name the account without a foreign key (the library's models): deleted here, so the apps' tokens go too.
  await deleteGrantsOf(trx, { accountId });
  // So do the grants people gave the account's own applications: their tokens must not outlive the apps.
  const owned = await trx.selectFrom('api_applications').select('id').where('account_id', '=', accountId).execute();
  for (const application of owned) await deleteGrantsOf(trx, { clientId: application.id });
  const result = await trx.deleteFrom('accounts').where('id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The two hashes of an account's primary email (what its profile is found by), if there is such an account. */
export async function accountEmailHashes(
  db: Kysely<AccountsTables>,
  accountId: string,
): Promise<{ sha256: string; md5: string } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['email_sha256', 'email_md5'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row && { sha256: row.email_sha256, md5: row.email_md5 };
}

/**
 * Marks the account's primary address verified as of `at`: only when it is
 * not yet (a link opened again keeps the first time), or whatever it was
 * with `replace` (a new address, verified by the link that moved the
 * account to it). The one writer of `accounts.email_verified_at`; the
 * developer dashboard calls it where it verifies an address.
 */
export async function markAccountEmailVerified(
  db: Executor,
  accountId: string,
  at: string,
  { replace = false }: { replace?: boolean } = {},
): Promise<void> {
  let update = db.updateTable('accounts').set({ email_verified_at: at }).where('id', '=', accountId);
  if (!replace) update = update.where('email_verified_at', 'is', null);
  await update.execute();
}

/**
 * Whether the account's primary address is verified, as a column of a query
 * that joins `accounts` (the dashboard's session lookup, which runs on every
 * request, reads it in its one query): read the value with `Boolean` (SQLite
 * answers 1 or 0, PostgreSQL true or false).
 */
export const accountEmailVerified: RawBuilder<SqlBool> = sql<SqlBool>`${sql.ref('accounts.email_verified_at')} is not null`;

/**
 * Whether the account's primary address is verified (false for no such
 * account): what a service gates on (the developer dashboard's applications
 * and OAuth clients). `accounts.email_verified_at` is the one record of it.
 */
export async function isAccountEmailVerified(db: Executor, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select(accountEmailVerified.as('verified'))
    .where('id', '=', accountId)
    .executeTakeFirst();
  return Boolean(row?.verified);
}

/** When the account was registered, and whether its primary address is verified; undefined for no such account. */
export async function accountStanding(
  db: Kysely<AccountsTables>,
  accountId: string,
): Promise<{ registeredAt: string; emailVerified: boolean } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select(['created_at', 'email_verified_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row && { registeredAt: row.created_at, emailVerified: row.email_verified_at !== null };
}
