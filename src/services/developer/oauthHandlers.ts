import type { OAuthClientSettings } from '../../accounts/oauth/clients.js';
import type { DeveloperDeps } from './deps.js';
import { unauthenticated } from './errors.js';
import {
  answerConsent,
  consentRequest,
  getOAuthClient,
  listAuthorizations,
  revokeAuthorization,
  setOAuthClient,
} from './flows/oauth.js';
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

function sessionOf(principal: DeveloperPrincipal) {
  if (principal.kind !== 'session') throw unauthenticated('missing');
  return principal.session;
}

const clientBody = (saved: OAuthClientSettings) => ({
  client_id: saved.clientId,
  redirect_uris: saved.redirectUris,
  javascript_origins: saved.javascriptOrigins,
});

/**
 * The dashboard's OAuth handler map: an application's redirect URIs and origins, the consent page's pending
 * requests and answers, and the apps a person authorized. Each hands its request to a flow of `flows/oauth.ts`
 * (the consent flows with the asking browser, whose cookie says which request it started) and the flow's
 * outcome to its answer.
 */
export function createOAuthHandlers(deps: DeveloperDeps): DeveloperOAuthHandlers {
  return {
    async getOAuthClient({ path, principal }) {
      return {
        status: 200,
        body: clientBody(await getOAuthClient(deps, sessionOf(principal).accountId, path.applicationId)),
      };
    },
    async setOAuthClient({ path, body, principal }) {
      const saved = await setOAuthClient(deps, sessionOf(principal), path.applicationId, {
        redirectUris: body.redirect_uris,
        javascriptOrigins: body.javascript_origins,
      });
      return { status: 200, body: clientBody(saved) };
    },
    async getConsentRequest({ path, principal, ctx }) {
      const browser = { req: ctx.req, res: ctx.res };
      const request = await consentRequest(deps, browser, path.consentId, sessionOf(principal).accountId);
      return {
        status: 200,
        body: {
          application: {
            id: request.application.id,
            name: request.application.name,
            website_url: request.application.websiteUrl,
          },
          scopes: request.scopes,
          openid: request.openid,
          redirect_uri: request.redirectUri,
          sites: request.sites,
        },
      };
    },
    async answerConsentRequest({ path, body, principal, ctx }) {
      const browser = { req: ctx.req, res: ctx.res };
      const answered = await answerConsent(deps, browser, path.consentId, sessionOf(principal).accountId, {
        approve: body.approve,
        sites: body.sites ?? [],
      });
      return { status: 200, body: { redirect_to: answered.redirectTo } };
    },
    async listAuthorizations({ principal }) {
      const authorizations = await listAuthorizations(deps, sessionOf(principal).accountId);
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
      await revokeAuthorization(deps, sessionOf(principal).accountId, path.applicationId);
      return { status: 204, body: undefined };
    },
  };
}
