import { sql, SqliteAdapter, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { PublishingTables } from '../tables.js';

/** The publishing tables, as every part of the store queries them. */
export type Db = Kysely<PublishingTables>;

export { isStorableId } from '../../../../platform/store/integers.js';

/** `count(*)` of a query's rows, as a number on every backend (PostgreSQL answers a string). */
export async function count<TB extends keyof PublishingTables>(
  query: SelectQueryBuilder<PublishingTables, TB, object>,
): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether a query has any row. */
export async function exists<TB extends keyof PublishingTables>(
  query: SelectQueryBuilder<PublishingTables, TB, object>,
): Promise<boolean> {
  const row = await query
    .select((eb) => eb.lit(1).as('one'))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The IDs below `root` in a tree kept as parent IDs (pages under a page, terms under a term), one statement per
 * level as `get_pages` with `child_of` walks it; `childrenOf` answers the IDs whose parent is one of a level's.
 * The IDs met so far end a loop of parents.
 */
export async function idsBelow(root: number, childrenOf: (level: number[]) => Promise<number[]>): Promise<number[]> {
  const below: number[] = [];
  const seen = new Set([root]);
  for (let level = [root]; level.length; ) {
    level = (await childrenOf(level)).filter((child) => !seen.has(child));
    for (const child of level) seen.add(child);
    below.push(...level);
  }
  return below;
}

/** The tables whose rows get explicit integer IDs from `nextFreeId`. */
type IdTable = 'posts' | 'revisions' | 'terms' | 'post_meta' | 'attachments' | 'autosaves' | 'users' | 'sites';

/**
 * Whether concurrent writers must be made to take turns here: on
 * PostgreSQL, where writes overlap, and not on SQLite, whose writes (`begin
 * immediate`) already run one at a time. A hold outside a transaction would
 * end with its own statement, so there `what` is named in an error: a
 * caller's mistake, not a hold.
 */
export function writersOverlap(db: Db, what: string): boolean {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return false;
  if (!db.isTransaction) throw new Error(`${what} runs inside the write’s transaction`);
  return true;
}

/**
 * Waits for every other write holding `name` and holds it until this write
 * commits or rolls back (PostgreSQL: a transaction-scoped advisory lock on a
 * hash of the name, so two names sharing a hash only wait for each other;
 * SQLite: nothing to do, see `writersOverlap`).
 */
export async function takeTurns(db: Db, name: string): Promise<void> {
  if (writersOverlap(db, name)) await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(db);
}

/**
 * The next ID of a table with explicit integer IDs (the store has no
 * sequences, for SQLite and PostgreSQL alike): its largest plus one. Runs in
 * the write's transaction, after taking turns on the table's IDs until that
 * transaction ends: without it concurrent writers all read the same largest
 * ID, and all but one collide on the key and try again, and under enough of
 * them a writer could lose every try and answer 500
 * (docs/decisions/ids-one-writer-at-a-time.md).
 * Turns are taken in one order by every write (a post, then its revision,
 * terms and metadata; a new term's name before its ID), so no two writes
 * wait on each other in a circle.
 */
export async function nextFreeId(db: Kysely<PublishingTables>, table: IdTable): Promise<number> {
  await takeTurns(db, `publishing.ids:${table}`);
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('top'))
    .executeTakeFirst();
  return Number(row?.top ?? 0) + 1;
}
