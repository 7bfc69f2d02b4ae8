import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';

/**
 * How SQLite waits for a write lock held by another connection (another
 * process on the same file): better-sqlite3 runs every statement
 * synchronously, so SQLite's own busy wait (`busy_timeout`) blocks the whole
 * event loop for as long as it lasts. It is kept to a few milliseconds
 * (`SQLITE_BUSY_TIMEOUT_MS`); beyond it the statement is tried again after
 * an asynchronous pause, with the connection free for other requests in
 * between, until `busyWaitMs` (`STORE_BUSY_WAIT_MS`) have passed. Then the
 * `SQLITE_BUSY` error goes up and the request is answered 503 with
 * `Retry-After` (see `isStoreUnavailable`).
 */
export interface SqliteBusyPolicy {
  busyWaitMs: number;
  /** Told of each query that fails when run at once (see `runNow`); the ordinary way reports through Kysely's log. */
  onQueryError?: (error: unknown) => void;
}

/**
 * Runs a compiled query on the SQLite connection at once, synchronously,
 * when nothing else can be using the connection: for a transaction's own
 * query (`fromTransaction`), while that transaction holds it; for any other
 * query, while nobody holds it. Undefined when the query has to go the
 * ordinary way (Kysely's driver: the connection waited for, a busy database
 * waited out). better-sqlite3 runs every statement synchronously anyway;
 * what this saves is the asynchronous lending of the connection around it
 * (about ten promise steps: 2 to 2.5 µs a query in a loop of store reads).
 */
export type ImmediateRunner = <R>(query: CompiledQuery, fromTransaction: boolean) => QueryResult<R> | undefined;

/** The runner of each SQLite database, by its Kysely adapter (one per database, shared by its transactions). */
const immediateRunners = new WeakMap<object, ImmediateRunner>();

/** The immediate runner of the database whose Kysely adapter this is; undefined for PostgreSQL. */
export function immediateRunnerOf(adapter: object): ImmediateRunner | undefined {
  return immediateRunners.get(adapter);
}

/** First and longest pause between attempts. */
const FIRST_PAUSE_MS = 5;
const LONGEST_PAUSE_MS = 100;

const isBusy = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Kysely's SQLite dialect with two changes: every transaction starts with
 * `BEGIN IMMEDIATE` (it takes the write lock at once, so a transaction never
 * fails half-way because another connection wrote first), and a busy
 * database is waited for asynchronously (see `SqliteBusyPolicy`).
 */
export class BusyTolerantSqliteDialect extends SqliteDialect {
  #driver: BusyTolerantSqliteDriver | undefined;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly policy: SqliteBusyPolicy,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return (this.#driver = new BusyTolerantSqliteDriver(this.database, this.policy));
  }

  /** Kysely asks for the adapter after the driver: the adapter is the key to the driver's immediate runner. */
  override createAdapter() {
    const adapter = super.createAdapter();
    const driver = this.#driver;
    if (driver) immediateRunners.set(adapter, (query, fromTransaction) => driver.runNow(query, fromTransaction));
    return adapter;
  }
}

/** SQLite's one connection, lent to one query or transaction at a time. */
class BusyTolerantSqliteDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #connection: BusyTolerantConnection;

  constructor(
    private readonly database: SqliteDatabase,
    policy: SqliteBusyPolicy,
  ) {
    this.#connection = new BusyTolerantConnection(database, this.#mutex, policy);
  }

  async init(): Promise<void> {}

  /** See `ImmediateRunner`. */
  runNow<R>(query: CompiledQuery, fromTransaction: boolean): QueryResult<R> | undefined {
    if (fromTransaction ? !this.#connection.inTransaction : this.#mutex.held) return undefined;
    return this.#connection.runNow<R>(query, fromTransaction);
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    await this.#connection.begin();
  }

  async commitTransaction(): Promise<void> {
    await this.#connection.end('commit');
  }

  async rollbackTransaction(): Promise<void> {
    await this.#connection.end('rollback');
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.database.close();
  }
}

class BusyTolerantConnection implements DatabaseConnection {
  #inTransaction = false;

  constructor(
    private readonly database: SqliteDatabase,
    private readonly mutex: Mutex,
    private readonly policy: SqliteBusyPolicy,
  ) {}

  /** Whether a transaction holds the connection (between `begin` and `end`). */
  get inTransaction(): boolean {
    return this.#inTransaction;
  }

  /** Runs `query` now (the caller has checked nobody else is using the connection); undefined when the database is busy outside a transaction. */
  runNow<R>(query: CompiledQuery, fromTransaction: boolean): QueryResult<R> | undefined {
    try {
      return this.run<R>(query);
    } catch (error) {
      // Outside a transaction the ordinary way waits for another connection's write lock; inside one there is nothing to wait for.
      if (!fromTransaction && isBusy(error)) return undefined;
      this.policy.onQueryError?.(error);
      throw error;
    }
  }

  /** `BEGIN IMMEDIATE`, waiting (asynchronously, bounded) for another connection's write lock. */
  async begin(): Promise<void> {
    await this.whenNotBusy(() => this.run(CompiledQuery.raw('begin immediate')));
    this.#inTransaction = true;
  }

  async end(command: 'commit' | 'rollback'): Promise<void> {
    try {
      this.run(CompiledQuery.raw(command));
    } finally {
      this.#inTransaction = false;
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Inside a transaction the write lock is already held (BEGIN IMMEDIATE): no wait, and no
    // other query may use the connection in between.
    if (this.#inTransaction) return this.run<R>(query);
    return this.whenNotBusy(() => this.run<R>(query));
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite');
  }

  private run<R>(query: CompiledQuery): QueryResult<R> {
    const statement = this.database.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Runs `attempt`; while SQLite says it is busy, tries again after a pause
   * with the connection released (other requests of this process go on),
   * until the policy's bound, then lets the busy error go up.
   */
  private async whenNotBusy<T>(attempt: () => T): Promise<T> {
    const deadline = performance.now() + this.policy.busyWaitMs;
    for (let wait = FIRST_PAUSE_MS; ; wait = Math.min(wait * 2, LONGEST_PAUSE_MS)) {
      try {
        return attempt();
      } catch (error) {
        const left = deadline - performance.now();
        if (!isBusy(error) || left <= 0) throw error;
        this.mutex.unlock();
        try {
          await pause(Math.min(wait, left));
        } finally {
          await this.mutex.lock();
        }
      }
    }
  }
}

/** A lock on the one connection, waited for without blocking. */
class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  /** Whether someone holds the lock. */
  get held(): boolean {
    return this.#held !== undefined;
  }

  async lock(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = this.#release = undefined;
    release?.();
  }
}
