import type { Kysely } from 'kysely';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyRotations } from '../errors.js';
import { KyselyRateLimiter } from './kyselyRateLimiter.js';

const DAY_SECONDS = 24 * 60 * 60;

/**
 * Counts an account's key rotations, at most `perDay` in 24 hours
 * (`DEVELOPER_KEY_ROTATIONS_PER_DAY`), in the shared store so every
 * instance counts the same rotations.
 */
export interface KeyRotationLimit {
  /** Counts a rotation; throws 429 with `Retry-After` when the account's budget is spent. */
  admit(accountId: string): Promise<void>;
  /** Gives a counted rotation back (it did not happen: no such application). */
  giveBack(accountId: string): Promise<void>;
}

export function createKeyRotationLimit(db: Kysely<DeveloperDatabase>, perDay: number): KeyRotationLimit {
  const limiter = new KyselyRateLimiter(db, { keyPrefix: 'rotate', points: perDay, duration: DAY_SECONDS });
  return {
    async admit(accountId) {
      try {
        await limiter.consume(accountId);
      } catch (rejection) {
        // The library rejects with its result when the budget is spent, and with an Error when the store fails.
        if (rejection instanceof RateLimiterRes) throw tooManyRotations(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        throw rejection;
      }
    },
    async giveBack(accountId) {
      await limiter.reward(accountId);
    },
  };
}
