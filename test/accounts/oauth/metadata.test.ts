import { request as httpRequest } from 'node:http';
import * as openid from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import { startDashboardServer } from '../../services/developer/support/dashboard.js';
import { answerInBrowser, browserAt, checkedFetch, oauth, personOf, REDIRECT_URI, registeredApp } from './support.js';

/**
 * What the authorization server says about itself, and OpenID Connect: a
 * server started without `PUBLIC_URL` (as `npm start` is) and reached at the
 * loopback address it listens on names that one origin in its issuer and
 * every endpoint, so a certified client (`openid-client`) discovers it and
 * signs a person in with `scope=openid`.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startDashboardServer({ PORT: String(await freePort()) });
});
afterAll(() => server?.close());

/** A GET with headers fetch would not send as given (`Host`): the raw answer. */
function rawGet(
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the metadata', () => {
  it('names one origin, the configured one (by default the loopback address it listens on), whatever Host the request names', async () => {
    const origin = server.url;
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const path of ['/.well-known/oauth-authorization-server/oauth2', '/oauth2/.well-known/openid-configuration']) {
      const answer = await rawGet(path, {
        Host: 'evil.example',
        'X-Forwarded-Host': 'evil.example',
        'X-Forwarded-Proto': 'https',
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('public, max-age=3600');
      const metadata = JSON.parse(answer.body) as Record<string, unknown>;
      expect(metadata.issuer).toBe(`${origin}/oauth2`);
      const urls = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
      expect(urls.length).toBeGreaterThanOrEqual(4);
      for (const [name, url] of urls)
        expect(`${name}: ${String(url)}`).toBe(
          `${name}: ${origin}/oauth2${new URL(String(url)).pathname.slice('/oauth2'.length)}`,
        );
    }
  });

  it('lists only what the server does: public clients (`none`), ES256 ID tokens, no DPoP; checked against the contract', async () => {
    const metadata = (await (
      await checkedFetch(`${server.url}/.well-known/oauth-authorization-server/oauth2`)
    ).json()) as Record<string, unknown>;
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['none']);
    expect(metadata.revocation_endpoint_auth_methods_supported).toEqual(['none']);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['ES256']);
    expect(metadata).not.toHaveProperty('dpop_signing_alg_values_supported');
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'publishing:read', 'publishing:write']),
    );
    expect(metadata.userinfo_endpoint).toBe(`${server.url}/oauth2/userinfo`);
  });
});

describe('OpenID Connect with openid-client', () => {
  it('discovers the server at 127.0.0.1, and `scope=openid` gives a validated ID token and the userinfo of the person', async () => {
    const app = await registeredApp(server);
    const config = await openid.discovery(
      new URL(`${server.url}/oauth2`),
      app.client.client_id,
      undefined,
      openid.None(),
      {
        execute: [openid.allowInsecureRequests],
        // The same fetch, through the contract check (its body types are fetch's own, as its library declares them apart).
        [openid.customFetch]: checkedFetch as never,
      },
    );
    const codeVerifier = openid.randomPKCECodeVerifier();
    const state = openid.randomState();
    const nonce = openid.randomNonce();
    const url = openid.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid publishing:read',
      code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const ada = await personOf(server, 'ada@demo.example.com');
    const browser = browserAt(server);
    const consentPage = await browser.visit(url.href);
    const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent')!;
    const answer = await answerInBrowser(ada, browser, consentId, {
      approve: true,
      sites: [{ id: 1, access: 'read' }],
    });
    // Once: the grant has `openid`, so the library does not ask again.
    const callback = await browser.visit(answer.data!.redirect_to);
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));

    const tokens = await openid.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.claims()).toMatchObject({
      sub: ada.accountId,
      iss: `${server.url}/oauth2`,
      aud: app.client.client_id,
      nonce,
    });
    const userinfo = await openid.fetchUserInfo(config, tokens.access_token, ada.accountId);
    expect(userinfo).toEqual({ sub: ada.accountId });
    // The same token still reads the publishing API on the granted site.
    const read = await checkedFetch(`${server.url}/rest/v1.1/sites/1/posts/108`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(read.status).toBe(200);
  });

  it('the userinfo endpoint refuses a request without a token: 401 with WWW-Authenticate (RFC 6750)', async () => {
    const none = await checkedFetch(`${server.url}/oauth2/userinfo`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"|^Bearer realm=/);
  });

  it('a DPoP proof sent with a token request binds nothing: the token is a bearer token', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const browser = browserAt(server);
    const codeVerifier = oauth.generateRandomCodeVerifier();
    const url = new URL(app.as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: app.client.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'publishing:read',
      code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    }).toString();
    const consentId = new URLSearchParams((await browser.visit(url.href)).hash.slice(1)).get('consent')!;
    const answer = await answerInBrowser(ada, browser, consentId, {
      approve: true,
      sites: [{ id: 1, access: 'read' }],
    });
    const callback = await browser.visit(answer.data!.redirect_to);
    const params = oauth.validateAuthResponse(app.as, app.client, callback, oauth.expectNoState);
    const keys = await oauth.generateKeyPair('ES256');
    const response = await oauth.authorizationCodeGrantRequest(
      app.as,
      app.client,
      oauth.None(),
      params,
      REDIRECT_URI,
      codeVerifier,
      {
        [oauth.allowInsecureRequests]: true,
        [oauth.customFetch]: checkedFetch,
        DPoP: oauth.DPoP(app.client, keys),
      },
    );
    const body = (await response.json()) as { token_type: string; access_token: string };
    expect(response.status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    const read = await checkedFetch(`${server.url}/rest/v1.1/sites/1/posts/108`, {
      headers: { Authorization: `Bearer ${body.access_token}` },
    });
    expect(read.status).toBe(200);
  });
});
