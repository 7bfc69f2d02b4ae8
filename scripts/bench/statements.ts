/**
 * Records every SQL statement this process executes: SQLite's through
 * better-sqlite3 (each run of a statement, prepared once or not, told when
 * it has run, with the microseconds it took) and PostgreSQL's through pg
 * (each query, `begin` and `commit` included, told when it is sent, with no
 * time: pg answers asynchronously). Used by the benchmark's query log
 * (sql-trace.ts) and by the tests that count a request's statements.
 * Returns `stop`, which puts the drivers back.
 */
import { createRequire } from 'node:module';

export function recordStatements(onStatement: (text: string, micros?: number) => void): () => void {
  const require = createRequire(import.meta.url);
  const restorers: (() => void)[] = [];

  const SqliteDatabase = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new SqliteDatabase(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method]!;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        onStatement(this.source, (performance.now() - started) * 1000);
      }
    };
    restorers.push(() => (statement[method] = original));
  }

  const pg = require('pg') as typeof import('pg');
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const [config] = args;
    onStatement(typeof config === 'string' ? config : String((config as { text?: string } | undefined)?.text ?? ''));
    return query.apply(this, args);
  } as never;
  restorers.push(() => (pg.Client.prototype.query = query as never));

  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    for (const restore of restorers) restore();
  };
}
