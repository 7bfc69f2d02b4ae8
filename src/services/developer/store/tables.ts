import type { AccountsTables } from '../../../accounts/tables.js';
import type { EmailTokenPurpose } from '../domain/developerStore.js';

/**
 * Tables of the developer dashboard. Accounts, applications and keys are the
 * accounts' tables (src/accounts: `accounts`, `api_applications`,
 * `api_keys`), whether an address is verified included; these add what only
 * the dashboard needs. Portable between SQLite and
 * PostgreSQL: text ids, timestamps as ISO-8601 UTC text (which sort as
 * text), integer counts.
 */
export interface DeveloperTables {
  developer_credentials: DeveloperCredentialsTable;
  developer_sessions: DeveloperSessionsTable;
  developer_login_attempts: DeveloperLoginAttemptsTable;
  developer_email_tokens: DeveloperEmailTokensTable;
}

/** The secret of an emailed link (verification, password reset, new address): only its SHA-256 is kept; used once, then deleted. */
export interface DeveloperEmailTokensTable {
  token_hash: string;
  account_id: string;
  purpose: EmailTokenPurpose;
  /** The address the account moves to when the link is opened (purpose `email` only; null otherwise). */
  new_email: string | null;
  created_at: string;
  expires_at: string;
}

/** The password of an account that can log in to the dashboard (one per account). */
export interface DeveloperCredentialsTable {
  account_id: string;
  /** The password's scrypt hash with its parameters and salt (`$scrypt$ln=…,r=…,p=…$salt$hash`). */
  password_hash: string;
  created_at: string;
}

/** A dashboard session; only the SHA-256 of its token is kept. */
export interface DeveloperSessionsTable {
  /** SHA-256 hex of the session token (the cookie's value). */
  token_hash: string;
  account_id: string;
  created_at: string;
  /** The session is refused from this moment on. */
  expires_at: string;
  /** When it was last used (refreshed at most once a minute; null: not since it started): an idle session is refused. */
  last_seen_at: string | null;
}

/** Log-in attempt counters (rate-limiter-flexible's store rows), keyed by the SHA-256 of an email or client address. */
export interface DeveloperLoginAttemptsTable {
  key: string;
  points: number;
  /** End of the counting window. */
  expire: string;
}

/** The tables the dashboard reads and writes: its own and the accounts'. */
export type DeveloperDatabase = AccountsTables & DeveloperTables;
