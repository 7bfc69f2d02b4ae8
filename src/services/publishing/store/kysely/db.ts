import type { Kysely, SelectQueryBuilder } from 'kysely';
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
