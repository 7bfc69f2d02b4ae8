import { PostgresAdapter, type Kysely } from 'kysely';
import { createPerAccountTable } from '../../../accounts/migrations.js';
import type { NamedMigration } from '../../../platform/store/migrations.js';

/**
 * Migrations of the profiles service, in the order they are applied (after
 * the accounts' migrations: a profile belongs to an account). Schema builder
 * only, so the same migrations run on SQLite and PostgreSQL (bytes are
 * `blob` on the one, `bytea` on the other).
 */
export const profilesMigrations: readonly NamedMigration[] = [
  {
    name: '001-profiles',
    // Earlier releases created the accounts' tables and this one in one step.
    legacyName: '2026-11-22-a-profiles-001-accounts-profiles-keys',
    async up(db: Kysely<unknown>) {
      await createPerAccountTable(db, 'profiles')
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

    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('profiles').execute();
    },
  },

  // Issue 13: the real service's optional profile fields, and uploaded avatar images served by
  // this deployment (`avatar_url` is no longer stored: it always points at /avatar/<hash>).
  {
    name: '002-personal-details-avatars',
    legacyName: '2026-11-23-a-profiles-002-personal-details-avatars',
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

  // Issue 36: the interests inferred for a profile (GET /v3/profiles/{id}/inferred-interests).
  {
    name: '003-inferred-interests',
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('profiles').addColumn('inferred_interests', 'text', (c) => c.notNull().defaultTo('[]')).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('profiles').dropColumn('inferred_interests').execute();
    },
  },
];
