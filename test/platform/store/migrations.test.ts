import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../../src/platform/store/database.js';
import { migrateModules, type NamedMigration } from '../../../src/platform/store/migrations.js';
import { profilesMigrations } from '../../../src/services/profiles/store/migrations.js';
import type { ProfilesDatabase } from '../../../src/services/profiles/store/tables.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { dropSchema, startServer, type TestServer } from '../../support/server.js';

/**
 * The module runner's tests run on the store under test (in-memory SQLite,
 * or a schema of their own on the suite's PostgreSQL), so the runner's own
 * statements, and its lookup of the earlier releases' history in the
 * store's own schema (information_schema, sqlite_master), run on each.
 * The store made by an earlier release is a SQLite file: that test runs in
 * the SQLite project only.
 */
const url = process.env.TEST_DATABASE_URL ?? 'sqlite::memory:';
const onPostgres = url.startsWith('postgres');

/**
 * A SQLite store made by the code of the release before this layout (one
 * Kysely history for every service, names like `2026-11-23-a-profiles-002-…`),
 * with its demo data and one more API key for alex: `pk_` and 43 × `L`.
 */
const LEGACY_STORE = fileURLToPath(new URL('./fixtures/legacy-2026-11.sqlite', import.meta.url));
const LEGACY_KEY = `pk_${'L'.repeat(43)}`;

const call = contractFetch(await contractChecker());
let server: TestServer | undefined;
let database: OpenDatabase | undefined;
/** The PostgreSQL schemas a test made, dropped after it. */
const schemas: string[] = [];
afterEach(async () => {
  await server?.close();
  await database?.close();
  server = database = undefined;
  for (const schema of schemas.splice(0)) await dropSchema(url, schema);
});

const history = (db: Kysely<unknown>) =>
  sql<{ module: string; name: string }>`select module, name from schema_migrations order by module, name`
    .execute(db)
    .then((r) => r.rows);

