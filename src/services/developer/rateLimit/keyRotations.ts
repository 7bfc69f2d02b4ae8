import type { Kysely } from 'kysely';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyRotations } from '../errors.js';
import { storeWindows } from './kyselyRateLimiter.js';
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

export function createKeyRotationLimit(
  db: Kysely<DeveloperDatabase>,
  limits: ReturnType<typeof rateLimits>,
  perDay: number,
  counterKey: (key: string) => string,
): KeyRotationLimit {
  // Kept under an HMAC of the key (`storeWindows`), like every other counter key: no inbox in clear.
  const counter = storeWindows(db, counterKey);
  const rotations = limits.limit({ name: 'rotate', per: 'account', points: perDay, windowSeconds: DAY_SECONDS, counter, refuse: tooManyRotations });
  const byInbox = limits.limit({ name: 'rotate-inbox', per: 'inbox', points: perDay, windowSeconds: DAY_SECONDS, counter, refuse: tooManyRotations });
  return {
    async admit(accountId, email) {
      await rotations.take(accountId);
      try {
        await byInbox.take(canonicalInbox(email));
      } catch (error) {
        // Refused by the inbox's budget: the rotation did not happen, so the account's point goes back.
        await rotations.giveBack(accountId);
        throw error;
      }
    },
    async giveBack(accountId, email) {
      await rotations.giveBack(accountId);
      await byInbox.giveBack(canonicalInbox(email));
    },
  };
}
