import type { Kysely } from 'kysely';
import type { AuthorizationServer } from '../../../accounts/oauth/authorizationServer.js';
import { answerConsent, consentRequest } from '../../../accounts/oauth/grants.js';
import type { AccountsTables } from '../../../accounts/tables.js';
import type { SiteDirectory } from '../../../platform/module.js';
import type { OAuthConsents } from '../domain/oauthConsents.js';

/** The consent page's pending requests: the authorization server's interactions, with the grants kept in the accounts' tables. */
export function oauthConsents(
  server: AuthorizationServer,
  db: Kysely<AccountsTables>,
  sites: SiteDirectory,
): OAuthConsents {
  return {
    request: async (browser, consentId, accountId) =>
      consentRequest(await server.provider(), db, sites, browser, consentId, accountId),
    answer: async (browser, consentId, accountId, answer) =>
      answerConsent(await server.provider(), db, sites, browser, consentId, accountId, answer),
  };
}
