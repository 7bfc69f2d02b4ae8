import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  Kysely,
  sql,
  type LogEvent,
  PostgresDialect,
  type SqliteDatabase as KyselySqliteDatabase,
  type SqliteStatement as KyselySqliteStatement,
} from 'kysely';
import { onFirstUse } from '../onFirstUse.js';
import { preparedStatementName } from './prepared.js';
import { BusyTolerantSqliteDialect } from './sqliteDriver.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open store; `DB` is the tables the caller knows of (the app: every module's). */
export interface OpenDatabase<DB = any> {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default. */
  schema?: string;
  /** PostgreSQL: the connection pool (read replicas fall back to it). */
  pool?: import('pg').Pool;
  /** What every statement is reported to (store errors, tracing): for another Kysely over the same data. */
  log: (event: LogEvent) => void;
  /**
   * SQLite only: a mark of the data's state, which differs from every
   * earlier mark once anything may have changed it (see `changeMarks`).
   * PostgreSQL has none: other instances write to it unseen.
   */
  changeMark?: ChangeMark;
  close(): Promise<void>;
}

/**
 * A mark of the store's data, read before the reads it stands for: while
 * the mark is the same, so is everything those reads could find. Undefined
 * when the store cannot tell at the moment (then nothing may be kept by it).
 */
export type ChangeMark = () => string | undefined;

/**
 * Opens the store named by `DATABASE_URL`: `sqlite:PATH` (the embedded
 * default; the folder is created), `sqlite::memory:`, or `postgres://…`.
 */
export function openDatabase<DB = any>(
  url: string,
  options: {
    timeoutMs: number;
    schema?: string;
    onQueryError?: (error: unknown) => void;
    /** Every statement once it has run (Kysely's query log): tracing. */
    onQuery?: (event: LogEvent) => void;
    /** SQLite: SQLite's own (synchronous) busy wait per attempt; keep it to a few milliseconds. */
    sqliteBusyTimeoutMs?: number;
    /** SQLite: the longest asynchronous wait for another connection's write lock (see `sqliteDriver.ts`). */
    busyWaitMs?: number;
    /**
     * `sqlite::memory:`: the store starts as a copy of this image (a database file's bytes, in rollback-journal
     * mode), not empty: the test suite's servers start on copies of one migrated and seeded store.
     */
    sqliteImage?: Buffer;
  },
): OpenDatabase<DB> {
  const { onQuery } = options;
  const log = (event: LogEvent) => {
    if (event.level === 'error') options.onQueryError?.(event.error);
    onQuery?.(event);
  };
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = postgresPool(url, options);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log });
    return { db, dialect: 'postgres', schema: options.schema, pool, log, close: () => db.destroy() };
  }
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (!file)
      throw new Error(
        'DATABASE_URL names no SQLite file: use sqlite:PATH (e.g. sqlite:data/app.db) or sqlite::memory:',
      );
    if (file !== ':memory:') ownerOnly(file);
    // A short busy wait: better-sqlite3 waits synchronously, blocking every request of the process.
    const source = file === ':memory:' && options.sqliteImage ? options.sqliteImage : file;
    const sqlite = new SqliteDatabase(source, { timeout: options.sqliteBusyTimeoutMs ?? 5 });
    sqlite.pragma('journal_mode = WAL');
    // SQLite gives its -wal and -shm files the database file's mode; ones left by an earlier start are made so too.
    if (file !== ':memory:')
      for (const companion of [`${file}-wal`, `${file}-shm`]) if (existsSync(companion)) chmodSync(companion, 0o600);
    sqlite.pragma('foreign_keys = ON');
    const marks = changeMarks(sqlite);
    const dialect = new BusyTolerantSqliteDialect(withStatementCache(sqlite, marks.wrote), {
      busyWaitMs: options.busyWaitMs ?? 1000,
    });
    const db = new Kysely<DB>({ dialect, log });
    return { db, dialect: 'sqlite', log, changeMark: marks.mark, close: () => db.destroy() };
  }
  throw new Error('DATABASE_URL must start with sqlite: or postgres://');
}

