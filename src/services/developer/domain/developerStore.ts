import type { DeveloperApplications } from '../../../accounts/applications.js';
import type { OAuthClientSettings } from '../../../accounts/oauth/clients.js';
import type { Authorization } from '../../../accounts/oauth/grants.js';

/**
 * The developer dashboard's store: dashboard accounts (over the shared
 * `accounts` table), sessions, and an account's applications and keys
 * (over the profiles service's `api_applications` and `api_keys`, so a key
 * issued here is the key the Profiles API looks up). Implemented by
 * `store/kyselyDeveloperStore.ts` (SQLite and PostgreSQL).
 */
export interface DeveloperStore extends DeveloperAccounts, DeveloperSessions, DeveloperApplications, DeveloperOAuth {}

/** What an emailed link does: verify the address, reset the password, or move the account to a new address. */
export type EmailTokenPurpose = 'verify' | 'reset' | 'email';

export interface DeveloperAccounts {
  /**
   * Creates an account that can log in with this password hash, in one
   * transaction; `email-taken` when the address already has an account
   * (made here, by an import, or by the admin command line).
   */
  createAccount(email: string, passwordHash: string): Promise<{ accountId: string } | 'email-taken'>;
  /** The account with this email address and its password hash, when it can log in to the dashboard. */
  findCredentials(email: string): Promise<{ accountId: string; passwordHash: string } | undefined>;
  /** Whether the account's address is verified: the account's own record (src/accounts), which the dashboard keeps no copy of. */
  isEmailVerified(accountId: string): Promise<boolean>;
  /** Marks the account's address verified on the account's record (an earlier verification time is kept). */
  markEmailVerified(accountId: string): Promise<void>;
  /** Sets a new password hash, marks the address verified (a reset link proves it) and ends every session, in one transaction. */
  resetPassword(accountId: string, passwordHash: string): Promise<void>;
  /** Sets a new password hash and ends every session of the account but `keptSession` (a token hash), in one transaction. */
  changePassword(accountId: string, passwordHash: string, keptSession: string): Promise<void>;
  /** Deletes the account with everything it owns (applications, keys, sessions, links, profile) at once; false when there is none. */
  deleteAccount(accountId: string): Promise<boolean>;
  /** Whether any account (the dashboard's, an import's, the admin command line's) has this address. */
  isEmailTaken(email: string): Promise<boolean>;
  /**
   * Moves the account to a new address, marks it verified (the link proves
   * it), ends every session and deletes every emailed link of the account,
   * in one transaction; `email-taken` when another account has the address.
   */
  changeEmail(accountId: string, newEmail: string): Promise<'changed' | 'email-taken'>;
  /**
   * Keeps the hash of a new link token (with the address it moves the account
   * to, for purpose `email`); the account's earlier tokens of the same purpose
   * are deleted.
   */
  issueEmailToken(token: {
    tokenHash: string;
    accountId: string;
    purpose: EmailTokenPurpose;
    expiresAt: string;
    newEmail?: string;
  }): Promise<void>;
  /**
   * Uses a token once: deletes it and answers its account, address, expiry
   * and the new address it carries (null but for purpose `email`), unless it
   * is unknown, of another purpose or expired.
   */
  consumeEmailToken(
    tokenHash: string,
    purpose: EmailTokenPurpose,
  ): Promise<{ accountId: string; email: string; expiresAt: string; newEmail: string | null } | undefined>;
}

/** A session as the store keeps it: only the token's hash. */
export interface StoredSession {
  tokenHash: string;
  accountId: string;
  expiresAt: string;
}

export interface DeveloperSessions {
  /** Keeps a new session; the account's oldest sessions beyond the newest 20 end. */
  createSession(session: StoredSession): Promise<void>;
  /**
   * The session with this token hash, its account's email and whether it is verified, unless it has expired,
   * ended, or not been used since `idleSince`; records the use (at most once a minute).
   */
  findSession(
    tokenHash: string,
    idleSince: string,
  ): Promise<(StoredSession & { email: string; emailVerified: boolean }) | undefined>;
  /** The account's live sessions, newest first. */
  listSessions(accountId: string): Promise<(StoredSession & { createdAt: string })[]>;
  /** Ends a session (nothing happens when there is none). */
  deleteSession(tokenHash: string): Promise<void>;
  /** Forgets every expired session, and every one not used since `idleSince`; answers how many there were. */
  deleteExpiredSessions(idleSince: string): Promise<number>;
}

/** An account's applications as OAuth clients, and the apps the person authorized (the accounts' OAuth tables). */
export interface DeveloperOAuth {
  /** An application's redirect URIs and origins as saved; undefined when it is not the account's. */
  oauthClient(accountId: string, applicationId: string): Promise<OAuthClientSettings | undefined>;
  /** Saves an application's redirect URIs and origins (replacing the previous ones); undefined when it is not the account's. */
  setOAuthClient(
    accountId: string,
    applicationId: string,
    settings: Omit<OAuthClientSettings, 'clientId'>,
  ): Promise<OAuthClientSettings | undefined>;
  /** The apps the person authorized (their live grants), newest first. */
  listAuthorizations(accountId: string): Promise<Authorization[]>;
  /** Revokes every grant the person gave an app, with its codes and tokens; false when there was none. */
  revokeAuthorization(accountId: string, applicationId: string): Promise<boolean>;
}
