import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { PublishingTables } from '../tables.js';

/** The publishing tables, as every part of the store queries them. */
export type Db = Kysely<PublishingTables>;

/** The largest ID an `integer` column holds on PostgreSQL; a larger one cannot name a stored row. */
const MAX_STORED_ID = 2_147_483_647;

export const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_STORED_ID;

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
