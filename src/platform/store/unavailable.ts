/**
 * Whether a store error means "the store cannot take requests right now"
 * (answered 503 with `Retry-After`, never 500): the one place that knows the
 * drivers' ways of saying so.
 *
 * - SQLite: `SQLITE_BUSY*` / `SQLITE_LOCKED*` (another connection holds the
 *   write lock longer than the bounded wait, see `sqliteDriver.ts`).
 * - PostgreSQL: a refused, reset or timed-out connection (`ECONNREFUSED`,
 *   `ECONNRESET`, ...), the server shutting down or not yet accepting
 *   connections (SQLSTATE class 08, `57P01`-`57P03`, `53300`), a statement
 *   cancelled by its timeout (`57014`), a transaction rolled back as a
 *   deadlock's victim or for a serialization failure (`40P01`, `40001`:
 *   nothing of it was kept, so the client may simply try again), and
 *   node-postgres' own errors for a
 *   connection that ended or a pool that could not connect in time (these
 *   carry no code, only their message).
 * - Work stopped by its own code over its budget (`StoreBusyError`, e.g.
 *   publishing's search on SQLite).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (error instanceof StoreBusyError) return true;
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (NETWORK_CODES.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code) || POSTGRES_UNAVAILABLE.has(code)) return true;
  }
  return typeof message === 'string' && PG_CLIENT_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Whether a store error is PostgreSQL breaking a deadlock (`40P01`): two
 * writes took their locks in opposite orders. Unavailable all the same (the
 * victim kept nothing, the client may try again), but a defect in the order
 * of the writes' locks, not a store that was down.
 */
export function isDeadlock(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { code?: unknown }).code === '40P01';
}

/**
 * Work the store would take longer than its budget for (`STORE_TIMEOUT_MS`),
 * stopped by the code that does it in steps: the store is busy, the client
 * may try again later (503 with `Retry-After`).
 */
export class StoreBusyError extends Error {
  override readonly name = 'StoreBusyError';
}

const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections, query_canceled (statement timeout), deadlock_detected, serialization_failure. */
const POSTGRES_UNAVAILABLE: ReadonlySet<string> = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '40P01',
  '40001',
]);

/** node-postgres and pg-pool errors without a code. */
const PG_CLIENT_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Connection ended unexpectedly$/,
];
