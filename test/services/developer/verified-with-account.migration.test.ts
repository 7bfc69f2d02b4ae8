import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_MODULES } from '../../../src/app.js';
import { createAccount } from '../../../src/accounts/accounts.js';
import { openDatabase, withStartupLock, type OpenDatabase } from '../../../src/platform/store/database.js';
import { migrateModules } from '../../../src/platform/store/migrations.js';
import { kyselyDeveloperAccounts } from '../../../src/services/developer/store/kysely/accounts.js';
import { developerMigrations } from '../../../src/services/developer/store/migrations.js';
import { dropSchema } from '../../support/server.js';

/**
 * The dashboard's migration 006 on a store of the release before it, where the dashboard kept its own copy of
 * whether an address is verified (`developer_credentials.email_verified_at`) beside the account's record
 * (`accounts.email_verified_at`): on SQLite and on a schema of its own on PostgreSQL.
 */
const url = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
const MIGRATION = '006-verified-with-the-account';
let database: OpenDatabase | undefined;
let schema: string | undefined;
afterEach(async () => {
  await database?.close();
  if (schema) await dropSchema(url, schema);
  database = schema = undefined;
});

/** Every module's migrations, the dashboard's only up to (not including) `before`. */
const migrationsUpTo = (before: string) =>
  STORE_MODULES.map((module) => ({
    module: module.name,
    migrations:
      module.name === 'developer'
        ? module.migrations.slice(
            0,
            module.migrations.findIndex((m) => m.name === before),
          )
        : module.migrations,
  }));

const T0 = '2026-10-01T08:00:00.000Z';
const T1 = '2026-11-01T08:00:00.000Z';
const T2 = '2026-11-15T08:00:00.000Z';

describe(`migration developer ${MIGRATION}, on a store whose dashboard kept its own verification`, () => {
  it('marks verified each account whose credentials were (an earlier time kept), leaves the others unverified, drops the dashboard’s column, and the dashboard then reads the account’s', async () => {
    schema = url.startsWith('postgres') ? `test_${randomUUID().replaceAll('-', '')}` : undefined;
    database = openDatabase(url, { timeoutMs: 10_000, schema });
    const db = database.db as Kysely<any>;
    const open = database;
    await withStartupLock(open, () => migrateModules(open, migrationsUpTo(MIGRATION)).then(() => {}));

    /** An account, verified on its own record at `account`, with credentials verified at `dashboard` (none: undefined). */
    const account = async (name: string, verified: { account: string | null; dashboard?: string | null }) => {
      const id = (await createAccount(db, `${name}@example.com`, T0)) as string;
      await db.updateTable('accounts').set({ email_verified_at: verified.account }).where('id', '=', id).execute();
      if (verified.dashboard !== undefined)
        await db
          .insertInto('developer_credentials')
          .values({
            account_id: id,
            password_hash: `hash-${name}`,
            created_at: T0,
            email_verified_at: verified.dashboard,
          })
          .execute();
      return id;
    };
    const ids = {
      // Verified by the dashboard alone: the gap the migration closes.
      dashboardOnly: await account('dashboard-only', { account: null, dashboard: T1 }),
      // Verified on both, the account earlier: its time is kept.
      both: await account('both', { account: T0, dashboard: T2 }),
      // Verified on neither: stays unverified.
      neither: await account('neither', { account: null, dashboard: null }),
      // An account without dashboard credentials (an import's, publishing's): untouched.
      noCredentials: await account('no-credentials', { account: null }),
    };

    const ran = await migrateModules(
      database,
      STORE_MODULES.map((module) => ({ module: module.name, migrations: module.migrations })),
    );
    expect(ran).toEqual([`developer/${MIGRATION}`]);

    const verifiedAt = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.entries(ids).map(async ([name, id]) => {
            const row = await db
              .selectFrom('accounts')
              .select('email_verified_at')
              .where('id', '=', id)
              .executeTakeFirstOrThrow();
            return [name, row.email_verified_at] as const;
          }),
        ),
      );
    expect(await verifiedAt()).toEqual({ dashboardOnly: T1, both: T0, neither: null, noCredentials: null });

    // The dashboard's column is gone; its credentials are kept.
    const credentials = await db.selectFrom('developer_credentials').selectAll().orderBy('password_hash').execute();
    expect(credentials.map((row) => Object.keys(row).sort())).toEqual(
      Array(3).fill(['account_id', 'created_at', 'password_hash']),
    );
    expect(credentials.map((row) => row.password_hash)).toEqual(['hash-both', 'hash-dashboard-only', 'hash-neither']);
    await expect(db.selectFrom('developer_credentials').select('email_verified_at').execute()).rejects.toThrow();

    // The dashboard's store reads the account's record.
    const store = kyselyDeveloperAccounts(db);
    expect(await store.isEmailVerified(ids.dashboardOnly)).toBe(true);
    expect(await store.isEmailVerified(ids.both)).toBe(true);
    expect(await store.isEmailVerified(ids.neither)).toBe(false);
    await store.markEmailVerified(ids.neither);
    expect(await store.isEmailVerified(ids.neither)).toBe(true);
    expect((await verifiedAt()).both).toBe(T0);

    // Undone (never at start-up; by hand), the dashboard's copy comes back as the account's record holds it.
    const migration = developerMigrations.find((m) => m.name === MIGRATION)!;
    await db.transaction().execute((trx) => migration.down!(trx));
    const restored = await db
      .selectFrom('developer_credentials')
      .select(['password_hash', 'email_verified_at'])
      .orderBy('password_hash')
      .execute();
    expect(restored).toEqual([
      { password_hash: 'hash-both', email_verified_at: T0 },
      { password_hash: 'hash-dashboard-only', email_verified_at: T1 },
      { password_hash: 'hash-neither', email_verified_at: expect.any(String) },
    ]);
  });
});
