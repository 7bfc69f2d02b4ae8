import type { AskingBrowser, ConsentRequest } from '../../../accounts/oauth/grants.js';
import type { SiteAccess } from '../../../accounts/oauth/scopes.js';

/**
 * The authorization server's pending requests, as the consent page sees them: one is the asking browser's
 * only when that browser started it (its cookie says so; the browser is handed on, never read here).
 * Implemented by `store/oauthConsents.ts` on the authorization server and the accounts' tables.
 */
export interface OAuthConsents {
  /** The pending request `consentId` this browser started, with the person's sites; undefined when unknown, expired or another's. */
  request(browser: AskingBrowser, consentId: string, accountId: string): Promise<ConsentRequest | undefined>;
  /**
   * The person's answer to it: where the browser goes next; undefined when unknown, expired or another's;
   * `no_site` for an approval of a publishing scope that picks none of the person's sites (nothing granted).
   */
  answer(
    browser: AskingBrowser,
    consentId: string,
    accountId: string,
    answer: { approve: boolean; sites: { id: number; access: SiteAccess }[] },
  ): Promise<{ redirectTo: string } | 'no_site' | undefined>;
}
