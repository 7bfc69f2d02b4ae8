import type { Kysely } from 'kysely';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperDatabase } from '../store/tables.js';
import type { KeyRotationLimit } from '../domain/limits.js';
import { tooManyRotations } from '../errors.js';
import { storeCounter } from './kyselyRateLimiter.js';
import { canonicalInbox } from '../../../accounts/email.js';

const DAY_SECONDS = 24 * 60 * 60;

export function createKeyRotationLimit(
  db: Kysely<DeveloperDatabase>,
  limits: ReturnType<typeof rateLimits>,
  perDay: number,
  counterKey: (key: string) => string,
): KeyRotationLimit {
  // Kept under an HMAC of the key (`storeCounter`), like every other counter key: no inbox in clear.
  const counter = storeCounter(db, counterKey);
  const rotations = limits.limit({
    name: 'rotate',
    per: 'account',
    points: perDay,
    windowSeconds: DAY_SECONDS,
    counter,
    refuse: tooManyRotations,
  });
  const byInbox = limits.limit({
    name: 'rotate-inbox',
    per: 'inbox',
    points: perDay,
    windowSeconds: DAY_SECONDS,
    counter,
    refuse: tooManyRotations,
  });
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

export type { KeyRotationLimit };
