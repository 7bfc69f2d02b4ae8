import type { Kysely } from 'kysely';
import { belongsToAccount, createPerAccountTable } from '../../../accounts/migrations.js';
import type { NamedMigration } from '../../../platform/store/migrations.js';

/**
 * Migrations of the developer dashboard, in the order they are applied
 * (after the accounts' migrations: credentials and sessions belong to an
 * account). Schema builder only, so the same migrations run on SQLite and
 * PostgreSQL.
 */
export const developerMigrations: readonly NamedMigration[] = [
  {
    name: '001-credentials-sessions-attempts',
    legacyName: '2026-11-22-c-developer-001-credentials-sessions-attempts',
    async up(db: Kysely<unknown>) {
      await createPerAccountTable(db, 'developer_credentials')
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('developer_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', belongsToAccount)
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('developer_sessions_expires_at').on('developer_sessions').column('expires_at').execute();

      await db.schema
        .createTable('developer_login_attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('expire', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('developer_login_attempts_expire').on('developer_login_attempts').column('expire').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('developer_login_attempts').execute();
      await db.schema.dropTable('developer_sessions').execute();
      await db.schema.dropTable('developer_credentials').execute();
    },
  },
];
