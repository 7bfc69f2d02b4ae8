import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import {
  answerInBrowser,
  authorizationRequest,
  browserAt,
  checkedFetch,
  personOf,
  redeem,
  registeredApp,
  startOAuthServer,
} from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server?.close());

/** Registered by a native app (RFC 8252): its own scheme, and loopback redirects on either IP literal, without a port. */
const NATIVE_REDIRECTS = ['com.example.weather:/oauth/callback', 'http://127.0.0.1/callback', 'http://[::1]/callback'];

/** The whole flow with `redirectUri`: consent on the dashboard, then the code redeemed at the token endpoint with it. */
async function signedInWith(app: Awaited<ReturnType<typeof registeredApp>>, redirectUri: string) {
  const ada = await personOf(server, 'ada@demo.example.com');
  const request = await authorizationRequest(app.as, app.client, 'publishing:read', { redirectUri });
  const browser = browserAt(server);
  const consentPage = await browser.visit(request.url.href);
  const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent');
  expect(consentId, `sent to ${consentPage.href}`).toEqual(expect.any(String));
  const answer = await answerInBrowser(ada, browser, consentId!, { approve: true, sites: [{ id: 1, access: 'read' }] });
  const callback = await browser.visit(answer.data!.redirect_to);
  const tokens = await redeem(app, callback, request.state, request.codeVerifier, redirectUri);
  return { callback, tokens };
}

describe('native apps (RFC 8252)', () => {
  it('sign a person in through an app’s own scheme', async () => {
    const app = await registeredApp(server, NATIVE_REDIRECTS);
    const { callback, tokens } = await signedInWith(app, 'com.example.weather:/oauth/callback');
    expect(`${callback.protocol}${callback.pathname}`).toBe('com.example.weather:/oauth/callback');
    const read = await contractFetch(await contractChecker())(`${server.url}/rest/v1.1/sites/1/posts/108`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(read.status).toBe(200);
  });

  it.each([
    ['127.0.0.1', 'http://127.0.0.1:51234/callback'],
    ['[::1]', 'http://[::1]:61001/callback'],
  ])(
    'sign a person in through a loopback redirect on %s, at whatever port the app listens on',
    async (_host, redirectUri) => {
      const app = await registeredApp(server, NATIVE_REDIRECTS);
      const { callback, tokens } = await signedInWith(app, redirectUri);
      expect(callback.origin + callback.pathname).toBe(redirectUri);
      expect(tokens.access_token).toEqual(expect.any(String));
    },
  );

  it('still match the path of a loopback redirect exactly, and the scheme of an app’s own redirect', async () => {
    const app = await registeredApp(server, NATIVE_REDIRECTS);
    for (const wrong of [
      'http://127.0.0.1:51234/other',
      'com.example.weather:/other',
      'com.example.other:/oauth/callback',
    ]) {
      const request = await authorizationRequest(app.as, app.client, 'publishing:read', { redirectUri: wrong });
      const response = await checkedFetch(request.url, { redirect: 'manual' });
      expect(response.status, wrong).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
  });
});

describe('redirect URIs that cannot work are refused at registration', () => {
  it.each([
    ['localhost (RFC 8252 §8.3)', 'http://localhost:8080/callback', /localhost.*127\.0\.0\.1/],
    ['https on a loopback address', 'https://127.0.0.1/callback', /loopback/],
    ['a fragment', 'com.example.weather:/callback#x', /fragment/],
    ['a javascript: URI', 'javascript:alert(1)', /reverse-domain scheme/],
    ['a data: URI', 'data:text/html,hi', /reverse-domain scheme/],
  ])('%s: 400 invalid_request in the developer API’s error format, naming the URI', async (_what, uri, reason) => {
    const app = await registeredApp(server);
    const { response, error } = await sdk.setOAuthClient({
      client: app.developer.client,
      headers: app.developer.csrf,
      path: { applicationId: app.application.application.id },
      body: { redirect_uris: [uri], javascript_origins: [] },
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ code: 'invalid_request', error: expect.stringContaining(uri) });
    expect((error as { error: string }).error).toMatch(reason);
  });
});
