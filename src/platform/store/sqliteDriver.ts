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
  constructor(
    private readonly database: SqliteDatabase,
    private readonly policy: SqliteBusyPolicy,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new BusyTolerantSqliteDriver(this.database, this.policy);
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

  // biome-ignore lint/correctness/useYield: Kysely's Driver asks for a stream; SQLite queries never use one, so it throws at once
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

  async lock(): Promise<void> {
    while (this.#held !== undefined) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  unlock(): void {
    const release = this.#release;
    this.#held = this.#release = undefined;
    release?.();
  }
}
