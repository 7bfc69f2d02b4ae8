import { PostgresAdapter, type Kysely } from 'kysely';
import { createPerAccountTable } from '../../../accounts/migrations.js';
import type { NamedMigration } from '../../../platform/store/migrations.js';
import type { ProfilesDatabase } from './tables.js';
import { verifiedAccountRows } from './kysely/verifiedAccountRows.js';
import type { VerifiedAccount } from '../domain/profile.js';
import { sharingServiceText } from '../domain/verifiedAccountServices.js';

/** Profiles read at a time by `005-icons-not-stored`. */
const ICONS_MIGRATION_PAGE = 500;

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
        await db.schema
          .alterTable('profiles')
          .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
          .execute();
      }
      for (const column of ['languages', 'interests']) {
        await db.schema
          .alterTable('profiles')
          .addColumn(column, 'text', (c) => c.notNull().defaultTo('[]'))
          .execute();
      }
      await db.schema
        .alterTable('profiles')
        .addColumn('is_organization', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
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
      await db.schema
        .alterTable('profiles')
        .addColumn('avatar_url', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      for (const column of [
        'first_name',
        'last_name',
        'timezone',
        'header_image',
        'background_color',
        'languages',
        'interests',
        'is_organization',
      ]) {
        await db.schema.alterTable('profiles').dropColumn(column).execute();
      }
    },
  },

  // Issue 36: the interests inferred for a profile (GET /v3/profiles/{id}/inferred-interests).
  {
    name: '003-inferred-interests',
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('profiles')
        .addColumn('inferred_interests', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('profiles').dropColumn('inferred_interests').execute();
    },
  },

  // Issue 36: searches by verified account (GET /v3/profiles/search/by-verified-account), by index.
  {
    name: '004-verified-account-index',
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('profile_verified_accounts')
        .addColumn('account_id', 'text', (c) => c.notNull().references('profiles.account_id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('service_type', 'text', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('profile_verified_accounts_pk', ['account_id', 'position'])
        .execute();
      await db.schema
        .createIndex('profile_verified_accounts_username')
        .on('profile_verified_accounts')
        .columns(['username', 'service_type', 'account_id'])
        .execute();
      // The profiles stored so far: their visible accounts, usernames read from the URLs.
      const typed = db as unknown as Kysely<ProfilesDatabase>;
      const profiles = await typed.selectFrom('profiles').select(['account_id', 'verified_accounts']).execute();
      for (const profile of profiles) {
        const rows = verifiedAccountRows(profile.account_id, JSON.parse(profile.verified_accounts));
        if (rows.length) await typed.insertInto('profile_verified_accounts').values(rows).execute();
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('profile_verified_accounts').execute();
    },
  },

  // The verified accounts' icons are the list's, served at /icons and linked (docs/decisions/icons-served-not-inlined.md):
  // the copies earlier releases stored with each account of a service of the list are let go, a page of profiles at a time.
  {
    name: '005-icons-not-stored',
    async up(db: Kysely<unknown>) {
      const typed = db as unknown as Kysely<ProfilesDatabase>;
      for (let after = ''; ; ) {
        const page = await typed
          .selectFrom('profiles')
          .select(['account_id', 'verified_accounts'])
          .where('account_id', '>', after)
          .orderBy('account_id')
          .limit(ICONS_MIGRATION_PAGE)
          .execute();
        for (const { account_id, verified_accounts } of page) {
          const accounts = JSON.parse(verified_accounts) as VerifiedAccount[];
          if (!accounts.some((account) => account.serviceIcon !== undefined)) continue;
          const kept = JSON.stringify(sharingServiceText(accounts));
          if (kept !== verified_accounts)
            await typed
              .updateTable('profiles')
              .set({ verified_accounts: kept })
              .where('account_id', '=', account_id)
              .execute();
        }
        if (page.length < ICONS_MIGRATION_PAGE) break;
        after = page.at(-1)!.account_id;
      }
    },
    // Nothing to give back: an earlier release shows the list's own icon for every service of the list.
    async down() {},
  },
];
