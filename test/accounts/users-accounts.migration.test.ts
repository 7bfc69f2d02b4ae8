import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { STORE_MODULES } from '../../src/app.js';
import { emailHashes } from '../../src/accounts/email.js';
import { openDatabase, withStartupLock, type OpenDatabase } from '../../src/platform/store/database.js';
import { migrateModules } from '../../src/platform/store/migrations.js';
import { dropSchema, startServer } from '../support/server.js';

const url = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
let database: OpenDatabase | undefined;
let schema: string | undefined;
afterEach(async () => {
  await database?.close();
  if (schema) await dropSchema(url, schema);
  database = schema = undefined;
});

/** Every module's migrations, publishing's only up to (not including) `before`. */
const migrationsUpTo = (before: string) =>
  STORE_MODULES.map((module) => {
    const migrations =
      module.name === 'publishing'
        ? module.migrations.slice(
            0,
            module.migrations.findIndex((m) => m.name === before),
          )
        : module.migrations;
    return { module: module.name, migrations };
  });

const user = (id: number, login: string, email: string) => ({
  id,
  login,
  email,
  display_name: login,
  first_name: '',
  last_name: '',
  nice_name: login,
  url: '',
  avatar_url: '',
});

describe('migration publishing 06-users-accounts, on a store that holds users', () => {
  it('links each user to the account of their address, creating accounts without a password where none exists', async () => {
    schema = url.startsWith('postgres') ? `test_${randomUUID().replaceAll('-', '')}` : undefined;
    database = openDatabase(url, { timeoutMs: 10_000, schema });
    const db = database.db as Kysely<any>;
    const open = database;
    await withStartupLock(open, () => migrateModules(open, migrationsUpTo('06-users-accounts')).then(() => {}));

    const existing = { id: randomUUID(), email: 'ada@example.com', ...emailHashes('ada@example.com') };
    await db
      .insertInto('accounts')
      .values({
        id: existing.id,
        email: existing.email,
        email_sha256: existing.sha256,
        email_md5: existing.md5,
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    await db
      .insertInto('users')
      .values([
        user(1, 'ada', ' Ada@Example.com'), // the account exists: by the normalized address
        user(2, 'bo', 'bo@example.com'), // no account yet
        user(3, 'bo-again', 'BO@example.com'), // a second user of bo's address: stays unlinked
        user(4, 'nobody', ''), // no address
      ])
      .execute();

    const ran = await migrateModules(
      database,
      STORE_MODULES.map((module) => ({ module: module.name, migrations: module.migrations })),
    );
    expect(ran).toContain('publishing/06-users-accounts');

    const links = await db.selectFrom('users').select(['id', 'account_id']).orderBy('id').execute();
    const bo = await db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'bo@example.com')
      .executeTakeFirstOrThrow();
    expect(links).toEqual([
      { id: 1, account_id: existing.id },
      { id: 2, account_id: bo.id },
      { id: 3, account_id: null },
      { id: 4, account_id: null },
    ]);
    expect(bo.email_sha256).toBe(emailHashes('bo@example.com').sha256);
    // The new account has no password: no dashboard credential row.
    const credentials = await db
      .selectFrom('developer_credentials')
      .select('account_id')
      .where('account_id', '=', bo.id)
      .execute();
    expect(credentials).toEqual([]);
    expect(await db.selectFrom('accounts').select('id').execute()).toHaveLength(2);

    // One user per account, enforced by the store.
    await expect(db.updateTable('users').set({ account_id: bo.id }).where('id', '=', 3).execute()).rejects.toThrow();
  });
});

describe('the demo data', () => {
  it('makes every demo publishing user an account of their own address', async () => {
    const server = await startServer();
    try {
      const db = server.built.db as Kysely<any>;
      const rows = await db
        .selectFrom('users')
        .leftJoin('accounts', 'accounts.id', 'users.account_id')
        .select(['users.email as userEmail', 'accounts.email as accountEmail'])
        .execute();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.accountEmail).toBe(row.userEmail);
    } finally {
      await server.close();
    }
  });
});
