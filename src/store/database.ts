import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { profilesMigrations } from '../profiles/store/migrations.js';
import type { ProfilesTables } from '../profiles/store/tables.js';
import { publishingMigrations } from '../publishing/store/migrations.js';
import type { PublishingTables } from '../publishing/store/tables.js';

/** Every table of both services. */
export type Database = ProfilesTables & PublishingTables;

export type Dialect = 'sqlite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

/**
 * Opens the store named by `DATABASE_URL`: `sqlite:PATH` (the embedded
 * default; the folder is created), `sqlite::memory:`, or `postgres://…`.
 */
export function openDatabase(url: string, options: { timeoutMs: number }): OpenDatabase {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: options.timeoutMs,
      query_timeout: options.timeoutMs,
      statement_timeout: options.timeoutMs,
    });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file, { timeout: options.timeoutMs });
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

/** One migration history for both services, applied in name order. */
const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...profilesMigrations, ...publishingMigrations };
  },
};

/**
 * Applies pending migrations. Kysely's migrator takes a lock table first, so
 * several instances starting at once apply each migration exactly once.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
