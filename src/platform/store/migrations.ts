import { sql, type Kysely, type Migration } from 'kysely';
import type { OpenDatabase } from './database.js';

/** One migration of a module: a name unique in the module, and the step (schema builder only, so it runs on SQLite and PostgreSQL). */
export interface NamedMigration extends Migration {
  name: string;
  /**
   * The name the same step had in the one history of earlier releases
   * (Kysely's `kysely_migration` table): a store that applied it there has
   * it, and it is recorded here without running again.
   */
  legacyName?: string;
}

/** A module's migrations, in the order they are applied. */
export interface ModuleMigrations {
  module: string;
  migrations: readonly NamedMigration[];
}

/** The history: one row per applied migration, by module. */
const HISTORY = 'schema_migrations';
/** The history of earlier releases: every service's migrations in one Kysely table, ordered by name. */
const LEGACY_HISTORY = 'kysely_migration';

/**
 * Applies each module's pending migrations: modules in the order given,
 * each module's migrations in the order it declares them (never by name),
 * each in a transaction with its record in `schema_migrations`
 * (`module`, `name`). A migration recorded under its `legacyName` in the
 * history of earlier releases is recorded as applied, not run again.
 * Start-up runs this under the start-up lock (see `withStartupLock`), so
 * instances starting together apply each migration once.
 */
export async function migrateModules(database: OpenDatabase, modules: readonly ModuleMigrations[]): Promise<string[]> {
  const db = database.db as Kysely<any>;
  await db.schema
    .createTable(HISTORY)
    .ifNotExists()
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applied_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${HISTORY}_pkey`, ['module', 'name'])
    .execute();
  const recorded = new Set(
    (await db.selectFrom(HISTORY).select(['module', 'name']).execute()).map((row) => `${row.module}/${row.name}`),
  );
  const legacy = await legacyHistory(database);
  const applied: string[] = [];
  for (const { module, migrations } of modules) {
    const names = new Set<string>();
    for (const migration of migrations) {
      if (names.has(migration.name)) throw new Error(`module ${module} declares migration ${migration.name} twice`);
      names.add(migration.name);
      if (recorded.has(`${module}/${migration.name}`)) continue;
      const adopted = migration.legacyName !== undefined && legacy.has(migration.legacyName);
      try {
        await db.transaction().execute(async (trx) => {
          if (!adopted) await migration.up(trx);
          await trx
            .insertInto(HISTORY)
            .values({ module, name: migration.name, applied_at: new Date().toISOString() })
            .execute();
        });
      } catch (error) {
        throw new Error(`migration ${module}/${migration.name} failed`, { cause: error });
      }
      applied.push(`${module}/${migration.name}`);
    }
  }
  return applied;
}

/**
 * Names in the history table of earlier releases; none when the store never had one. Whether that table
 * exists is asked of this store's own schema alone: an introspection of every schema (Kysely's `getTables`)
 * fails when another store's schema on the same server is dropped while it reads (tests, several tenants).
 */
async function legacyHistory(database: OpenDatabase): Promise<Set<string>> {
  const found =
    database.dialect === 'postgres'
      ? await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = ${database.schema ?? 'public'} and table_name = ${LEGACY_HISTORY}`.execute(database.db)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name = ${LEGACY_HISTORY}`.execute(database.db);
  if (!found.rows.length) return new Set();
  const { rows } = await sql<{ name: string }>`select name from ${sql.table(LEGACY_HISTORY)}`.execute(database.db);
  return new Set(rows.map((row) => row.name));
}
