/**
 * A store's records from its rows: tables name their columns in
 * `snake_case`, the code that uses a store in `camelCase`. A record type is
 * the table's row under camelCase names (`CamelCased<PostsTable>`), with
 * only what the store converts (a 0/1 as a boolean, JSON text parsed)
 * declared again; `camelCased` renames a row's columns at run time.
 */

/** A `snake_case` name in `camelCase`: `featured_media_id` is `featuredMediaId`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** A row's columns under their camelCase names, with the same types. */
export type CamelCased<Row> = { [K in keyof Row & string as CamelCase<K>]: Row[K] };

const camelNames = new Map<string, string>();
const camelName = (column: string): string => {
  let name = camelNames.get(column);
  if (name === undefined) camelNames.set(column, (name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())));
  return name;
};

/** The row with its columns renamed to camelCase, in the same order; the values as they are. */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) record[camelName(column)] = value;
  return record as CamelCased<Row>;
}
