import type { Kysely } from 'kysely';
import { rateLimitClient } from '../../../platform/security/clientAddress.js';
import type { LimitStep, rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperSettings } from '../settings.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyAttempts } from '../errors.js';
import { deleteEndedCounters, storeWindows } from './kyselyRateLimiter.js';

/**
 * Counts log-in and sign-up attempts: "login attempts rate limited", per
 * client address (every attempt that reaches a password hash, sign-ups and
 * successful log-ins included: one address cannot keep the hashing busy for
 * everyone), and per email address and client address together (a tight
 * budget of failures: a success forgets them). The pair, not the
 * email address alone, so that whoever fails from one address never locks
 * the account's owner out when they log in from another. An attempt the
 * password gate turns away (503, too many hashes at once) gives both points
 * back: it is nobody's attempt.
 */
export interface LoginThrottle {
  /** The admit step counting each attempt against its client address; 429 when the address's budget for the window is spent. */
  attempts: LimitStep<unknown>;
  /** Counts a log-in attempt for an email address from a client address; throws 429 when the pair's budget for the window is spent. */
  admitLogIn(email: string, ip: string): Promise<void>;
  /** A log-in succeeded: the pair's failures are forgotten (the address's attempts stay counted). */
  succeeded(ip: string, email: string): Promise<void>;
  /** The password gate refused the attempt: the address's point back, and the pair's when `email` was counted. */
  turnedAway(ip: string, email?: string): Promise<void>;
  /** Forgets counts whose window has ended; answers how many. */
  forgetEnded(): Promise<number>;
}

/** One email address (any letter case) from one client address (an IPv6 address by its /64). */
const pairKey = (email: string, ip: string) => `${normalizeEmail(email)}\n${rateLimitClient(ip)}`;

/**
 * The login throttle with the configured budgets, counting in the shared store. `counterKey` hashes each key
 * (an HMAC under the server's secret, in `storeWindows`), so the table holds no email or IP address in clear,
 * nor one to guess.
 */
export function createLoginThrottle(
  db: Kysely<DeveloperDatabase>,
  limits: ReturnType<typeof rateLimits>,
  budgets: DeveloperSettings['loginAttempts'],
  counterKey: (key: string) => string,
): LoginThrottle {
  const counter = storeWindows(db, counterKey);
  const { windowSeconds } = budgets;
  const declared = { name: 'client', per: 'address', points: budgets.perClient, windowSeconds, counter, refuse: tooManyAttempts } as const;
  const perClient = limits.limit(declared);
  const perLogIn = limits.limit({ name: 'login', per: 'email and address', points: budgets.perEmailAndClient, windowSeconds, counter, refuse: tooManyAttempts });
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