describe.skipIf(onPostgres)('a store migrated by an earlier release', () => {
  it('starts under the module runner without running its migrations again, runs only the ones it lacks, and keeps its data and keys', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'legacy-')), 'store.sqlite');
    copyFileSync(LEGACY_STORE, file);
    server = await startServer({ DATABASE_URL: `sqlite:${file}` });
    const db = server.built.db as Kysely<unknown>;

    expect(await history(db)).toEqual([
      { module: 'accounts', name: '001-accounts-applications-keys' },
      // Not in that release: the OAuth authorization server's tables.
      { module: 'accounts', name: '002-oauth' },
      // Not in that release: whether an account's address is verified, the account's own.
      { module: 'accounts', name: '003-email-verified' },
      { module: 'developer', name: '001-credentials-sessions-attempts' },
      // Not in that release either: it runs, and marks the accounts already there verified.
      { module: 'developer', name: '002-email-verification-and-links' },
      { module: 'developer', name: '003-email-change-links' },
      { module: 'developer', name: '004-session-last-seen' },
      // Not in that release: what the dashboard knew of each address copied to the account.
      { module: 'developer', name: '005-account-email-verified' },
      // Not in that release: the dashboard's copy of it dropped, the account's record the one source.
      { module: 'developer', name: '006-verified-with-the-account' },
      { module: 'profiles', name: '001-profiles' },
      { module: 'profiles', name: '002-personal-details-avatars' },
      // Not in that release: they run, the second indexing the verified accounts already stored.
      { module: 'profiles', name: '003-inferred-interests' },
      { module: 'profiles', name: '004-verified-account-index' },
      // Not in that release: the icons stored with each verified account let go (they are linked at /icons now).
      { module: 'profiles', name: '005-icons-not-stored' },
      { module: 'publishing', name: '01-tables' },
      { module: 'publishing', name: '02-standard-roles' },
      { module: 'publishing', name: '03-read-private-posts' },
      // Not in that release: it runs too.
      { module: 'publishing', name: '04-unique-slugs' },
      { module: 'publishing', name: '05-list-indexes-and-post-counts' },
      // Not in that release: the publishing users become accounts.
      { module: 'publishing', name: '06-users-accounts' },
      // Not in that release: editors and administrators may add categories.
      { module: 'publishing', name: '07-manage-categories' },
      // Not in that release: the index of published posts with a password.
      { module: 'publishing', name: '08-protected-posts-index' },
      // Not in that release: unfiltered_html, and the posts of users without it marked to be filtered when read.
      { module: 'publishing', name: '09-unfiltered-html' },
      // Not in that release: the search index, built for the posts already stored.
      { module: 'publishing', name: '10-search-index' },
      // Not in that release: stored times to the second.
      { module: 'publishing', name: '11-dates-to-seconds' },
      // Not in that release: administrators, editors and authors may upload files.
      { module: 'publishing', name: '12-client-writes' },
      // Not in that release: autosaves, and terms by name.
      { module: 'publishing', name: '13-autosaves-and-terms' },
      { module: 'publishing', name: '14-media-library' },
      // Not in that release: the standard roles' capabilities a site object names.
      { module: 'publishing', name: '15-site-capabilities' },
    ]);
    // Each account with dashboard credentials then is verified as of its credentials (002 counted them verified, 005
    // copied that to the account), and the dashboard keeps no copy of its own (006).
    const { rows: verified } = await sql<{ dashboard: number; accounts: number }>`select
        (select count(*) from developer_credentials) as dashboard,
        (select count(*) from accounts a join developer_credentials d on d.account_id = a.id
          where a.email_verified_at = d.created_at) as accounts`.execute(db);
    expect(Number(verified[0]!.dashboard)).toBeGreaterThan(0);
    expect(Number(verified[0]!.accounts)).toBe(Number(verified[0]!.dashboard));
    const { rows: columns } = await sql<{ name: string }>`select name from pragma_table_info('developer_credentials')
      order by name`.execute(db);
    expect(columns.map((column) => column.name)).toEqual(['account_id', 'created_at', 'password_hash']);
    const { rows: indexes } = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'index' and name = 'posts_unique_slug'`.execute(db);
    expect(indexes).toHaveLength(1);
    // The old history stays as it was: nothing was added to it or run from it.
    const { rows: legacy } = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(db);
    expect(Number(legacy[0]!.n)).toBe(6);

    const keyed = await call(`${server.url}/v3/profiles/alex`, {
      headers: { Authorization: `Bearer ${LEGACY_KEY}` },
    });
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('x-ratelimit-limit')).toBe(String(server.config.profiles.rateLimits.keyedPerHour));
    const post = await call(`${server.url}/rest/v1.1/sites/1/posts/1`);
    expect(post.status).not.toBe(500);
    // The posts stored before the search index existed are found through it.
    const searched = await call(`${server.url}/rest/v1.1/sites/1/posts/?search=harbour%20town&fields=ID`);
    expect(((await searched.json()) as { posts: { ID: number }[] }).posts.map((found) => found.ID)).toContain(108);
    // The verified accounts stored before the search index existed are found through it; the hidden one is not.
    const { rows: indexed } = await sql<{
      service_type: string;
    }>`select service_type from profile_verified_accounts where username = 'alexmorgan' order by position`.execute(db);
    expect(indexed.map((row) => row.service_type)).toEqual(['github', 'mastodon', 'linkedin', 'flickr', 'wordpress']);
    const found = await call(`${server.url}/v3/profiles/search/by-verified-account?username=AlexMorgan`, {
      headers: { Authorization: `Bearer ${LEGACY_KEY}` },
    });
    expect(
      ((await found.json()) as { profiles: { display_name: string }[] }).profiles.map(
        (profile) => profile.display_name,
      ),
    ).toEqual(['Alex Morgan']);

    // That release stored an icon with each verified account; none is kept now, and the answers link the served icons.
    const { rows: stored } = await sql<{ slug: string; verified_accounts: string }>`select slug, verified_accounts
      from profiles where verified_accounts <> '[]' order by slug`.execute(db);
    expect(stored.map((row) => row.slug)).toEqual(['alex', 'quiet']);
    for (const row of stored) {
      const accounts = JSON.parse(row.verified_accounts) as Record<string, unknown>[];
      expect(accounts.length).toBeGreaterThan(0);
      for (const account of accounts) {
        expect(Object.keys(account).sort()).toEqual(['hidden', 'serviceLabel', 'serviceType', 'url']);
      }
    }
    const shown = (await keyed.json()) as { verified_accounts: { service_type: string; service_icon: string }[] };
    expect(shown.verified_accounts.length).toBeGreaterThan(0);
    for (const account of shown.verified_accounts) {
      expect(account.service_icon).toBe(`${server.config.publicUrl}/icons/${account.service_type}.svg`);
    }

    // Starting again finds everything applied.
    await server.close();
    server = await startServer({ DATABASE_URL: `sqlite:${file}` });
    expect(await history(server.built.db as Kysely<unknown>)).toHaveLength(29);
  });
});

/** A schema of its own on PostgreSQL (created, and dropped after the test); none on SQLite. */
async function ownSchema(): Promise<string | undefined> {
  if (!onPostgres) return undefined;
  const schema = `test_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const admin = openDatabase(url, { timeoutMs: 5000 });
  try {
    await sql.raw(`create schema "${schema}"`).execute(admin.db);
  } finally {
    await admin.close();
  }
  return schema;
}

