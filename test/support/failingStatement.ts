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
  const matches = (statement: unknown) => {
    // A string, or a query config (`{ name, text, values }`: a prepared statement on PostgreSQL).
    const text =
      typeof statement === 'object' && statement !== null ? (statement as { text?: unknown }).text : statement;
    if (!armed || typeof text !== 'string' || !pattern.test(text)) return false;
    armed = false;
    return true;
  };

  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    if (matches(args[0]))
      return Promise.reject(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      );
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;

  const probe = new SqliteDatabase(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as { run: (...args: unknown[]) => unknown };
  probe.close();
  const run = statement.run;
  statement.run = function (this: { source: string }, ...args: unknown[]) {
    if (matches(this.source)) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    return run.apply(this, args);
  };

  return {
    fired: () => !armed,
    restore() {
      pg.Client.prototype.query = query;
      statement.run = run;
    },
  };
}

/**
 * Counts the reads whose SQL matches `pattern`, on either store, as they are
 * sent (node-postgres' `Client#query`, better-sqlite3's `Statement#all`,
 * which runs every read of Kysely's SQLite driver). `restore()` undoes the
 * patches.
 */
export function countReads(pattern: RegExp): { count(): number; restore(): void } {
  let count = 0;
  const text = (statement: unknown) =>
    typeof statement === 'object' && statement !== null ? (statement as { text?: unknown }).text : statement;
  const pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const sql = text(args[0]);
    if (typeof sql === 'string' && pattern.test(sql)) count++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const probe = new SqliteDatabase(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as { all: (...args: unknown[]) => unknown };
  probe.close();
  const all = statement.all;
  statement.all = function (this: { source: string }, ...args: unknown[]) {
    if (pattern.test(this.source)) count++;
    return all.apply(this, args);
  };
  return {
    count: () => count,
    restore() {
      pg.Client.prototype.query = query;
      statement.all = all;
    },
  };
}
