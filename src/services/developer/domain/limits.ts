import type { LimitStep } from '../../../platform/security/limits.js';

/*
 * The counts the flows take, as interfaces: `rateLimit/` implements them in
 * the shared store (as `store/` implements the store's interface).
 */

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

/**
 * Counts the emails asked for per account or address (`perHour` in an hour),
 * in the shared store, so nobody can flood an inbox through the dashboard.
 */
export interface MailLimit {
  /** Counts one email for the key; throws 429 with `Retry-After` when its budget is spent. */
  take(key: string): Promise<void>;
  /** Counts one email for the key, refusing nothing: false when its budget is spent (the caller must not learn of it). */
  allows(key: string): Promise<boolean>;
}

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