/** The history table of earlier releases as Kysely's migrator made it, holding these names. */
async function legacyHistoryWith(db: Kysely<any>, names: readonly string[]): Promise<void> {
  await db.schema
    .createTable('kysely_migration')
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
  for (const name of names)
    await db.insertInto('kysely_migration').values({ name, timestamp: '2026-11-23T00:00:00.000Z' }).execute();
}

describe("profiles' 005-icons-not-stored", () => {
  it('lets go the icon stored with each account of a service of the list, and keeps one of a service it lacks', async () => {
    server = await startServer({}, { services: ['profiles'] });
    const db = server.built.db as Kysely<ProfilesDatabase>;
    const stored = [
      {
        serviceType: 'github',
        serviceLabel: 'GitHub',
        serviceIcon: 'data:image/svg+xml;base64,AA==',
        url: 'https://github.com/a',
        hidden: false,
      },
      {
        serviceType: 'myspace',
        serviceLabel: 'MySpace',
        serviceIcon: 'https://icons.example/m.svg',
        url: 'https://myspace.example/a',
        hidden: true,
      },
    ];
    await db
      .updateTable('profiles')
      .set({ verified_accounts: JSON.stringify(stored) })
      .where('slug', '=', 'alex')
      .execute();
    await profilesMigrations.find((migration) => migration.name === '005-icons-not-stored')!.up(db as Kysely<unknown>);
    const after = await db.selectFrom('profiles').select(['slug', 'verified_accounts']).orderBy('slug').execute();
    const [github, myspace] = JSON.parse(after.find((row) => row.slug === 'alex')!.verified_accounts);
    expect(github).toEqual({
      serviceType: 'github',
      serviceLabel: 'GitHub',
      url: 'https://github.com/a',
      hidden: false,
    });
    expect(myspace).toEqual(stored[1]);
    // The other profiles (seeded without icons) are as they were.
    expect(
      after.filter((row) => row.slug !== 'alex').every((row) => !row.verified_accounts.includes('serviceIcon')),
    ).toBe(true);
  });
});

