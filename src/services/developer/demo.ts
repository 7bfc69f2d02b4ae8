import type { Kysely } from 'kysely';
import type { PlatformConfig } from '../../platform/config.js';
import { onFirstSuccess } from '../../platform/onFirstUse.js';
import { hashPassword, MIN_PASSWORD_COST } from './domain/password.js';
import type { DeveloperDatabase } from './store/tables.js';
import { markAccountEmailVerified } from '../../accounts/accounts.js';

/**
 * The password of the demo people (`ada@demo.example.com`, … : the
 * publishing demo users, docs/developer.md "Demo log-ins"). It is public, so
 * it is given only outside production.
 */
export const DEMO_PASSWORD = 'harbour-town-demo';

/** The demo people's addresses: the publishing demo users' domain. */
const DEMO_DOMAIN = '@demo.example.com';

/**
 * Demo log-ins: every demo person's account (an account of an address at
 * `demo.example.com`: the publishing and profiles demo data make one for each
 * demo person, and the domain is theirs) without a password gets
 * `DEMO_PASSWORD`, its address verified. Never with `NODE_ENV=production`.
 * A password set since (a reset, `admin accounts password`) is kept: only
 * accounts without one get it. One hash at the lowest cost serves them all:
 * the password is no secret. Only the accounts' and this module's tables are
 * read: the module knows no other service's.
 */
export async function seedDeveloperDemo(db: Kysely<DeveloperDatabase>, config: PlatformConfig): Promise<void> {
  if (config.production) return;
  const accounts = await db
    .selectFrom('accounts')
    .leftJoin('developer_credentials', 'developer_credentials.account_id', 'accounts.id')
    .select('accounts.id')
    .where('accounts.email', 'like', `%${DEMO_DOMAIN}`)
    .where('developer_credentials.account_id', 'is', null)
    .execute();
  if (!accounts.length) return;
  const now = new Date().toISOString();
  const passwordHash = await demoPasswordHash();
  // In one transaction: a demo person with a password and an unverified address would stay so (only accounts
  // without a password are seeded).
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('developer_credentials')
      .values(accounts.map(({ id }) => ({ account_id: id, password_hash: passwordHash, created_at: now })))
      .execute();
    for (const { id } of accounts) await markAccountEmailVerified(trx, id, now);
  });
}

/**
 * `DEMO_PASSWORD`'s hash, made once per process (a hash costs tens of milliseconds of CPU, and a process that
 * builds many stores, as the test suite's workers do, would pay it for each): the password is public, so one
 * salt for every store of the process hides nothing a salt of each would.
 */
const demoPasswordHash = onFirstSuccess(() => hashPassword(DEMO_PASSWORD, MIN_PASSWORD_COST));
