import type { DeveloperApplications } from '../../../accounts/applications.js';

/**
 * The developer dashboard's store: dashboard accounts (over the shared
 * `accounts` table), sessions, and an account's applications and keys
 * (over the profiles service's `api_applications` and `api_keys`, so a key
 * issued here is the key the Profiles API looks up). Implementation:
 * `kyselyDeveloperStore.ts` (SQLite and PostgreSQL).
 */
export interface DeveloperStore extends DeveloperAccounts, DeveloperSessions, DeveloperApplications {}

export interface DeveloperAccounts {
  /**
   * Creates an account that can log in with this password hash, in one
   * transaction; `email-taken` when the address already has an account
   * (made here, by an import, or by the admin command line).
   */
  createAccount(email: string, passwordHash: string): Promise<{ accountId: string } | 'email-taken'>;
  /** The account with this email address and its password hash, when it can log in to the dashboard. */
  findCredentials(email: string): Promise<{ accountId: string; passwordHash: string } | undefined>;
}

/** A session as the store keeps it: only the token's hash. */
export interface StoredSession {
  tokenHash: string;
  accountId: string;
  expiresAt: string;
}

export interface DeveloperSessions {
  createSession(session: StoredSession): Promise<void>;
  /** The session with this token hash and its account's email, unless it has expired or ended. */
  findSession(tokenHash: string): Promise<(StoredSession & { email: string }) | undefined>;
  /** Ends a session (nothing happens when there is none). */
  deleteSession(tokenHash: string): Promise<void>;
  /** Forgets every expired session; answers how many there were. */
  deleteExpiredSessions(): Promise<number>;
}
