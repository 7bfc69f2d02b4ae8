import type { Kysely } from 'kysely';
import type { rateLimits } from '../../../platform/security/limits.js';
import type { DeveloperDatabase } from '../store/tables.js';
import type { MailLimit } from '../domain/limits.js';
import { tooManyEmails } from '../errors.js';
import { storeCounter } from './kyselyRateLimiter.js';

const HOUR_SECONDS = 60 * 60;

/**
 * A limit on emails named `name` (`mail`: per account, per recipient, per recipient and client address;
 * `resets`: reset links per recipient, whoever asks). Keys are stored as HMACs (`storeCounter`): no address in clear.
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
    counter: storeCounter(db, counterKey),
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

export type { MailLimit };
