import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { accountsModule } from '../../src/accounts/module.js';
import type { AccountsTables } from '../../src/accounts/tables.js';
import { openDatabase, withStartupLock } from '../../src/platform/store/database.js';
import { migrateModules } from '../../src/platform/store/migrations.js';
import { dropSchema } from '../support/server.js';

/**
 * A store with only the accounts' tables, migrated by the accounts module
 * alone (they need no service's): in-memory SQLite, or a schema of its own
 * in the suite's PostgreSQL (TEST_DATABASE_URL), dropped on close.
 */
export async function accountsStore(): Promise<{ db: Kysely<AccountsTables>; close(): Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
  const schema = url.startsWith('postgres') ? `test_${randomUUID().replaceAll('-', '')}` : undefined;
  const database = openDatabase<AccountsTables>(url, { timeoutMs: 5000, schema });
  // As the app migrates: under the start-up lock, which also creates the schema.
  await withStartupLock(database, async () => {
    await migrateModules(database, [{ module: accountsModule.name, migrations: accountsModule.migrations }]);
  });
  return {
    db: database.db,
    async close() {
      await database.close();
      if (schema) await dropSchema(url, schema);
    },
  };
}
