import { PostgresAdapter, type Kysely, type Migration } from 'kysely';

/**
 * Migrations of the profiles service; names sort into the one shared history
 * (`…-a-profiles-…` before `…-b-publishing-…`). Schema builder only, so the
 * same migrations run on SQLite and PostgreSQL (bytes are `blob` on the one,
 * `bytea` on the other).
 */
export const profilesMigrations: Record<string, Migration> = {
  '2026-11-22-a-profiles-001-accounts-profiles-keys': {
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
        .createTable('profiles')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('avatar_url', 'text', (c) => c.notNull())
        .addColumn('avatar_alt_text', 'text', (c) => c.notNull())
        .addColumn('location', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('job_title', 'text', (c) => c.notNull())
        .addColumn('company', 'text', (c) => c.notNull())
        .addColumn('pronunciation', 'text', (c) => c.notNull())
        .addColumn('pronouns', 'text', (c) => c.notNull())
        .addColumn('links', 'text', (c) => c.notNull())
        .addColumn('contact_info', 'text', (c) => c.notNull())
        .addColumn('payments_public', 'integer', (c) => c.notNull())
        .addColumn('payment_links', 'text', (c) => c.notNull())
        .addColumn('crypto_wallets', 'text', (c) => c.notNull())
        .addColumn('gallery', 'text', (c) => c.notNull())
        .addColumn('verified_accounts', 'text', (c) => c.notNull())
        .addColumn('last_profile_edit', 'text')
        .addColumn('registration_date', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
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
      await db.schema.dropTable('profiles').execute();
      await db.schema.dropTable('accounts').execute();
    },
  },

  // Issue 13: the real service's optional profile fields, and uploaded avatar images served by
  // this deployment (`avatar_url` is no longer stored: it always points at /avatar/<hash>).
  '2026-11-23-a-profiles-002-personal-details-avatars': {
    async up(db: Kysely<unknown>) {
      const text = ['first_name', 'last_name', 'timezone', 'header_image', 'background_color'];
      for (const column of text) {
        await db.schema.alterTable('profiles').addColumn(column, 'text', (c) => c.notNull().defaultTo('')).execute();
      }
      for (const column of ['languages', 'interests']) {
        await db.schema.alterTable('profiles').addColumn(column, 'text', (c) => c.notNull().defaultTo('[]')).execute();
      }
      await db.schema.alterTable('profiles').addColumn('is_organization', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('profiles').dropColumn('avatar_url').execute();

      await db.schema
        .createTable('profile_avatars')
        .addColumn('account_id', 'text', (c) => c.primaryKey().references('profiles.account_id').onDelete('cascade'))
        .addColumn('image', db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob', (c) => c.notNull())
        .addColumn('digest', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('profile_avatars_digest').on('profile_avatars').column('digest').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('profile_avatars').execute();
      await db.schema.alterTable('profiles').addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo('')).execute();
      for (const column of ['first_name', 'last_name', 'timezone', 'header_image', 'background_color', 'languages', 'interests', 'is_organization']) {
        await db.schema.alterTable('profiles').dropColumn(column).execute();
      }
    },
  },
};
