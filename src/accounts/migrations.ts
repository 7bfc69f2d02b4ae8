import type { Kysely } from 'kysely';
import type { NamedMigration } from '../platform/store/migrations.js';

/**
 * Migrations of the accounts' tables, in the order they are applied; they
 * run before every service's (profiles and dashboard tables refer to
 * accounts). Schema builder only, so the same migrations run on SQLite and
 * PostgreSQL.
 */
export const accountsMigrations: readonly NamedMigration[] = [
  {
    name: '001-accounts-applications-keys',
    // Earlier releases created these tables in the profiles service's first migration.
    legacyName: '2026-11-22-a-profiles-001-accounts-profiles-keys',
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('email_sha256', 'text', (c) => c.notNull().unique())
        .addColumn('email_md5', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_applications')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('website_url', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('api_applications_account_name', ['account_id', 'name'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('application_id', 'text', (c) => c.notNull().references('api_applications.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('display_prefix', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('api_keys_application').on('api_keys').column('application_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('api_keys').execute();
      await db.schema.dropTable('api_applications').execute();
      await db.schema.dropTable('accounts').execute();
    },
  },
];
