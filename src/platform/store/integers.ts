/**
 * The largest value an `integer` column holds: PostgreSQL's is 32-bit
 * (SQLite's 64). A larger number, which a body, a query or a page handle may
 * carry up to 2^53, names no stored row, and must never reach PostgreSQL,
 * which refuses it outright rather than finding nothing.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;

/** Whether `id` can name a stored row: a whole number from 1 to `MAX_STORED_INTEGER`. */
export const isStorableId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_STORED_INTEGER;
