/**
 * Tables of the OAuth 2 authorization server (oidc-provider's models, through
 * its adapter interface, `adapter.ts`), portable between SQLite and
 * PostgreSQL. Codes, tokens, sessions and interactions are found by the
 * SHA-256 of their id (the id of a code or token is the secret itself): the
 * store never holds one in clear.
 */
export interface OAuthTables {
  oauth_records: OAuthRecordsTable;
  oauth_grant_sites: OAuthGrantSitesTable;
  oauth_secrets: OAuthSecretsTable;
}

/** One record of one oidc-provider model (`AccessToken`, `AuthorizationCode`, `RefreshToken`, `Grant`, `Session`, `Interaction`, …). */
export interface OAuthRecordsTable {
  model: string;
  /** SHA-256 hex of the record's id. */
  id_hash: string;
  /** The grant a code or token was issued under (a grant's own id for a `Grant`), for revocation by grant. */
  grant_id: string | null;
  /** SHA-256 hex of a session's `uid`. */
  uid_hash: string | null;
  /** The account of a grant, code or token (`accountId`). */
  account_id: string | null;
  /** The application (OAuth client id) of a grant, code or token. */
  client_id: string | null;
  /** The model's payload as JSON, without its id. */
  payload: string;
  /** ISO-8601 UTC; null: never. */
  expires_at: string | null;
  /** ISO-8601 UTC when a code or refresh token was used (single use), else null. */
  consumed_at: string | null;
}

/** The sites a grant's publishing scope covers, each read-only or read and write. */
export interface OAuthGrantSitesTable {
  grant_id: string;
  site_id: number;
  /** `read` or `write`. */
  access: string;
}

/** Secrets every instance shares (the authorization server's cookie signing key), made once by the first instance. */
export interface OAuthSecretsTable {
  name: string;
  secret: string;
  created_at: string;
}
