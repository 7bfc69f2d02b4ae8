import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, type ContractChecker } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import {
  authorizationRequest,
  authorizedCallback,
  browserAt,
  checkedFetch,
  personOf,
  REDIRECT_URI,
  registeredApp,
  startOAuthServer,
} from './support.js';

/**
 * The authorization server's routes are the library's (oidc-provider), not
 * the pipeline's; `openapi/oauth.yaml` describes them. Every answer here
 * goes through the contract check (status, media type, body, required
 * headers), as every answer of the services does; each test also says what
 * the answer is, so a library that changed its answers fails here first.
 */
let server: TestServer;
let checker: ContractChecker;
beforeAll(async () => {
  [server, checker] = await Promise.all([startOAuthServer(), contractChecker()]);
});
afterAll(() => server?.close());

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

/** Sends through the contract check and counts that the check ran on it. */
async function checked(url: string | URL, init?: RequestInit): Promise<Response> {
  const before = checker.checked;
  const response = await checkedFetch(url, init);
  expect(checker.checked, `${String(url)} was not checked against a contract`).toBe(before + 1);
  return response;
}

describe('the metadata', () => {
  it('RFC 8414 and the OpenID location answer the same document, naming only endpoints the contract describes', async () => {
    const rfc = await checked(`${server.url}/.well-known/oauth-authorization-server/oauth2`);
    const oidc = await checked(`${server.url}/oauth2/.well-known/openid-configuration`);
    expect(rfc.status).toBe(200);
    const metadata = (await rfc.json()) as Record<string, unknown>;
    expect(await oidc.json()).toEqual(metadata);
    expect(metadata).toMatchObject({
      issuer: `${server.url}/oauth2`,
      authorization_endpoint: `${server.url}/oauth2/authorize`,
      token_endpoint: `${server.url}/oauth2/token`,
      revocation_endpoint: `${server.url}/oauth2/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    // Every endpoint it names is one of the contract's operations (pushed authorization requests are off; userinfo is OpenID Connect's).
    const endpoints = Object.entries(metadata).filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri');
    expect(endpoints.map(([key]) => key).sort()).toEqual([
      'authorization_endpoint',
      'jwks_uri',
      'revocation_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
    ]);
    expect((await checked(metadata.jwks_uri as string)).status).toBe(200);
  });
});

describe('the authorization endpoint', () => {
  it('sends a valid request to the consent page, an error it may return to the app, and answers 400 to one it may not', async () => {
    const app = await registeredApp(server);
    const request = await authorizationRequest(app.as, app.client, 'publishing:read');
    const toConsent = await checked(request.url, { redirect: 'manual' });
    expect(toConsent.status).toBe(303);
    expect(toConsent.headers.get('location')).toMatch(/^\/developers#consent=[\w-]+$/);

    const withoutPkce = new URL(request.url);
    withoutPkce.searchParams.delete('code_challenge');
    const backToApp = await checked(withoutPkce, { redirect: 'manual' });
    expect(backToApp.status).toBe(303);
    const location = new URL(backToApp.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe(request.state);

    const unknownClient = new URL(request.url);
    unknownClient.searchParams.set('client_id', 'no-such-app');
    const refused = await checked(unknownClient, { redirect: 'manual' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('resumes after the consent page to the app, and answers 400 to a request it does not know', async () => {
    const app = await registeredApp(server);
    const person = await personOf(server, 'ada@demo.example.com');
    // authorizedCallback's browser follows GET /authorize/{uid} through the contract check.
    const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
    expect(flow.callback.searchParams.get('code')).toEqual(expect.any(String));
    const unknown = await checked(`${server.url}/oauth2/authorize/no-such-request`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('the token endpoint', () => {
  it('answers tokens for a code once, then RFC 6749 errors: spent code, unknown client, unsupported grant, JSON body', async () => {
    const app = await registeredApp(server);
    const person = await personOf(server, 'ada@demo.example.com');
    const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
    const redeem = form({
      grant_type: 'authorization_code',
      client_id: app.client.client_id,
      code: flow.callback.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: flow.codeVerifier,
    });
    const tokens = await checked(`${server.url}/oauth2/token`, redeem);
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(await tokens.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'publishing:read' });

    const spent = await checked(`${server.url}/oauth2/token`, redeem);
    expect([spent.status, ((await spent.json()) as { error: string }).error]).toEqual([400, 'invalid_grant']);
    const stranger = await checked(
      `${server.url}/oauth2/token`,
      form({ grant_type: 'refresh_token', client_id: 'no-such-app', refresh_token: 'x' }),
    );
    expect([stranger.status, ((await stranger.json()) as { error: string }).error]).toEqual([401, 'invalid_client']);
    const password = await checked(
      `${server.url}/oauth2/token`,
      form({ grant_type: 'password', client_id: app.client.client_id }),
    );
    expect([password.status, ((await password.json()) as { error: string }).error]).toEqual([
      400,
      'unsupported_grant_type',
    ]);
    const json = await checked(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect([json.status, ((await json.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
  });
});

describe('the revocation endpoint', () => {
  it('answers 200 with no body for a token, known or not, and 400 without one', async () => {
    const app = await registeredApp(server);
    const known = await checked(
      `${server.url}/oauth2/revoke`,
      form({ client_id: app.client.client_id, token: 'not-a-token' }),
    );
    expect([known.status, await known.text()]).toEqual([200, '']);
    const missing = await checked(`${server.url}/oauth2/revoke`, form({ client_id: app.client.client_id }));
    expect([missing.status, ((await missing.json()) as { error: string }).error]).toEqual([400, 'invalid_request']);
  });
});

it('the browser helper follows the library’s redirects through the contract check', async () => {
  const app = await registeredApp(server);
  const request = await authorizationRequest(app.as, app.client, 'profile');
  const before = checker.checked;
  const consent = await browserAt(server).visit(request.url.href);
  expect(consent.pathname).toBe('/developers');
  expect(checker.checked).toBeGreaterThan(before);
});
