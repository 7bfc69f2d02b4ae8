import type { Kysely } from 'kysely';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperDatabase } from '../store/tables.js';
import { tooManyEmails } from '../errors.js';
import { storeWindows } from './kyselyRateLimiter.js';

const HOUR_SECONDS = 60 * 60;

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
 * A limit on emails named `name` (`mail`: per account, per recipient, per recipient and client address;
 * `resets`: reset links per recipient, whoever asks). Keys are stored as HMACs (`storeWindows`): no address in clear.
 */
export function createMailLimit(
  db: Kysely<DeveloperDatabase>,
  limits: ReturnType<typeof rateLimits>,
  budget: { name: string; perHour: number },
  counterKey: (key: string) => string,
): MailLimit {
  const mails = limits.limit({
    name: budget.name,
    per: 'recipient',
    points: budget.perHour,
    windowSeconds: HOUR_SECONDS,
    counter: storeWindows(db, counterKey),
    refuse: tooManyEmails,
  });
  return {
    async take(key) {
      await mails.take(key);
    },
    async allows(key) {
      return (await mails.count(key)).allowed;
    },
  };
}