/**
 * Makes the SQLite file readable and writable by this user only (mode 0600),
 * created so before SQLite opens it, or narrowed when an earlier start left
 * it wider: it holds password hashes, key hashes and every profile. Its
 * folder is created owner-only too.
 */
function ownerOnly(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Loaded only for a PostgreSQL store: an instance on SQLite does not spend start-up on it. */
const postgresDriver = onFirstUse<typeof import('pg')>('pg');

/**
 * A pool of connections to the PostgreSQL server at `url` (the primary, or a
 * read replica): bounded waits, the store's prepared queries as named
 * statements, and the deployment's schema.
 */
export function postgresPool(url: string, options: { timeoutMs: number; schema?: string }): import('pg').Pool {
  const pg = postgresDriver();
  const pool = new pg.Pool({
    Client: namedStatementClient(pg),
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: options.timeoutMs,
    query_timeout: options.timeoutMs,
    statement_timeout: options.timeoutMs,
    // A schema of its own per deployment (or per test run) on a shared server.
    options: options.schema ? `-c search_path=${quoteIdentifier(options.schema)}` : undefined,
  });
  // A client that loses its connection (the database stopped, a proxy dropped it) must not crash
  // the process: idle ones report through the pool, checked-out ones through themselves; the
  // query in flight fails on its own and the pool opens a new connection for the next one.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/**
 * pg's client, sending the SQL of the store's prepared queries
 * (`prepared.ts`) as named statements: PostgreSQL parses and plans each once
 * per connection, then only binds new values, which saves PostgreSQL most of
 * its work on the hot paths' queries. Other SQL goes as it is. Kysely runs
 * every query as `client.query(sql, values)`.
 */
function namedStatementClient(pg: typeof import('pg')): typeof import('pg').Client {
  return class NamedStatementClient extends pg.Client {
    override query(...args: unknown[]): never {
      const [config, values, callback] = args;
      const name = typeof config === 'string' && Array.isArray(values) ? preparedStatementName(config) : undefined;
      const query = super.query as (...queryArgs: unknown[]) => never;
      return name === undefined ? query.apply(this, args) : query.call(this, { name, text: config, values }, callback);
    }
  } as typeof import('pg').Client;
}

/**
 * The change marks of a SQLite connection: this connection's statements that
 * may write (any but a read-only reader: every insert, update, delete, DDL,
 * `BEGIN`, `COMMIT` and `ROLLBACK`, counted before they run) and other
 * connections' commits (`PRAGMA data_version`, which changes with each
 * commit another connection makes: the admin commands, another process).
 * A mark read before a set of reads differs from it once a statement that
 * may have changed what they read has begun. A rolled-back write leaves a
 * newer mark too: marks err only towards a change that did not happen.
 */
function changeMarks(sqlite: SqliteDatabase.Database): { mark: ChangeMark; wrote: () => void } {
  let writes = 0;
  const dataVersion = sqlite.prepare('pragma data_version').pluck(true);
  return {
    wrote: () => void writes++,
    mark: () => {
      // Read first: a write after it changes `writes`, whatever `data_version` then says.
      const ours = writes;
      try {
        return `${ours}.${dataVersion.get() as number}`;
      } catch {
        // Busy (another process's exclusive lock) or closed: no mark, nothing kept.
        return undefined;
      }
    },
  };
}

/** Most prepared SQLite statements kept for reuse. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The SQLite database as Kysely sees it, with its prepared statements reused:
 * Kysely's SQLite driver prepares every query it runs, and parsing and
 * planning the SQL again cost more than running it. Statements are kept by
 * their SQL text (the values are parameters, so the set of texts is small);
 * one still iterating a result is never handed out twice. SQLite re-prepares
 * a statement by itself when a migration changes the schema. Reading
 * statements answer their rows through `objectRows`.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, wrote: () => void): KyselySqliteDatabase {
  const statements = new Map<string, { statement: SqliteDatabase.Statement; facade: KyselySqliteStatement }>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare(text: string) {
      const cached = statements.get(text);
      if (cached && !cached.statement.busy) return cached.facade;
      const statement = sqlite.prepare(text);
      const facade = counted(objectRows(statement), statement, wrote);
      if (!cached) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, { statement, facade });
      }
      return facade;
    },
  };
}

/**
 * A statement whose rows are objects keyed by column, as better-sqlite3
 * answers them, built from its raw rows (arrays) by an object literal
 * compiled once per list of columns: better-sqlite3 adds a row's keys one
 * by one, which for a wide row (a post's 27 columns) cost more than reading
 * it (docs/performance.md, "Figures behind the code"). A repeated column keeps its
 * first place and its last value, as better-sqlite3 gives it. A statement
 * with a column named `__proto__` (a literal of it would set the prototype)
 * answers better-sqlite3's own objects.
 */
function objectRows(statement: SqliteDatabase.Statement): KyselySqliteStatement {
  if (!statement.reader) return statement as unknown as KyselySqliteStatement;
  let build = compileRow(statement);
  if (!build) return statement as unknown as KyselySqliteStatement;
  statement.raw(true);
  const toObjects = (rows: unknown[][]): unknown[] => {
    // A migration that changed a table under a cached `select *`: SQLite re-prepared the statement, with other columns.
    if (rows.length && rows[0]!.length !== build!.columns) build = compileRow(statement) ?? build;
    return rows.map(build!);
  };
  return {
    reader: true,
    all: (parameters) => toObjects(statement.all(parameters) as unknown[][]),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObjects([row])[0];
    },
  };
}

/** The statement, with `wrote` told before each run when it may write (see `changeMarks`). */
function counted(
  facade: KyselySqliteStatement,
  statement: SqliteDatabase.Statement,
  wrote: () => void,
): KyselySqliteStatement {
  if (statement.reader && statement.readonly) return facade;
  return {
    reader: facade.reader,
    all: (parameters) => (wrote(), facade.all(parameters)),
    run: (parameters) => (wrote(), facade.run(parameters)),
    iterate: (parameters) => (wrote(), facade.iterate(parameters)),
  };
}

type RowBuilder = ((row: unknown[]) => Record<string, unknown>) & { columns: number };

function compileRow(statement: SqliteDatabase.Statement): RowBuilder | undefined {
  const names = statement.columns().map((column) => column.name);
  if (names.includes('__proto__')) return undefined;
  const fields = names.map((name, index) => `${JSON.stringify(name)}: row[${index}]`);
  const build = new Function('row', `return { ${fields.join(', ')} };`) as RowBuilder;
  build.columns = names.length;
  return build;
}

const quoteIdentifier = (name: string) => {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid schema name "${name}"`);
  return `"${name}"`;
};

/** How long an instance waits for another one's start-up work before giving up. */
const STARTUP_LOCK_WAIT_MS = 120_000;

/**
 * Runs start-up work (schema, migrations, demo data) under a PostgreSQL
 * advisory lock, so several instances starting at once do it one after the
 * other and each finds the work already done. The lock key is derived from
 * the schema, so deployments in different schemas do not wait for each
 * other. It is taken with `pg_try_advisory_lock` in a loop of short
 * statements, so no statement or query timeout can cut the wait short; one
 * pooled connection holds it while the work runs on others.
 */
export async function withStartupLock(database: OpenDatabase, work: () => Promise<void>): Promise<void> {
  if (database.dialect !== 'postgres') return work();
  const key = `startup:${database.schema ?? 'public'}`;
  await database.db.connection().execute(async (connection) => {
    const deadline = Date.now() + STARTUP_LOCK_WAIT_MS;
    for (;;) {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtext(${key})) as locked`.execute(
        connection,
      );
      if (rows[0]?.locked) break;
      if (Date.now() > deadline) throw new Error('timed out waiting for another instance to finish start-up');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      if (database.schema)
        await sql.raw(`create schema if not exists ${quoteIdentifier(database.schema)}`).execute(connection);
      await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(connection);
    }
  });
}
