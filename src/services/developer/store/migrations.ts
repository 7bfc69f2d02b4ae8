import { sql, type Kysely } from 'kysely';
import { belongsToAccount, createPerAccountTable } from '../../../accounts/migrations.js';
import type { NamedMigration } from '../../../platform/store/migrations.js';
import { markAccountEmailVerified } from '../../../accounts/accounts.js';

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
      await db.schema
        .createIndex('developer_sessions_expires_at')
        .on('developer_sessions')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('developer_login_attempts')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('points', 'integer', (c) => c.notNull())
        .addColumn('expire', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('developer_login_attempts_expire')
        .on('developer_login_attempts')
        .column('expire')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('developer_login_attempts').execute();
      await db.schema.dropTable('developer_sessions').execute();
      await db.schema.dropTable('developer_credentials').execute();
    },
  },
  {
    name: '002-email-verification-and-links',
    async up(db: Kysely<unknown>) {
      // Accounts made before verification existed were trusted as they were, so they count as verified.
      await db.schema.alterTable('developer_credentials').addColumn('email_verified_at', 'text').execute();
      await db
        .updateTable('developer_credentials' as never)
        .set({ email_verified_at: sql.ref('created_at') } as never)
        .execute();

      await db.schema
        .createTable('developer_email_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'text', belongsToAccount)
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('developer_email_tokens_account')
        .on('developer_email_tokens')
        .columns(['account_id', 'purpose'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('developer_email_tokens').execute();
      await db.schema.alterTable('developer_credentials').dropColumn('email_verified_at').execute();
    },
  },
  {
    name: '003-email-change-links',
    async up(db: Kysely<unknown>) {
      // The address a new-address link moves the account to; the account keeps its own until the link is opened.
      await db.schema.alterTable('developer_email_tokens').addColumn('new_email', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('developer_email_tokens').dropColumn('new_email').execute();
    },
  },
  {
    name: '004-session-last-seen',
    async up(db: Kysely<unknown>) {
      // When a session was last used (at most a minute off); null until then, when its start counts.
      await db.schema.alterTable('developer_sessions').addColumn('last_seen_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('developer_sessions').dropColumn('last_seen_at').execute();
    },
  },
  {
    name: '005-account-email-verified',
    // What the dashboard knew of each address, copied to the account's own record (through src/accounts, its one
    // writer), which publishing's `/me` answers as `email_verified`; the dashboard's flows marked both until 006.
    up: copyVerifiedToAccounts,
    async down() {
      // The accounts' column is theirs (accounts migration 003 drops it); nothing of the dashboard's to undo.
    },
  },
  {
    name: '006-verified-with-the-account',
    // A migration's code runs against the schema of its time, not today's typed Database.
    async up(db: Kysely<any>) {
      // The dashboard reads and marks the account's own record since (`accounts.email_verified_at`, through
      // src/accounts): its copy goes. Whatever it alone still knew is copied first (a store written by a release
      // that marked only the dashboard's copy after 005 ran), so no verified address becomes unverified.
      await copyVerifiedToAccounts(db);
      await db.schema.alterTable('developer_credentials').dropColumn('email_verified_at').execute();
    },
    async down(db: Kysely<any>) {
      // The dashboard's copy again, as the account's record holds it.
      await db.schema.alterTable('developer_credentials').addColumn('email_verified_at', 'text').execute();
      await db
        .updateTable('developer_credentials')
        .set((eb) => ({
          email_verified_at: eb
            .selectFrom('accounts')
            .select('accounts.email_verified_at')
            .whereRef('accounts.id', '=', 'developer_credentials.account_id'),
        }))
        .execute();
    },
  },
];

/**
 * Marks verified each account whose dashboard credentials say its address is (through src/accounts, the one
 * writer of the account's record; an earlier time already there is kept).
 */
async function copyVerifiedToAccounts(db: Kysely<any>): Promise<void> {
  const verified: { account_id: string; email_verified_at: string }[] = await db
    .selectFrom('developer_credentials')
    .select(['account_id', 'email_verified_at'])
    .where('email_verified_at', 'is not', null)
    .execute();
  for (const row of verified) await markAccountEmailVerified(db, row.account_id, row.email_verified_at);
}
