import * as oauth from 'oauth4webapi';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { csrfTokenFor, issueSessionToken } from '../../../src/services/developer/domain/sessionToken.js';
import { createKyselyDeveloperStore } from '../../../src/services/developer/store/kyselyDeveloperStore.js';
import { accountSites } from '../../../src/services/publishing/store/accountSites.js';
import { findAccountId } from '../../../src/accounts/accounts.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { freePort } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import {
  createdApplication,
  dashboardCaller,
  signedUpUser,
  startDashboardServer,
  type DashboardCaller,
} from '../../services/developer/support/dashboard.js';

/** Where the app's redirect URI points: nothing listens there; the tests read the redirect the browser would follow. */
export const REDIRECT_URI = 'http://127.0.0.1:8799/callback';
export const APP_ORIGIN = 'https://app.example.com';

/**
 * A `fetch` that checks every answer against the contracts (the authorization server's in `openapi/oauth.yaml`):
 * the app's library and the test's browser send through it, so every answer of the library is checked.
 */
export const checkedFetch: typeof fetch = async (input, init) => contractFetch(await contractChecker())(input, init);

/** Options of every oauth4webapi request: plain `http` to the test server, through the contract check. */
export const requestOptions = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: checkedFetch } as const;

/** A server whose `PUBLIC_URL` is its own address, so the authorization server's issuer is where the app reaches it. */
export async function startOAuthServer(env: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  return startDashboardServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, ...env });
}

/** An app registered by a developer on the dashboard, as an OAuth client (`REDIRECT_URI` unless told), and its metadata as the app's library reads it. */
export async function registeredApp(server: TestServer, redirectUris: string[] = [REDIRECT_URI]) {
  const developer = await signedUpUser(server);
  const application = await createdApplication(developer);
  const { response } = await sdk.setOAuthClient({
    client: developer.client,
    headers: developer.csrf,
    path: { applicationId: application.application.id },
    body: { redirect_uris: redirectUris, javascript_origins: [APP_ORIGIN] },
  });
  if (response.status !== 200) throw new Error(`setOAuthClient answered ${response.status}`);
  const issuer = new URL(`${server.url}/oauth2`);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...requestOptions }),
  );
  const client: oauth.Client = { client_id: application.application.id };
  return { developer, application, as, client };
}

/** A person on the dashboard: the demo account of a publishing user (no password: a session made for it), or a new account. */
export async function personOf(
  server: TestServer,
  email: string,
): Promise<DashboardCaller & { accountId: string; csrf: { 'X-CSRF-Token': string } }> {
  const db = server.built.db;
  const accountId = await findAccountId(db, email);
  if (!accountId) throw new Error(`no account for ${email}`);
  const { token, tokenHash } = issueSessionToken();
  await createKyselyDeveloperStore(db, accountSites(db)).createSession({
    tokenHash,
    accountId,
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  });
  const caller = await dashboardCaller(server);
  caller.setCookie(token);
  return { ...caller, accountId, csrf: { 'X-CSRF-Token': csrfTokenFor(token) } };
}

/** The cookies a browser keeps for the authorization server, as plain name=value pairs. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A browser at the authorization server: follows redirects by hand,
 * keeping its cookies, and stops at the dashboard's consent page or at the
 * app's redirect URI.
 */
export function browserAt(server: TestServer) {
  const jar = new CookieJar();
  return {
    /** The browser's cookies for the authorization server (its interaction cookies among them). */
    cookies: () => jar.header(),
    async visit(url: string): Promise<URL> {
      let next = new URL(url, server.url);
      for (let hops = 0; hops < 10; hops++) {
        if (next.origin !== server.url || next.pathname === '/developers') return next;
        const response = await checkedFetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
        jar.keep(response);
        const location = response.headers.get('location');
        if (!location)
          throw new Error(`${next.pathname} answered ${response.status} without a redirect: ${await response.text()}`);
        next = new URL(location, next);
      }
      throw new Error('too many redirects');
    },
  };
}

