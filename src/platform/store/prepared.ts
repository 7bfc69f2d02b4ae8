import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Stands for a named value while a prepared query is built; replaced by the caller's value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

/** A query built and compiled once per dialect, run with new values each time, on a store of the tables it was built for. */
export interface PreparedQuery<DB, Params, Row> {
  /** Every row. */
  execute(db: Kysely<DB>, params: Params): Promise<Row[]>;
  /** The first row, or undefined. */
  executeTakeFirst(db: Kysely<DB>, params: Params): Promise<Row | undefined>;
  /** Rows an insert, update or delete changed. */
  executeChanges(db: Kysely<DB>, params: Params): Promise<number>;
  /** The SQL and values it would run (tests). */
  compile(db: Kysely<DB>, params: Params): CompiledQuery<Row>;
}

/**
 * The SQL of every prepared query, by its text, with the name PostgreSQL
 * knows it by on each connection (see `preparedStatementName`).
 */
const statementNames = new Map<string, string>();

/**
 * The name of a prepared query's SQL as a PostgreSQL named statement, or
 * undefined for SQL no prepared query compiled to. The store's connections
 * send these by name (`database.ts`): PostgreSQL parses and plans each once
 * per connection instead of on every run.
 */
export function preparedStatementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

interface Template {
  compiled: CompiledQuery;
  /** Each parameter of the compiled SQL: a caller's value by name, or a constant of the query. */
  slots: (Slot | { value: unknown })[];
}

/**
 * A Kysely query whose SQL is built and compiled once per dialect, not on
 * every call: Kysely builds an immutable tree of its operation nodes and
 * walks it to SQL on every execution, which costs more than SQLite takes to
 * run a short indexed query (docs/performance.md). `build` receives a
 * `params` object whose every property is a placeholder; each use of one as
 * a value is a parameter of the SQL, filled with the caller's value on each
 * run. The query's shape must not depend on the values (no `in` lists of
 * varying length, no conditional clauses: those stay built per call).
 *
 *     const postById = prepared((db: Kysely<Tables>, p: { id: number }) =>
 *       db.selectFrom('posts').selectAll().where('id', '=', p.id));
 *     const post = await postById.executeTakeFirst(trx, { id: 7 });
 */
export function prepared<DB, Params extends object, Row>(
  build: (db: Kysely<DB>, params: Params) => Compilable<Row>,
): PreparedQuery<DB, Params, Row> {
  // By dialect adapter: the same query compiles to other SQL on SQLite and PostgreSQL. A transaction shares its database's adapter.
  const templates = new WeakMap<object, Template>();
  const placeholders = new Proxy({} as Params, {
    get: (_target, name) => (typeof name === 'string' ? new Slot(name) : undefined),
  });

  function compileFor(adapter: object, db: Kysely<DB>, params: Params): CompiledQuery<Row> {
    let template = templates.get(adapter);
    if (!template) {
      const compiled = build(db, placeholders).compile();
      template = { compiled, slots: compiled.parameters.map((value) => (value instanceof Slot ? value : { value })) };
      templates.set(adapter, template);
      if (!statementNames.has(compiled.sql)) statementNames.set(compiled.sql, `prepared_${statementNames.size + 1}`);
    }
    const values = params as Record<string, unknown>;
    const parameters = template.slots.map((slot) => (slot instanceof Slot ? values[slot.name] : slot.value));
    return { ...template.compiled, parameters } as CompiledQuery<Row>;
  }

  function run(db: Kysely<DB>, params: Params): Promise<QueryResult<Row>> {
    return db.executeQuery(compileFor(db.getExecutor().adapter, db, params));
  }

  return {
    compile: (db, params) => compileFor(db.getExecutor().adapter, db, params),
    async execute(db, params) {
      return (await run(db, params)).rows;
    },
    async executeTakeFirst(db, params) {
      return (await run(db, params)).rows[0];
    },
    async executeChanges(db, params) {
      return Number((await run(db, params)).numAffectedRows ?? 0);
    },
  };
}

/** The sizes an `in` list is padded to, so each query is built and compiled once per size (`prepared`), not per call. */
const IN_SIZES = [4, 20, 100] as const;

/** Named values of a prepared query with an `in` list: `id0`, `id1`, ... and the query's others. */
export type InParams = Record<string, number | string>;

/** The `in` list of a prepared query: `size` placeholders. */
const inList = <V>(p: InParams, size: number): V[] => Array.from({ length: size }, (_, i) => p[`id${i}`] as V);

/**
 * A query with an `in` list (of IDs, or of names), prepared once per size of
 * `IN_SIZES`: the values are padded to the next size with the first of them
 * (a repeat in an `in` list changes nothing), and more values than the
 * largest size run in several statements, their rows one after the other.
 * `build` gets the list's placeholders and those of the query's other
 * values (`p`).
 */
export function preparedIn<DB, Row, V extends number | string = number>(
  build: (db: Kysely<DB>, list: V[], p: InParams) => Compilable<Row>,
) {
  const bySize = new Map<number, PreparedQuery<DB, InParams, Row>>(
    IN_SIZES.map((size) => [size, prepared<DB, InParams, Row>((db, p) => build(db, inList<V>(p, size), p))]),
  );
  const largest = IN_SIZES[IN_SIZES.length - 1]!;
  return async (db: Kysely<DB>, values: readonly V[], others: InParams = {}): Promise<Row[]> => {
    if (!values.length) return [];
    const rows: Row[] = [];
    for (let start = 0; start < values.length; start += largest) {
      const chunk = values.slice(start, start + largest);
      const size = IN_SIZES.find((one) => one >= chunk.length)!;
      const params: InParams = { ...others };
      for (let i = 0; i < size; i++) params[`id${i}`] = chunk[i] ?? chunk[0]!;
      rows.push(...(await bySize.get(size)!.execute(db, params)));
    }
    return rows;
  };
}
