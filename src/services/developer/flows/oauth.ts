import type { OAuthClientSettings } from '../../../accounts/oauth/clients.js';
import { originProblem, redirectUriProblem } from '../../../accounts/oauth/clients.js';
import type { AskingBrowser, Authorization, ConsentRequest } from '../../../accounts/oauth/grants.js';
import type { SiteAccess } from '../../../accounts/oauth/scopes.js';
import {
  applicationNotFound,
  authorizationNotFound,
  consentNotFound,
  siteNamedTwice,
  emailNotVerified,
  invalidClientSettings,
  noSitePicked,
} from '../errors.js';
import type { FlowDeps } from './deps.js';

/*
 * The dashboard's side of OAuth: an application's redirect URIs and origins, the consent page's pending
 * requests and answers, and the apps a person authorized.
 */

/** An application's redirect URIs and origins as saved (404 when it is not the account's). */
export async function getOAuthClient(
  deps: Pick<FlowDeps, 'store'>,
  accountId: string,
  applicationId: string,
): Promise<OAuthClientSettings> {
  const saved = await deps.store.oauthClient(accountId, applicationId);
  if (!saved) throw applicationNotFound();
  return saved;
}

/**
 * Saves an application's redirect URIs and origins, each checked (`redirectUriProblem`, `originProblem`),
 * once the account's address is verified (404 when the application is not the account's).
 */
export async function setOAuthClient(
  deps: Pick<FlowDeps, 'store'>,
  owner: { accountId: string; emailVerified: boolean },
  applicationId: string,
  settings: Omit<OAuthClientSettings, 'clientId'>,
): Promise<OAuthClientSettings> {
  if (!owner.emailVerified) throw emailNotVerified();
  const problem = [
    ...settings.redirectUris.map(redirectUriProblem),
    ...settings.javascriptOrigins.map(originProblem),
  ].find(Boolean);
  if (problem) throw invalidClientSettings(problem);
  const saved = await deps.store.setOAuthClient(owner.accountId, applicationId, settings);
  if (!saved) throw applicationNotFound();
  return saved;
}

/** The pending authorization request this browser started (404 when it is unknown, expired or another's). */
export async function consentRequest(
  deps: Pick<FlowDeps, 'consents'>,
  browser: AskingBrowser,
  consentId: string,
  accountId: string,
): Promise<ConsentRequest> {
  const request = await deps.consents.request(browser, consentId, accountId);
  if (!request) throw consentNotFound();
  return request;
}

/**
 * The person's answer to a pending authorization request: where the browser goes next (404 as above; 400
 * for an approval of a publishing scope with no site picked, which would grant a token that can use no site; and for
 * an answer naming a site twice, before anything is granted: two accesses for one site, which one?).
 */
export async function answerConsent(
  deps: Pick<FlowDeps, 'consents'>,
  browser: AskingBrowser,
  consentId: string,
  accountId: string,
  answer: { approve: boolean; sites: { id: number; access: SiteAccess }[] },
): Promise<{ redirectTo: string }> {
  const named = new Set<number>();
  for (const site of answer.sites) {
    if (named.has(site.id)) throw siteNamedTwice(site.id);
    named.add(site.id);
  }
  const answered = await deps.consents.answer(browser, consentId, accountId, answer);
  if (!answered) throw consentNotFound();
  if (answered === 'no_site') throw noSitePicked();
  return answered;
}

export const listAuthorizations = (deps: Pick<FlowDeps, 'store'>, accountId: string): Promise<Authorization[]> =>
  deps.store.listAuthorizations(accountId);

/**
 * Revokes every grant the person gave an app (404 when there is none); the store announces it on the change
 * bus, so token caches on every instance forget at once.
 */
export async function revokeAuthorization(
  deps: Pick<FlowDeps, 'store'>,
  accountId: string,
  applicationId: string,
): Promise<void> {
  if (!(await deps.store.revokeAuthorization(accountId, applicationId))) throw authorizationNotFound();
}