describe('the module migration runner', () => {
  let open: () => OpenDatabase;
  beforeEach(async () => {
    const schema = await ownSchema();
    open = () => (database = openDatabase(url, { timeoutMs: 5000, schema }));
  });
  const step = (name: string, ran: string[], extra: Partial<NamedMigration> = {}): NamedMigration => ({
    name,
    up: async () => void ran.push(name),
    ...extra,
  });

  it('applies modules in the order given and each module’s migrations in the order declared, never by name', async () => {
    const ran: string[] = [];
    const store = open();
    const applied = await migrateModules(store, [
      { module: 'zeta', migrations: [step('z-first', ran), step('a-second', ran)] },
      { module: 'alpha', migrations: [step('b-first', ran), step('a-second', ran)] },
    ]);
    expect(ran).toEqual(['z-first', 'a-second', 'b-first', 'a-second']);
    expect(applied).toEqual(['zeta/z-first', 'zeta/a-second', 'alpha/b-first', 'alpha/a-second']);
    expect(await history(store.db)).toHaveLength(4);
  });

  it('applies only what is pending, and records each migration per module', async () => {
    const ran: string[] = [];
    const store = open();
    await migrateModules(store, [{ module: 'one', migrations: [step('001', ran)] }]);
    const applied = await migrateModules(store, [
      { module: 'one', migrations: [step('001', ran), step('002', ran)] },
      { module: 'two', migrations: [step('001', ran)] },
    ]);
    expect(applied).toEqual(['one/002', 'two/001']);
    expect(ran).toEqual(['001', '002', '001']);
  });

  it('names the module and migration that failed, and records nothing for it', async () => {
    const store = open();
    const failing = step('002-broken', [], { up: () => Promise.reject(new Error('boom')) });
    await expect(migrateModules(store, [{ module: 'one', migrations: [step('001', []), failing] }])).rejects.toThrow(
      'migration one/002-broken failed',
    );
    expect(await history(store.db)).toEqual([{ module: 'one', name: '001' }]);
  });

  it('records a migration found in the earlier releases\u2019 history of its own schema (kysely_migration) as applied without running it, and runs the others', async () => {
    const ran: string[] = [];
    const store = open();
    await legacyHistoryWith(store.db, ['2026-11-23-a-one-001', '2026-11-23-b-other-001']);
    const applied = await migrateModules(store, [
      {
        module: 'one',
        migrations: [
          step('001', ran, { legacyName: '2026-11-23-a-one-001' }),
          step('002', ran, { legacyName: '2026-11-23-a-one-002' }),
          step('003', ran),
        ],
      },
    ]);
    expect(ran).toEqual(['002', '003']);
    expect(applied).toEqual(['one/001', 'one/002', 'one/003']);
    expect(await history(store.db)).toEqual([
      { module: 'one', name: '001' },
      { module: 'one', name: '002' },
      { module: 'one', name: '003' },
    ]);
    // The old history stays as it was.
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(store.db);
    expect(rows.map((row) => row.name)).toEqual(['2026-11-23-a-one-001', '2026-11-23-b-other-001']);
  });

  it.runIf(onPostgres)(
    'on PostgreSQL, adopts nothing from the earlier releases\u2019 history of another schema of the database',
    async () => {
      // Another store's schema on the same server, migrated by an earlier release.
      const other = openDatabase(url, { timeoutMs: 5000, schema: await ownSchema() });
      try {
        await legacyHistoryWith(other.db, ['2026-11-23-a-one-001']);
      } finally {
        await other.close();
      }
      const ran: string[] = [];
      const store = open();
      await migrateModules(store, [
        { module: 'one', migrations: [step('001', ran, { legacyName: '2026-11-23-a-one-001' })] },
      ]);
      expect(ran).toEqual(['001']);
    },
  );

  it('refuses a module that declares a migration twice', async () => {
    await expect(
      migrateModules(open(), [{ module: 'one', migrations: [step('001', []), step('001', [])] }]),
    ).rejects.toThrow('declares migration 001 twice');
  });
});
