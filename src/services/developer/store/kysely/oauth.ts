import type { Kysely } from 'kysely';
import { getOAuthClient, setOAuthClient } from '../../../../accounts/oauth/clients.js';
import { listAuthorizations, revokeAuthorization } from '../../../../accounts/oauth/grants.js';
import type { AccountsTables } from '../../../../accounts/tables.js';
import type { SiteDirectory } from '../../../../platform/module.js';
import type { DeveloperOAuth } from '../../domain/developerStore.js';

/** The dashboard's OAuth clients and authorizations, through the accounts' functions (which alone write their tables). */
export function kyselyDeveloperOAuth(db: Kysely<AccountsTables>, sites: SiteDirectory): DeveloperOAuth {
  return {
    oauthClient: (accountId, applicationId) => getOAuthClient(db, accountId, applicationId),
    setOAuthClient: (accountId, applicationId, settings) => setOAuthClient(db, accountId, applicationId, settings),
    listAuthorizations: (accountId) => listAuthorizations(db, sites, accountId),
    revokeAuthorization: (accountId, applicationId) => revokeAuthorization(db, accountId, applicationId),
  };
}