/** The app's authorization request (PKCE S256 and state), as oauth4webapi builds its parts. */
export async function authorizationRequest(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  scope: string,
  options: { pkce?: boolean; redirectUri?: string } = {},
) {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set('client_id', client.client_id);
  url.searchParams.set('redirect_uri', options.redirectUri ?? REDIRECT_URI);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', scope);
  url.searchParams.set('state', state);
  if (options.pkce !== false) {
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  return { url, codeVerifier, state };
}

/**
 * The person's answer to a consent request, from the browser that holds `browser`'s cookies too (the one
 * that was sent to the consent page): their dashboard session and the authorization server's cookies.
 */
export function answerInBrowser(
  person: Awaited<ReturnType<typeof personOf>>,
  browser: ReturnType<typeof browserAt>,
  consentId: string,
  body: { approve: boolean; sites?: { id: number; access: 'read' | 'write' }[] },
) {
  return sdk.answerConsentRequest({
    client: person.client,
    headers: { ...person.csrf, cookie: inBrowser(person, browser) },
    path: { consentId },
    body,
  });
}

/** The `Cookie` header of a browser holding the person's dashboard session and `browser`'s cookies. */
export const inBrowser = (person: DashboardCaller, browser: ReturnType<typeof browserAt>) =>
  [`dev_session=${person.cookie()}`, browser.cookies()].filter(Boolean).join('; ');

/** The app's authorization request, followed by a browser to the dashboard's consent page: the request, the browser and the consent's ID. */
export async function pendingConsent(
  server: TestServer,
  app: Awaited<ReturnType<typeof registeredApp>>,
  scope: string,
) {
  const request = await authorizationRequest(app.as, app.client, scope);
  const browser = browserAt(server);
  const consentPage = await browser.visit(request.url.href);
  const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent');
  if (!consentId) throw new Error(`not sent to the consent page: ${consentPage.href}`);
  return { request, browser, consentId };
}

/** The whole flow: the person consents to `sites` on the dashboard; answers the code's callback URL and what the app needs to redeem it. */
export async function authorizedCallback(
  server: TestServer,
  app: Awaited<ReturnType<typeof registeredApp>>,
  person: Awaited<ReturnType<typeof personOf>>,
  scope: string,
  sites: { id: number; access: 'read' | 'write' }[],
) {
  const { request, browser, consentId } = await pendingConsent(server, app, scope);
  const answer = await answerInBrowser(person, browser, consentId, { approve: true, sites });
  if (!answer.data) throw new Error(`consent answered ${answer.response.status}`);
  const callback = await browser.visit(answer.data.redirect_to);
  return { callback, consentId, ...request };
}

/** Redeems the code of a callback with oauth4webapi: the tokens, or the library's error. */
export async function redeem(
  app: Awaited<ReturnType<typeof registeredApp>>,
  callback: URL,
  state: string,
  codeVerifier: string,
  redirectUri = REDIRECT_URI,
) {
  const params = oauth.validateAuthResponse(app.as, app.client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(
    app.as,
    app.client,
    oauth.None(),
    params,
    redirectUri,
    codeVerifier,
    requestOptions,
  );
  return oauth.processAuthorizationCodeResponse(app.as, app.client, response);
}

/** An access token of `scope` that `person` gave a new app, through the whole flow (no site chosen). */
export async function tokenThroughFlow(
  server: TestServer,
  person: Awaited<ReturnType<typeof personOf>>,
  scope: string,
): Promise<string> {
  const app = await registeredApp(server);
  const flow = await authorizedCallback(server, app, person, scope, []);
  return (await redeem(app, flow.callback, flow.state, flow.codeVerifier)).access_token;
}

export async function refresh(app: Awaited<ReturnType<typeof registeredApp>>, refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(app.as, app.client, oauth.None(), refreshToken, requestOptions);
  return oauth.processRefreshTokenResponse(app.as, app.client, response);
}

export { oauth };
