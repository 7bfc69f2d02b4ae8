import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AccountsTables } from './tables.js';

/**
 * The rows of applications and keys: the one place each is written, and
 * the lookups by the account's unique keys (an application's name, its id
 * within the account). The admin command line (apiKeys.ts) and the
 * developer dashboard (applications.ts) both come here.
 */

export type Executor = Kysely<AccountsTables> | Transaction<AccountsTables>;

/** The id of the account's application with this name (unique per account), if any. */
export async function applicationNamed(db: Executor, accountId: string, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('api_applications')
    .select('id')
    .where('account_id', '=', accountId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id;
}

/** True when the application exists and is the account's (another account's is the same as none). */
export async function ownsApplication(db: Executor, accountId: string, applicationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_applications')
    .select('id')
    .where('id', '=', applicationId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `ownsApplication`, and in a transaction holds the application's row until
 * it ends (a no-op write: PostgreSQL locks the row; SQLite's write
 * transaction excludes every other writer), so concurrent changes of one
 * application's keys run one after the other.
 */
export async function holdOwnApplication(db: Executor, accountId: string, applicationId: string): Promise<boolean> {
  const held = await db
    .updateTable('api_applications')
    .set((eb) => ({ name: eb.ref('name') }))
    .where('id', '=', applicationId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return Number(held.numUpdatedRows) > 0;
}

/** Adds an application to an account; answers its id. A second one of the same name fails on the unique (account, name) constraint. */
export async function insertApplication(
  db: Executor,
  accountId: string,
  application: { name: string; description: string; websiteUrl: string },
  now: string,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('api_applications')
    .values({
      id,
      account_id: accountId,
      name: application.name,
      description: application.description,
      website_url: application.websiteUrl,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * Adds a key to an application: only its hash and display prefix are stored.
 * The one place an `api_keys` row is written (the admin command line and the
 * developer dashboard both come here).
 */
export async function insertApiKey(
  db: Executor,
  applicationId: string,
  key: { hash: string; displayPrefix: string },
  now: string,
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('api_keys')
    .values({
      id,
      application_id: applicationId,
      key_hash: key.hash,
      display_prefix: key.displayPrefix,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return id;
}
