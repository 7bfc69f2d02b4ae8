/**
 * A query log for the benchmark, preloaded into a server child with
 * `--import`: every SQL statement the process executes (SQLite through
 * better-sqlite3, PostgreSQL through pg; see statements.ts) is appended,
 * one a line, to the file named by BENCH_SQL_LOG: the microseconds SQLite
 * took (empty for PostgreSQL), a tab, the statement. Lines are kept in
 * memory and written every few milliseconds (and at exit), so a server
 * under load spends almost nothing on its own log. Used only on a server
 * that is not being timed, to count the statements of one request and the
 * time SQLite itself spends on a loaded server's requests.
 */
import { appendFileSync } from 'node:fs';
import { recordStatements } from './statements.js';

/** Longest a line waits in memory. */
const FLUSH_MS = 10;

const file = process.env.BENCH_SQL_LOG;
if (file) {
  let pending: string[] = [];
  // biome-ignore lint/correctness/noUnusedVariables: `timer ??=` reads it, so one flush waits at a time
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending.length) return;
    const lines = pending;
    pending = [];
    appendFileSync(file, lines.join(''));
  };
  recordStatements((text, micros) => {
    pending.push(`${micros === undefined ? '' : micros.toFixed(1)}\t${text.replace(/\s+/g, ' ').trim()}\n`);
    timer ??= setTimeout(flush, FLUSH_MS).unref();
  });
  process.on('exit', flush);
}
