import { sql, type Kysely } from 'kysely';
import { isUniqueViolation } from '../../../platform/store/uniqueViolation.js';

/**
 * Runs `work` in one transaction: a new one, or, when `db` is already a
 * transaction (a whole write request's, see the publishing store's
 * `inTransaction`), inside that one, so its statements commit or roll back
 * with the rest of the request. Kysely refuses `transaction()` on a
 * transaction; this is the one place that decides.
 */
export function atomically<DB, T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** Savepoint names: unique per attempt, so attempts nested in one transaction never mix theirs up. */
let savepoints = 0;

/**
 * Runs `attempt` again while a concurrent writer takes what it chose (a
 * unique index refuses the ID, revision ID or slug it read as free), at most
 * `maxAttempts` times. Each attempt is atomic: in a transaction of its own,
 * or, inside an outer transaction, under a savepoint. The savepoint is what
 * keeps the retry here rather than around the whole request: on PostgreSQL a
 * failed statement aborts the transaction, and only `rollback to savepoint`
 * lets it go on (SQLite accepts the same commands). A retry of the whole
 * request's transaction would run its checks and every earlier write again
 * for a conflict on one row; the savepoint retries just the step that lost.
 */
export async function retryingTaken<DB, T>(
  db: Kysely<DB>,
  attempt: (trx: Kysely<DB>) => Promise<T>,
  maxAttempts: number,
): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await atomicAttempt(db, attempt);
    } catch (error) {
      if (!isUniqueViolation(error) || tried >= maxAttempts) throw error;
    }
  }
}

async function atomicAttempt<DB, T>(db: Kysely<DB>, attempt: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return db.transaction().execute(attempt);
  const name = sql.id(`attempt_${++savepoints}`);
  await sql`savepoint ${name}`.execute(db);
  let result: T;
  try {
    result = await attempt(db);
  } catch (error) {
    // Undoes the attempt only; a failure here (a lost connection) goes up instead and fails the transaction.
    await sql`rollback to savepoint ${name}`.execute(db);
    await sql`release savepoint ${name}`.execute(db);
    throw error;
  }
  await sql`release savepoint ${name}`.execute(db);
  return result;
}
