/**
 * A query log for the benchmark, preloaded into a server child with
 * `--import`: every SQL statement the process executes (SQLite through
 * better-sqlite3, PostgreSQL through pg; see statements.ts) is appended,
 * one a line, to the file named by BENCH_SQL_LOG: the microseconds SQLite
 * took (empty for PostgreSQL), a tab, the statement. Used only on a server
 * that is not being timed, to count the statements of one request and the
 * time SQLite itself spends on them.
 */
import { appendFileSync } from 'node:fs';
import { recordStatements } from './statements.js';

const file = process.env.BENCH_SQL_LOG;
if (file) recordStatements((text, micros) => appendFileSync(file, `${micros === undefined ? '' : micros.toFixed(1)}\t${text.replace(/\s+/g, ' ').trim()}\n`));
