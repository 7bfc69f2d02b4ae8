import type { Kysely } from 'kysely';
import { findOAuthAccess } from '../../../accounts/oauth/grants.js';
import { OAUTH_SCOPES } from '../../../accounts/oauth/scopes.js';
import type { GrantScope } from '../domain/grantScope.js';
import type { PublishingDatabase } from './tables.js';

/** The publishing user an OAuth access token acts as, with what its grant covers. */
export interface OAuthTokenUser {
  userId: number;
  grant: GrantScope;
}

/**
 * The user a live OAuth access token (by its SHA-256 hex) acts as: the
 * publishing user of the token's account, when the token holds a publishing
 * scope; undefined for an unknown, expired or revoked token, one without a
 * publishing scope, or an account without a publishing user.
 */
export async function oauthTokenUser(
  db: Kysely<PublishingDatabase>,
  tokenHash: string,
): Promise<OAuthTokenUser | undefined> {
  const access = await findOAuthAccess(db, tokenHash);
  if (!access || !(access.scopes.has(OAUTH_SCOPES.publishingRead) || access.scopes.has(OAUTH_SCOPES.publishingWrite)))
    return undefined;
  const user = await db.selectFrom('users').select('id').where('account_id', '=', access.accountId).executeTakeFirst();
  return user && { userId: Number(user.id), grant: { sites: access.sites } };
}
