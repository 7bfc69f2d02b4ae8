import { createRequire } from 'node:module';
import SqliteDatabase from 'better-sqlite3';

/**
 * Makes the next statement whose SQL matches `pattern` fail as an
 * unavailable store fails (PostgreSQL: the server shutting down, `57P01`;
 * SQLite: `SQLITE_BUSY`), once, on either store: the drivers' own classes
 * are patched in this test process (node-postgres' `Client#query`,
 * better-sqlite3's `Statement#run`, which runs every write). The statement
 * never reaches the database. `restore()` undoes the patches.
 */
export function failNextStatement(pattern: RegExp): { fired(): boolean; restore(): void } {
  let armed = true;
  const { restore } = interceptStatements('run', (sql, driver) => {
    if (!armed || !pattern.test(sql)) return undefined;
    armed = false;
    return driver === 'pg'
      ? Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })
      : Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  });
  return { fired: () => !armed, restore };
}

/**
 * Counts the reads whose SQL matches `pattern`, on either store, as they are
 * sent (node-postgres' `Client#query`, better-sqlite3's `Statement#all`,
 * which runs every read of Kysely's SQLite driver). `restore()` undoes the
 * patches.
 */
export function countReads(pattern: RegExp): { count(): number; restore(): void } {
  let count = 0;
  const { restore } = interceptStatements('all', (sql) => {
    if (pattern.test(sql)) count++;
    return undefined;
  });
  return { count: () => count, restore };
}

/**
 * Shows `inspect` the SQL of every statement node-postgres' `Client#query`
 * sends and of every better-sqlite3 statement run through `sqliteMethod`,
 * before it reaches the database; an error it answers fails the statement
 * instead (rejected on PostgreSQL, thrown on SQLite). `restore()` undoes the
 * patches.
 */
function interceptStatements(
  sqliteMethod: 'run' | 'all',
  inspect: (sql: string, driver: 'pg' | 'sqlite') => Error | undefined,
): { restore(): void } {
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    // A string, or a query config (`{ name, text, values }`: a prepared statement on PostgreSQL).
    const [statement] = args;
    const sql =
      typeof statement === 'object' && statement !== null ? (statement as { text?: unknown }).text : statement;
    const error = typeof sql === 'string' ? inspect(sql, 'pg') : undefined;
    if (error) return Promise.reject(error);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  const probe = new SqliteDatabase(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<
    'run' | 'all',
    (...args: unknown[]) => unknown
  >;
  probe.close();
  const original = prototype[sqliteMethod];
  prototype[sqliteMethod] = function (this: { source: string }, ...args: unknown[]) {
    const error = inspect(this.source, 'sqlite');
    if (error) throw error;
    return original.apply(this, args);
  };

  return {
    restore() {
      pg.Client.prototype.query = query;
      prototype[sqliteMethod] = original;
    },
  };
}
