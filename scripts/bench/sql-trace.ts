/**
 * A query log for the benchmark, preloaded into a server child with
 * `--import`: every SQL statement the process executes (SQLite through
 * better-sqlite3, PostgreSQL through pg) is appended, one a line, to the
 * file named by BENCH_SQL_LOG. Used only on a server that is not being
 * timed, to count the statements of one request.
 */
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const file = process.env.BENCH_SQL_LOG;
if (file) {
  const require = createRequire(import.meta.url);
  const log = (text: string) => appendFileSync(file, `${text.replace(/\s+/g, ' ').trim()}\n`);

  const SqliteDatabase = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SqliteDatabase(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      log(this.source);
      return original.apply(this, args);
    };
  }

  const pg = require('pg') as typeof import('pg');
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    log(typeof config === 'string' ? config : String((config as { text?: string } | undefined)?.text ?? ''));
    return query.apply(this, args);
  } as never;
}
