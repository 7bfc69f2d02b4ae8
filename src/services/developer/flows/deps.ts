import type { Logger } from 'pino';
import type { Mailer } from '../domain/mail.js';
import type { DeveloperStore } from '../domain/developerStore.js';
import type { KeyRotationLimit, LoginThrottle, MailLimit } from '../domain/limits.js';
import type { OAuthConsents } from '../domain/oauthConsents.js';

/** Password hashes and checks, each through the gate that bounds how many run at once. */
export interface Passwords {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /**
   * A hash an unknown address is checked against, so it takes as long to refuse as a wrong password. It is
   * made once per process and cost, when the first unknown address needs it (not at every start: most
   * processes and test servers never check an unknown address); that first refusal takes one hash longer,
   * never less, than a known address's.
   */
  decoy(): Promise<string>;
}

/**
 * What the dashboard's flows work with. The module builds one object that
 * has it (`developerDeps` in module.ts) and hands it to the handlers, which
 * hand it to each flow; a flow names the part it reads (`Pick<FlowDeps, …>`).
 */
export interface FlowDeps {
  store: DeveloperStore;
  /** The authorization server's pending requests, which the consent page shows and answers. */
  consents: OAuthConsents;
  throttle: LoginThrottle;
  /** Counts each account's key rotations (at most `DEVELOPER_KEY_ROTATIONS_PER_DAY`). */
  rotations: KeyRotationLimit;
  /** Counts the emails asked for per account and per address (and reset links per address and client address together). */
  mailLimit: MailLimit;
  /** Counts the reset links mailed to one address, whoever asks: a bound per inbox wider than the one per asker. */
  resetLimit: MailLimit;
  /** Email out (verification, password-reset and new-address links, and the notice of a changed address). */
  mailer: Mailer;
  logger: Logger;
  /** Every password hash and check (`DEVELOPER_PASSWORD_COST`, through the gate of `DEVELOPER_PASSWORD_HASHES`). */
  passwords: Passwords;
  /** Base of the links in emails (`PUBLIC_URL`). */
  publicUrl: string;
  sessionTtlSeconds: number;
  /** A session not used for this long is idle: refused, and pruned at the next log-in. */
  sessionIdleSeconds: number;
  /** Most applications an account may have (`DEVELOPER_MAX_APPLICATIONS`). */
  maxApplications: number;
  /** Makes what a person gets with their account (a publishing site of their own), at each log-in; safe to repeat. */
  welcome(account: { id: string; email: string }): Promise<void>;
  /** Ends what the services keep for an account about to be deleted (its publishing user's tokens). */
  farewell(accountId: string): Promise<void>;
}
