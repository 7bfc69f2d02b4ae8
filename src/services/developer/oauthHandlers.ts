import type { Kysely } from 'kysely';
import type { AuthorizationServer } from '../../accounts/oauth/authorizationServer.js';
import { getOAuthClient, originProblem, redirectUriProblem, setOAuthClient } from '../../accounts/oauth/clients.js';
import { answerConsent, consentRequest, listAuthorizations, revokeAuthorization } from '../../accounts/oauth/grants.js';
import type { AccountsTables } from '../../accounts/tables.js';
import { ApiError, invalidRequest } from '../../platform/answers/errors.js';
import { applicationNotFound, emailNotVerified, unauthenticated } from './errors.js';
import type { DeveloperHandlers, DeveloperPrincipal } from './operations.js';

/** The dashboard's OAuth operations. */
export type OAuthOperation =
  | 'getOAuthClient'
  | 'setOAuthClient'
  | 'getConsentRequest'
  | 'answerConsentRequest'
  | 'listAuthorizations'
  | 'revokeAuthorization';

export type DeveloperOAuthHandlers = Pick<DeveloperHandlers, OAuthOperation>;

const consentNotFound = () =>
  new ApiError(404, 'not_found', 'Authorization request not found (it expired, or another browser started it)');
const authorizationNotFound = () => new ApiError(404, 'not_found', 'Authorization not found');

function accountOf(principal: DeveloperPrincipal): string {
  if (principal.kind !== 'session') throw unauthenticated('missing');
  return principal.session.accountId;
}

/**
 * The dashboard's side of OAuth: an application's redirect URIs and origins,
 * the consent page's pending requests and answers, and the apps a person
 * authorized (a revocation announced on the change bus, so token caches on
 * every instance forget at once).
 */
export function createOAuthHandlers(deps: {
  db: Kysely<AccountsTables>;
  server: AuthorizationServer;
  onGrantsRevoked: () => void;
}): DeveloperOAuthHandlers {
  const { db, server } = deps;
  return {
    async getOAuthClient({ path, principal }) {
      const saved = await getOAuthClient(db, accountOf(principal), path.applicationId);
      if (!saved) throw applicationNotFound();
      return {
        status: 200,
        body: {
          client_id: saved.clientId,
          redirect_uris: saved.redirectUris,
          javascript_origins: saved.javascriptOrigins,
        },
      };
    },
    async setOAuthClient({ path, body, principal }) {
      if (principal.kind === 'session' && !principal.session.emailVerified) throw emailNotVerified();
      const problem = [
        ...body.redirect_uris.map(redirectUriProblem),
        ...body.javascript_origins.map(originProblem),
      ].find(Boolean);
      if (problem) throw invalidRequest(`Invalid body: ${problem}`);
      const saved = await setOAuthClient(db, accountOf(principal), path.applicationId, {
        redirectUris: body.redirect_uris,
        javascriptOrigins: body.javascript_origins,
      });
      if (!saved) throw applicationNotFound();
      return {
        status: 200,
        body: {
          client_id: saved.clientId,
          redirect_uris: saved.redirectUris,
          javascript_origins: saved.javascriptOrigins,
        },
      };
    },
    async getConsentRequest({ path, principal, ctx }) {
      const request = await consentRequest(await server.provider(), db, ctx, path.consentId, accountOf(principal));
      if (!request) throw consentNotFound();
      return {
        status: 200,
        body: {
          application: {
            id: request.application.id,
            name: request.application.name,
            website_url: request.application.websiteUrl,
          },
          scopes: request.scopes,
          redirect_uri: request.redirectUri,
          sites: request.sites,
        },
      };
    },
    async answerConsentRequest({ path, body, principal, ctx }) {
      const answered = await answerConsent(await server.provider(), db, ctx, path.consentId, accountOf(principal), {
        approve: body.approve,
        sites: body.sites ?? [],
      });
      if (!answered) throw consentNotFound();
      return { status: 200, body: { redirect_to: answered.redirectTo } };
    },
    async listAuthorizations({ principal }) {
      const authorizations = await listAuthorizations(db, accountOf(principal));
      return {
        status: 200,
        body: {
          authorizations: authorizations.map((authorization) => ({
            application_id: authorization.applicationId,
            name: authorization.name,
            scopes: authorization.scopes,
            sites: authorization.sites,
            granted_at: authorization.grantedAt,
          })),
        },
      };
    },
    async revokeAuthorization({ path, principal }) {
      const revoked = await revokeAuthorization(db, accountOf(principal), path.applicationId);
      if (!revoked) throw authorizationNotFound();
      deps.onGrantsRevoked();
      return { status: 204, body: undefined };
    },
  };
}
