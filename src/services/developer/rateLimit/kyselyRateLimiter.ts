import type { Kysely } from 'kysely';
import { RateLimiterCompatibleAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { DeveloperDatabase } from '../store/tables.js';
import { LibraryWindows, type RateLimitBudget, type WindowCounter } from '../../../platform/security/rateLimit.js';

interface CounterRow {
  points: number;
  expire: string;
}

/**
 * A rate-limiter-flexible limiter whose counters live in the shared store
 * (`developer_login_attempts`), so every instance counts the same attempts
 * without Redis. It implements the package's exported interface for custom
 * limiters (`RateLimiterCompatibleAbstract`): its store base class is not
 * exported, and its own SQL limiters want a raw driver and a table of their
 * own. Fixed windows as the package counts them: a key's window starts at
 * its first point; each change is one atomic upsert, and a counter whose
 * window has ended starts again from the new points.
 */
export class KyselyRateLimiter extends RateLimiterCompatibleAbstract {
  override readonly keyPrefix: string;
  readonly points: number;
  /** Seconds a window lasts. */
  readonly duration: number;
  // Own fields over the base's throwing accessors; neither blocking nor spreading is supported (both stay off).
  override blockDuration = 0;
  override execEvenly = false;

  constructor(
    private readonly db: Kysely<DeveloperDatabase>,
    options: { keyPrefix: string; points: number; duration: number },
  ) {
    super();
    this.keyPrefix = options.keyPrefix;
    this.points = options.points;
    this.duration = options.duration;
  }

  /** Counts points against `key`; rejects with the result (as the package does) when the window's points are spent. */
  override async consume(key: string | number, points = 1): Promise<RateLimiterRes> {
    const result = this.result(points, await this.upsert(key, points, this.duration));
    if (result.consumedPoints > this.points) throw result;
    return result;
  }

  /** Adds points against `key` without refusing. */
  override async penalty(key: string | number, points = 1): Promise<RateLimiterRes> {
    return this.result(points, await this.upsert(key, points, this.duration));
  }

  /** Gives points back to `key` (a new window starts at zero, never below). */
  override async reward(key: string | number, points = 1): Promise<RateLimiterRes> {
    return this.result(-points, await this.upsert(key, -points, this.duration));
  }

  /** The key's count in its current window, or null when it has none. */
  override async get(key: string | number): Promise<RateLimiterRes | null> {
    const row = await this.db
      .selectFrom('developer_login_attempts')
      .select(['points', 'expire'])
      .where('key', '=', this.storeKey(key))
      .where('expire', '>', new Date().toISOString())
      .executeTakeFirst();
    return row ? this.result(0, row) : null;
  }

  /** Sets the key's count to `points` for a new window of `seconds` (the budget's window when negative). */
  override async set(key: string | number, points: number, seconds: number): Promise<RateLimiterRes> {
    const window = seconds >= 0 ? seconds : this.duration;
    await this.upsert(key, points, window, true);
    return new RateLimiterRes(0, window * 1000, points);
  }

  /** Refuses the key for `seconds`. */
  override block(key: string | number, seconds: number): Promise<RateLimiterRes> {
    return this.set(key, this.points + 1, seconds);
  }

  /** Forgets the key's count; true when it had one. */
  override async delete(key: string | number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('developer_login_attempts')
      .where('key', '=', this.storeKey(key))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The stored key, as the package's limiters write it (`prefix:key`). */
  private storeKey(key: string | number): string {
    return this.keyPrefix ? `${this.keyPrefix}:${key}` : String(key);
  }

  /** A stored counter as the package's result. */
  private result(changedPoints: number, row: CounterRow): RateLimiterRes {
    const consumed = Number(row.points);
    return new RateLimiterRes(
      Math.max(this.points - consumed, 0),
      Math.max(Date.parse(row.expire) - Date.now(), 0),
      consumed,
      consumed === changedPoints,
    );
  }

  /** Adds `points` to the key's count in one statement, or starts a new window (`restart`: always). */
  private upsert(key: string | number, points: number, seconds: number, restart = false): Promise<CounterRow> {
    const now = new Date();
    const expire = new Date(now.getTime() + seconds * 1000).toISOString();
    // A reward in a new window must not leave a negative count behind.
    const fresh = Math.max(points, 0);
    return this.db
      .insertInto('developer_login_attempts')
      .values({ key: this.storeKey(key), points: fresh, expire })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((eb) => {
          if (restart) return { points: fresh, expire };
          const ended = eb('developer_login_attempts.expire', '<=', now.toISOString());
          return {
            points: eb
              .case()
              .when(ended)
              .then(fresh)
              .else(eb('developer_login_attempts.points', '+', points))
              .end(),
            expire: eb.case().when(ended).then(expire).else(eb.ref('developer_login_attempts.expire')).end(),
          };
        }),
      )
      .returning(['points', 'expire'])
      .executeTakeFirstOrThrow();
  }
}

/** Forgets counters whose window ended (they would restart from zero anyway). */
export async function deleteEndedCounters(db: Kysely<DeveloperDatabase>): Promise<number> {
  const result = await db
    .deleteFrom('developer_login_attempts')
    .where('expire', '<=', new Date().toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Window counters in the shared store for the platform's limits
 * (`LimitDeclaration.counter`), so every instance counts the same attempts
 * without Redis. Every key is stored as `counterKey` of it (an HMAC under
 * `COUNTER_KEY_SECRET`), so the table holds no email or IP address in clear,
 * nor a bare hash anyone could test a guess against. The one place store
 * counter keys are hashed.
 */
export const storeCounter =
  (db: Kysely<DeveloperDatabase>, counterKey: (key: string) => string) =>
  (budget: RateLimitBudget): WindowCounter => {
    const windows = new LibraryWindows(new KyselyRateLimiter(db, budget), budget.points);
    return {
      points: budget.points,
      count: (key) => windows.count(counterKey(key)),
      giveBack: (key) => windows.giveBack(counterKey(key)),
      forget: (key) => windows.forget(counterKey(key)),
    };
  };
