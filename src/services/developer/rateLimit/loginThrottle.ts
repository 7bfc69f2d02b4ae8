import type { Kysely } from 'kysely';
import { rateLimitClient } from '../../../platform/security/clientAddress.js';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { LoginThrottle } from '../domain/limits.js';
import type { DeveloperSettings } from '../settings.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyAttempts } from '../errors.js';
import { deleteEndedCounters, storeCounter } from './kyselyRateLimiter.js';

/** One email address (any letter case) from one client address (an IPv6 address by its /64). */
const pairKey = (email: string, ip: string) => `${normalizeEmail(email)}\n${rateLimitClient(ip)}`;

/**
 * The login throttle with the configured budgets, counting in the shared store. `counterKey` hashes each key
 * (an HMAC under the server's secret, in `storeCounter`), so the table holds no email or IP address in clear,
 * nor one to guess.
 */
export function createLoginThrottle(
  db: Kysely<DeveloperDatabase>,
  limits: ReturnType<typeof rateLimits>,
  budgets: DeveloperSettings['loginAttempts'],
  counterKey: (key: string) => string,
): LoginThrottle {
  const counter = storeCounter(db, counterKey);
  const { windowSeconds } = budgets;
  const declared = {
    name: 'client',
    per: 'address',
    points: budgets.perClient,
    windowSeconds,
    counter,
    refuse: tooManyAttempts,
  } as const;
  const perClient = limits.limit(declared);
  const perLogIn = limits.limit({
    name: 'login',
    per: 'email and address',
    points: budgets.perEmailAndClient,
    windowSeconds,
    counter,
    refuse: tooManyAttempts,
  });
  return {
    attempts: limits.step(declared),
    async admitLogIn(email, ip) {
      await perLogIn.take(pairKey(email, ip));
    },
    async succeeded(ip, email) {
      await perLogIn.forget(pairKey(email, ip));
    },
    async turnedAway(ip, email) {
      await perClient.giveBack(rateLimitClient(ip));
      if (email !== undefined) await perLogIn.giveBack(pairKey(email, ip));
    },
    forgetEnded: () => deleteEndedCounters(db),
  };
}

export type { LoginThrottle };
