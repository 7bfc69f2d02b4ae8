import type { Kysely } from 'kysely';
import { countPoint, retryAfterSeconds } from '../../../platform/security/rateLimit.js';
import { rateLimitClient } from '../../../platform/security/clientAddress.js';
import type { DeveloperSettings } from '../settings.js';
import { normalizeEmail } from '../../../accounts/email.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyAttempts } from '../errors.js';
import { deleteEndedCounters, KyselyRateLimiter } from './kyselyRateLimiter.js';

/**
 * Counts log-in and sign-up attempts: "login attempts rate limited", per
 * email address and client address together (a tight budget), and per
 * client address (a looser one, across addresses, sign-ups included). The
 * pair, not the email address alone, so that whoever fails from one address
 * never locks the account's owner out when they log in from another. Each
 * attempt is counted before the password is even looked at; a success gives
 * the client's attempt back and clears the pair's count, so only failures
 * add up.
 */
export interface LoginThrottle {
  /** Counts an attempt from a client address; throws 429 when its budget for the window is spent. */
  admitClient(ip: string): Promise<void>;
  /** Counts a log-in attempt for an email address from a client address; throws 429 when the pair's budget for the window is spent. */
  admitLogIn(email: string, ip: string): Promise<void>;
  /** A log-in succeeded. */
  succeeded(ip: string, email: string): Promise<void>;
  /** Forgets counts whose window has ended; answers how many. */
  forgetEnded(): Promise<number>;
}

/** One email address (any letter case) from one client address (an IPv6 address by its /64). */
const pairKey = (email: string, ip: string) => `${normalizeEmail(email)}\n${rateLimitClient(ip)}`;

/**
 * The login throttle with the configured budgets, counting in the shared store. `counterKey` hashes each key
 * (an HMAC under the server's secret), so the table holds no email or IP address in clear, nor one to guess.
 */
export function createLoginThrottle(
  db: Kysely<DeveloperDatabase>,
  limits: DeveloperSettings['loginAttempts'],
  counterKey: (key: string) => string,
): LoginThrottle {
  const byLogIn = new KyselyRateLimiter(db, { keyPrefix: 'login', points: limits.perEmailAndClient, duration: limits.windowSeconds });
  const byClient = new KyselyRateLimiter(db, { keyPrefix: 'client', points: limits.perClient, duration: limits.windowSeconds });
  const take = async (limiter: KyselyRateLimiter, key: string) => {
    const counted = await countPoint(limiter, counterKey(key));
    if (!counted.allowed) throw tooManyAttempts(retryAfterSeconds(counted));
  };
  return {
    admitClient: (ip) => take(byClient, rateLimitClient(ip)),
    admitLogIn: (email, ip) => take(byLogIn, pairKey(email, ip)),
    async succeeded(ip, email) {
      await byClient.reward(counterKey(rateLimitClient(ip)));
      await byLogIn.delete(counterKey(pairKey(email, ip)));
    },
    forgetEnded: () => deleteEndedCounters(db),
  };
}
