import type { ColumnType } from 'kysely';
import type { OAuthTables } from './oauth/tables.js';

/**
 * Tables of the accounts: who may use the APIs, their developer applications
 * and the applications' API keys. Profiles (key authentication) and the
 * developer dashboard (accounts, applications, keys) use them only through
 * the functions of this folder. Portable between SQLite and PostgreSQL: text
 * ids, timestamps as ISO-8601 UTC text.
 */
export interface AccountsTables extends OAuthTables {
  accounts: AccountsTable;
  api_applications: ApiApplicationsTable;
  api_keys: ApiKeysTable;
}

/** A user account, identified by its primary email; owns at most one profile and any number of applications. */
export interface AccountsTable {
  id: string;
  /** Primary email, trimmed and lower-cased. */
  email: string;
  email_sha256: string;
  email_md5: string;
  /** When the account was registered (the platform's `user_registered`; `/me`'s `date`). */
  created_at: string;
  /** When the account's primary address was last shown to be its owner's (a link opened); null while it is not. */
  email_verified_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A developer application of an account; API keys belong to it. */
export interface ApiApplicationsTable {
  id: string;
  account_id: string;
  /** Unique per account. */
  name: string;
  description: string;
  website_url: string;
  created_at: string;
  /** OAuth: JSON array of the exact redirect URIs the application registered (`[]`: not an OAuth client). */
  redirect_uris: ColumnType<string, string | undefined, string>;
  /** OAuth: JSON array of the browser origins (`https://app.example`) whose scripts may call the APIs with its tokens. */
  javascript_origins: ColumnType<string, string | undefined, string>;
}

/** An API key: only its SHA-256 hash and a short display prefix are kept. */
export interface ApiKeysTable {
  id: string;
  application_id: string;
  key_hash: string;
  display_prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
