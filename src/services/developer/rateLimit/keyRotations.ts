import type { Kysely } from 'kysely';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyRotations } from '../errors.js';
import { KyselyRateLimiter } from './kyselyRateLimiter.js';
import { canonicalInbox } from '../../../accounts/email.js';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Counts an account's key rotations, at most `perDay` in 24 hours
 * (`DEVELOPER_KEY_ROTATIONS_PER_DAY`), per account and per inbox its address
 * reaches (`canonicalInbox`: `carol+k1@` and `c.a.r.o.l@` count as one), in
 * the shared store so every instance counts the same rotations.
 */
export interface KeyRotationLimit {
  /** Counts a rotation; throws 429 with `Retry-After` when the account's or the inbox's budget is spent. */
  admit(accountId: string, email: string): Promise<void>;
  /** Gives a counted rotation back (it did not happen: no such application). */
  giveBack(accountId: string, email: string): Promise<void>;
}

export function createKeyRotationLimit(db: Kysely<DeveloperDatabase>, perDay: number, counterKey: (key: string) => string): KeyRotationLimit {
  const limiter = new KyselyRateLimiter(db, { keyPrefix: 'rotate', points: perDay, duration: DAY_SECONDS });
  // The inbox is kept hashed (an HMAC under the server's secret), like every other counter key that is an address.
  const inboxKey = (email: string) => `inbox:${counterKey(canonicalInbox(email))}`;
  const take = async (key: string) => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      // The library rejects with its result when the budget is spent, and with an Error when the store fails.
      if (rejection instanceof RateLimiterRes) throw tooManyRotations(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw rejection;
    }
  };
  return {
    async admit(accountId, email) {
      await take(accountId);
      try {
        await take(inboxKey(email));
      } catch (error) {
        await limiter.reward(accountId);
        throw error;
      }
    },
    async giveBack(accountId, email) {
      await limiter.reward(accountId);
      await limiter.reward(inboxKey(email));
    },
  };
}
