import { createRequire } from 'node:module';
import type { Kysely } from 'kysely';
import { RateLimiterRes, type RateLimiterStoreAbstract as StoreAbstractType } from 'rate-limiter-flexible';
import type { DeveloperDatabase } from '../store/tables.js';

// The library declares its store base class in its types but does not export it from its entry point.
const require = createRequire(import.meta.url);
const RateLimiterStoreAbstract = require('rate-limiter-flexible/lib/RateLimiterStoreAbstract.js') as typeof StoreAbstractType;

interface CounterRow {
  points: number;
  expire: string;
}

/**
 * A rate-limiter-flexible limiter whose counters live in the shared store
 * (`developer_login_attempts`), so every instance counts the same attempts
 * without Redis. Each change is one atomic upsert: a counter whose window
 * has ended starts again from the new points.
 */
export class KyselyRateLimiter extends RateLimiterStoreAbstract {
  constructor(
    private readonly db: Kysely<DeveloperDatabase>,
    options: { keyPrefix: string; points: number; duration: number },
  ) {
    super({ ...options, storeClient: db });
  }

  /** Turns a stored counter into the library's result. */
  _getRateLimiterRes(_key: string, changedPoints: number, row: CounterRow): RateLimiterRes {
    const consumed = Number(row.points);
    return new RateLimiterRes(
      Math.max(this.points - consumed, 0),
      Math.max(Date.parse(row.expire) - Date.now(), 0),
      consumed,
      consumed === changedPoints,
    );
  }

  async _upsert(key: string, points: number, msDuration: number, forceExpire = false): Promise<CounterRow> {
    const now = new Date();
    const expire = new Date(now.getTime() + msDuration).toISOString();
    // A reward in a new window must not leave a negative count behind.
    const fresh = Math.max(points, 0);
    const row = await this.db
      .insertInto('developer_login_attempts')
      .values({ key, points: fresh, expire })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet((eb) => {
          if (forceExpire) return { points: fresh, expire };
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
    return row;
  }

  async _get(key: string): Promise<CounterRow | null> {
    const row = await this.db
      .selectFrom('developer_login_attempts')
      .select(['points', 'expire'])
      .where('key', '=', key)
      .where('expire', '>', new Date().toISOString())
      .executeTakeFirst();
    return row ?? null;
  }

  async _delete(key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('developer_login_attempts').where('key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Forgets counters whose window ended (they would restart from zero anyway). */
export async function deleteEndedCounters(db: Kysely<DeveloperDatabase>): Promise<number> {
  const result = await db.deleteFrom('developer_login_attempts').where('expire', '<=', new Date().toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
