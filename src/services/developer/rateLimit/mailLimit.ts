import type { Kysely } from 'kysely';
import { countPoint, retryAfterSeconds } from '../../../platform/security/rateLimit.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { KyselyRateLimiter } from './kyselyRateLimiter.js';

const HOUR_SECONDS = 60 * 60;

/**
 * Counts the emails asked for per account or address (`perHour` in an hour),
 * in the shared store, so nobody can flood an inbox through the dashboard.
 */
export interface MailLimit {
  /** Counts one email for the key; answers the seconds to wait when its budget is spent, else 0. */
  take(key: string): Promise<number>;
}

export function createMailLimit(db: Kysely<DeveloperDatabase>, perHour: number, counterKey: (key: string) => string): MailLimit {
  const limiter = new KyselyRateLimiter(db, { keyPrefix: 'mail', points: perHour, duration: HOUR_SECONDS });
  return {
    async take(key) {
      // Keys are hashed like the log-in counters' (an HMAC under the server's secret): no address in clear.
      const counted = await countPoint(limiter, counterKey(key));
      return counted.allowed ? 0 : retryAfterSeconds(counted);
    },
  };
}
