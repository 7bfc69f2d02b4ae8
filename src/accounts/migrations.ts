import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { NamedMigration } from '../platform/store/migrations.js';

/*
 * How another module's table refers to an account, for its migrations: the
 * one place that names the accounts' key and says that what belongs to an
 * account is deleted with it. Applied migrations must keep meaning what
 * they meant, so these never change; a different reference is a new helper.
 */

/** A column naming the account a row belongs to (`accounts.id`); the row is deleted with the account. */
export const belongsToAccount = (column: ColumnDefinitionBuilder) =>
  column.notNull().references('accounts.id').onDelete('cascade');

/**
 * Starts a table of at most one row per account (a profile, a dashboard
 * credential): its key is `account_id`, the account's id, and the row is
 * deleted with the account.
 */
export const createPerAccountTable = (db: Kysely<unknown>, table: string) =>
  db.schema
    .createTable(table)
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'));

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
        .addColumn('account_id', 'text', belongsToAccount)
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
  {
    name: '002-oauth',
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('api_applications')
        .addColumn('redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('api_applications')
        .addColumn('javascript_origins', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('oauth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id_hash', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid_hash', 'text')
        .addColumn('account_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('consumed_at', 'text')
        .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id_hash'])
        .execute();
      await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
      await db.schema
        .createIndex('oauth_records_account')
        .on('oauth_records')
        .columns(['account_id', 'model'])
        .execute();
      await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid_hash']).execute();
      await db.schema
        .createTable('oauth_grant_sites')
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('site_id', 'integer', (c) => c.notNull())
        .addColumn('access', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_grant_sites_pk', ['grant_id', 'site_id'])
        .execute();
      await db.schema
        .createTable('oauth_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('oauth_secrets').execute();
      await db.schema.dropTable('oauth_grant_sites').execute();
      await db.schema.dropTable('oauth_records').execute();
      await db.schema.alterTable('api_applications').dropColumn('javascript_origins').execute();
      await db.schema.alterTable('api_applications').dropColumn('redirect_uris').execute();
    },
  },
  {
    name: '003-email-verified',
    async up(db: Kysely<unknown>) {
      // Whether the account's address is verified, the account's own fact (publishing's `/me` answers it); null
      // until the dashboard's migration copies what it knew, and its flows mark it (`markAccountEmailVerified`).
      await db.schema.alterTable('accounts').addColumn('email_verified_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('accounts').dropColumn('email_verified_at').execute();
    },
  },
];
