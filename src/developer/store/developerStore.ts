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

/** One key of an application, as listed: never the key itself. */
export interface ApiKeyRecord {
  id: string;
  displayPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Application {
  id: string;
  name: string;
  description: string;
  websiteUrl: string;
  createdAt: string;
  /** Active keys first, then revoked ones, each newest first. */
  keys: ApiKeyRecord[];
}

export interface NewApplication {
  name: string;
  description: string;
  websiteUrl: string;
}

/** What the store keeps of a newly issued key. */
export interface NewKey {
  hash: string;
  displayPrefix: string;
}

/** An application after a key was issued for it, and that key's id. */
export interface KeyAdded {
  application: Application;
  keyId: string;
}

/**
 * An account's applications and keys. Every method takes the account and
 * answers only about its own applications: another account's application
 * is `undefined`, exactly like one that does not exist.
 */
export interface DeveloperApplications {
  /** The account's applications, newest first. */
  listApplications(accountId: string): Promise<Application[]>;
  /**
   * Creates an application with its first key, in one transaction;
   * `name-taken` when the account has one of that name, `limit-reached` when
   * it already has `maxApplications` (concurrent creations for one account
   * are counted one after the other).
   */
  createApplication(
    accountId: string,
    application: NewApplication,
    key: NewKey,
    maxApplications: number,
  ): Promise<KeyAdded | 'name-taken' | 'limit-reached'>;
  /** Adds a key and revokes the application's other active keys, in one transaction. */
  rotateKey(accountId: string, applicationId: string, key: NewKey): Promise<KeyAdded | undefined>;
  /** Revokes one key (an already revoked one keeps its revocation time); undefined when the application or key is not the account's. */
  revokeKey(accountId: string, applicationId: string, keyId: string): Promise<Application | undefined>;
  /** Deletes an application and its keys, in one transaction; false when it is not the account's. */
  deleteApplication(accountId: string, applicationId: string): Promise<boolean>;
}
