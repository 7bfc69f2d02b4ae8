/**
 * A store's records from its rows: tables name their columns in
 * `snake_case`, the records a service's `domain/` declares in `camelCase`.
 * `camelCased` renames a row's columns at run time (its type, `CamelCased`,
 * is the row under camelCase names), and the store converts the rest (a 0/1
 * as a boolean, JSON text parsed) where it makes a record of the row; the
 * type check holds the result to the record's type.
 */

/** A `snake_case` name in `camelCase`: `featured_media_id` is `featuredMediaId`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** A row's columns under their camelCase names, with the same types. */
export type CamelCased<Row> = { [K in keyof Row & string as CamelCase<K>]: Row[K] };

const camelNames = new Map<string, string>();
const camelName = (column: string): string => {
  let name = camelNames.get(column);
  if (name === undefined)
    camelNames.set(column, (name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())));
  return name;
};

/** A row's renaming, compiled once per set of columns (in their order). */
const renamings = new Map<string, (row: object) => Record<string, unknown>>();

/** Most column sets whose renaming is kept (a store has a few dozen queries). */
const MAX_RENAMINGS = 512;

function compileRenaming(columns: readonly string[]): (row: object) => Record<string, unknown> {
  // An object literal of known keys: built in one step with a fixed shape, far cheaper than adding
  // the keys one by one (docs/performance.md). Names are quoted as JSON strings; no
  // camelCase name is `__proto__` (a literal of it would set the prototype), as `_p` always becomes `P`.
  const fields = columns.map((column) => `${JSON.stringify(camelName(column))}: row[${JSON.stringify(column)}]`);
  return new Function('row', `return { ${fields.join(', ')} };`) as (row: object) => Record<string, unknown>;
}

/** The row with its columns renamed to camelCase, in the same order; the values as they are. */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  const columns = Object.keys(row);
  // NUL never appears in an SQL identifier, so no two column lists share a signature.
  const signature = columns.join('\u0000');
  let rename = renamings.get(signature);
  if (!rename) {
    if (renamings.size >= MAX_RENAMINGS) renamings.clear();
    rename = compileRenaming(columns);
    renamings.set(signature, rename);
  }
  return rename(row) as CamelCased<Row>;
}
