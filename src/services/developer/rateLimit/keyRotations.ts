import type { Kysely } from 'kysely';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyRotations } from '../errors.js';
import { storeWindows } from './kyselyRateLimiter.js';

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

export function createKeyRotationLimit(db: Kysely<DeveloperDatabase>, limits: ReturnType<typeof rateLimits>, perDay: number): KeyRotationLimit {
  const rotations = limits.limit({
    name: 'rotate',
    per: 'account',
    points: perDay,
    windowSeconds: DAY_SECONDS,
    counter: storeWindows(db),
    refuse: tooManyRotations,
  });
  return {
    async admit(accountId) {
      await rotations.take(accountId);
    },
    async giveBack(accountId) {
      await rotations.giveBack(accountId);
    },
  };
}
