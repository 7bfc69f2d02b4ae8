import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { Database } from '../../../src/app.js';
import { adminInProcess } from '../../support/admin.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import {
  answerInBrowser,
  authorizationRequest,
  authorizedCallback,
  browserAt,
  checkedFetch,
  inBrowser,
  oauth,
  personOf,
  REDIRECT_URI,
  redeem,
  refresh,
  registeredApp,
  requestOptions,
  startOAuthServer,
} from './support.js';

let server: TestServer;
let call: typeof fetch;
beforeAll(async () => {
  // Long enough that a token this instance remembers would outlive a revocation if nothing told its cache.
  server = await startOAuthServer({ ACCESS_TOKEN_CACHE_MS: '5000' });
  call = contractFetch(await contractChecker());
});
afterAll(() => server?.close());

/** A publishing read, a trash and a restore with a bearer token (post 108 is published, page 112 too). */
const readAs = (token: string, site = 1, post = 108) =>
  call(`${server.url}/rest/v1.1/sites/${site}/posts/${post}`, { headers: { Authorization: `Bearer ${token}` } });
const trashAs = (token: string, site = 1, post = 112) =>
  call(`${server.url}/rest/v1.1/sites/${site}/posts/${post}/delete`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
const restoreAs = (token: string, site = 1, post = 112) =>
  call(`${server.url}/rest/v1.1/sites/${site}/posts/${post}/restore`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });

async function tokensFor(email: string, scope: string, sites: { id: number; access: 'read' | 'write' }[]) {
  const app = await registeredApp(server);
  const person = await personOf(server, email);
  const flow = await authorizedCallback(server, app, person, scope, sites);
  return { app, person, flow, tokens: await redeem(app, flow.callback, flow.state, flow.codeVerifier) };
}

/** The token endpoint's answers to requests sent at once: exactly one gave tokens (answered), the others were refused as replays. */
async function issuedOnce(answers: Response[]): Promise<{ access_token: string; refresh_token: string }> {
  const bodies = await Promise.all(
    answers.map(async (answer) => ({ status: answer.status, body: await answer.json() })),
  );
  const issued = bodies.filter((answer) => answer.status === 200);
  expect(issued).toHaveLength(1);
  for (const refused of bodies.filter((answer) => answer.status !== 200))
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  return issued[0]!.body;
}

describe('codes', () => {
  it('work once: a spent code is refused, and its tokens are revoked with it', async () => {
    const { app, flow, tokens } = await tokensFor('eddie@demo.example.com', 'publishing:read', [
      { id: 1, access: 'read' },
    ]);
    expect((await readAs(tokens.access_token)).status).toBe(200);
    await expect(redeem(app, flow.callback, flow.state, flow.codeVerifier)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // Reuse of a code is an attack: the grant goes, so the first token stops working, at once on this instance.
    expect((await readAs(tokens.access_token)).status).toBe(401);
  });

  it('work once when many requests present one at once: one gets tokens, the others are refused, and the grant ends', async () => {
    // The library reads a code, refuses a spent one, then spends it: requests at once all read it unspent, and each got
    // tokens of their own. The store spends it once; the others are replays, which end the grant.
    const app = await registeredApp(server);
    const person = await personOf(server, 'eddie@demo.example.com');
    const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
    const params = oauth.validateAuthResponse(app.as, app.client, flow.callback, flow.state);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        oauth.authorizationCodeGrantRequest(
          app.as,
          app.client,
          oauth.None(),
          params,
          REDIRECT_URI,
          flow.codeVerifier,
          requestOptions,
        ),
      ),
    );
    const issued = await issuedOnce(answers);
    expect((await readAs(issued.access_token)).status).toBe(401);
  });

  it('need the PKCE verifier they were issued for', async () => {
    const app = await registeredApp(server);
    const person = await personOf(server, 'eddie@demo.example.com');
    const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
    await expect(redeem(app, flow.callback, flow.state, oauth.generateRandomCodeVerifier())).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('go only to the redirect URI they were issued for', async () => {
    const app = await registeredApp(server);
    const person = await personOf(server, 'eddie@demo.example.com');
    const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
    await expect(
      redeem(app, flow.callback, flow.state, flow.codeVerifier, 'http://127.0.0.1:8799/other'),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });
});

describe('authorization requests', () => {
  it('without PKCE are refused, back at the app', async () => {
    const app = await registeredApp(server);
    const request = await authorizationRequest(app.as, app.client, 'publishing:read', { pkce: false });
    const callback = await browserAt(server).visit(request.url.href);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('state')).toBe(request.state);
  });

  it('with a redirect URI the app did not register exactly are refused without a redirect', async () => {
    const app = await registeredApp(server);
    const request = await authorizationRequest(app.as, app.client, 'publishing:read');
    request.url.searchParams.set('redirect_uri', 'http://127.0.0.1:8799/callback/');
    const response = await checkedFetch(request.url, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('with a wrong redirect URI or an unknown app show a browser the dashboard’s error page, with no script', async () => {
    const app = await registeredApp(server);
    const request = await authorizationRequest(app.as, app.client, 'publishing:read');
    const wrongRedirect = new URL(request.url);
    wrongRedirect.searchParams.set('redirect_uri', 'https://elsewhere.example/callback');
    const unknownApp = new URL(request.url);
    unknownApp.searchParams.set('client_id', '00000000-0000-4000-8000-000000000000');
    for (const [url, code] of [
      [wrongRedirect, 'invalid_redirect_uri'],
      [unknownApp, 'invalid_client'],
    ] as const) {
      const response = await checkedFetch(url, {
        redirect: 'manual',
        headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(response.headers.get('content-security-policy')).not.toMatch(/script-src/);
      const page = await response.text();
      expect(page).toContain('<link rel="stylesheet" href="/developers/app.css">');
      expect(page).toContain(`<code id="authorization-error-code">${code}</code>`);
      expect(page).not.toContain('<script');
    }
    // An API client that asks for JSON still gets JSON.
    const json = await checkedFetch(wrongRedirect, { redirect: 'manual', headers: { Accept: 'application/json' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });
});

describe('consent', () => {
  it('is bound to the browser that started the authorization: a stranger’s request sent to a signed-in person cannot be approved', async () => {
    const app = await registeredApp(server);
    // The attacker's browser, with no session, starts an authorization with its own PKCE challenge.
    const request = await authorizationRequest(app.as, app.client, 'publishing:write');
    const attacker = browserAt(server);
    const consentPage = await attacker.visit(request.url.href);
    const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent')!;
    expect(consentId).toEqual(expect.any(String));

    // The victim opens the link in their own browser: the request is not theirs to see or answer.
    const victim = await personOf(server, 'ada@demo.example.com');
    const victimBrowser = browserAt(server);
    const shown = await sdk.getConsentRequest({
      client: victim.client,
      headers: { cookie: inBrowser(victim, victimBrowser) },
      path: { consentId },
    });
    expect(shown.response.status).toBe(404);
    const answered = await answerInBrowser(victim, victimBrowser, consentId, {
      approve: true,
      sites: [{ id: 1, access: 'write' }],
    });
    expect(answered.response.status).toBe(404);

    // The attacker resumes: no code comes back, only the consent page again.
    const resumed = await attacker.visit(`/oauth2/authorize/${consentId}`);
    expect(resumed.searchParams.get('code')).toBeNull();
    expect(resumed.pathname).toBe('/developers');

    // The same person in the browser that started it is asked, and answered.
    const ownBrowser = browserAt(server);
    const own = await ownBrowser.visit((await authorizationRequest(app.as, app.client, 'publishing:write')).url.href);
    const ownId = new URLSearchParams(own.hash.slice(1)).get('consent')!;
    const seen = await sdk.getConsentRequest({
      client: victim.client,
      headers: { cookie: inBrowser(victim, ownBrowser) },
      path: { consentId: ownId },
    });
    expect(seen.data).toMatchObject({
      application: { id: app.client.client_id },
      redirect_uri: 'http://127.0.0.1:8799/callback',
    });
    // Another browser's cookie for this request is no key to the stranger's.
    const crossed = await answerInBrowser(victim, ownBrowser, consentId, {
      approve: true,
      sites: [{ id: 1, access: 'write' }],
    });
    expect(crossed.response.status).toBe(404);
  });
});

describe('refresh tokens', () => {
  it('rotate: each use gives a new one, and using a replaced one revokes the grant', async () => {
    const { app, tokens } = await tokensFor('eddie@demo.example.com', 'publishing:read', [{ id: 1, access: 'read' }]);
    const first = tokens.refresh_token!;
    const renewed = await refresh(app, first);
    expect(renewed.refresh_token).toEqual(expect.any(String));
    expect(renewed.refresh_token).not.toBe(first);
    expect((await readAs(renewed.access_token)).status).toBe(200);

    await expect(refresh(app, first)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(refresh(app, renewed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('rotate once when many requests present one at once: one gets the next, the others are refused, and the grant ends', async () => {
    const { app, tokens } = await tokensFor('eddie@demo.example.com', 'publishing:read', [{ id: 1, access: 'read' }]);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        oauth.refreshTokenGrantRequest(app.as, app.client, oauth.None(), tokens.refresh_token!, requestOptions),
      ),
    );
    const renewed = await issuedOnce(answers);
    await expect(refresh(app, renewed.refresh_token)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await readAs(renewed.access_token)).status).toBe(401);
  });
});

describe('scopes and roles', () => {
  it('read access to a site reads but never writes, even for its administrator', async () => {
    const { tokens } = await tokensFor('ada@demo.example.com', 'publishing:read', [{ id: 1, access: 'write' }]);
    expect((await readAs(tokens.access_token)).status).toBe(200);
    expect((await trashAs(tokens.access_token)).status).toBe(403);
  });

  it('write access gives no more than the person’s role: a subscriber still may not trash', async () => {
    const { tokens } = await tokensFor('sam@demo.example.com', 'publishing:write', [{ id: 1, access: 'write' }]);
    expect((await trashAs(tokens.access_token)).status).toBe(403);
  });

  it('a token of the profile scope alone is no publishing token', async () => {
    const { tokens } = await tokensFor('ada@demo.example.com', 'profile', []);
    expect((await readAs(tokens.access_token)).status).toBe(401);
  });
});

describe('revocation', () => {
  it('by the app (RFC 7009) ends the token at once on this instance, though it was remembered', async () => {
    const { app, tokens } = await tokensFor('ada@demo.example.com', 'publishing:write', [{ id: 1, access: 'write' }]);
    // Used first, so this instance remembers it (ACCESS_TOKEN_CACHE_MS): the revocation must still end it at once here.
    expect((await readAs(tokens.access_token)).status).toBe(200);
    const response = await oauth.revocationRequest(
      app.as,
      app.client,
      oauth.None(),
      tokens.access_token,
      requestOptions,
    );
    await oauth.processRevocationResponse(response);
    expect((await readAs(tokens.access_token)).status).toBe(401);
  });

  it('by the person on the dashboard ends the app’s tokens at once, and lists it no more', async () => {
    const { app, person, tokens } = await tokensFor('ada@demo.example.com', 'publishing:write', [
      { id: 1, access: 'write' },
    ]);
    expect((await trashAs(tokens.access_token)).status).toBe(200);
    const listed = await sdk.listAuthorizations({ client: person.client });
    expect(listed.data?.authorizations.map((authorization) => authorization.application_id)).toContain(
      app.client.client_id,
    );
    const revoked = await sdk.revokeAuthorization({
      client: person.client,
      headers: person.csrf,
      path: { applicationId: app.client.client_id },
    });
    expect(revoked.response.status).toBe(204);
    expect((await restoreAs(tokens.access_token)).status).toBe(401);
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    const after = await sdk.listAuthorizations({ client: person.client });
    expect(after.data?.authorizations.map((authorization) => authorization.application_id)).not.toContain(
      app.client.client_id,
    );
  });

  // These two wait out this instance's memory of tokens (ACCESS_TOKEN_CACHE_MS), side by side: other people, other apps.
  it.concurrent('by another app leaves the token alone: answered 200 (RFC 7009), and the token still works', async () => {
    const { app, tokens } = await tokensFor('ada@demo.example.com', 'publishing:read', [{ id: 1, access: 'read' }]);
    const stranger = await registeredApp(server);
    for (const token of [tokens.access_token, tokens.refresh_token!]) {
      const response = await oauth.revocationRequest(stranger.as, stranger.client, oauth.None(), token, requestOptions);
      await oauth.processRevocationResponse(response);
    }
    await new Promise((resolve) => setTimeout(resolve, server.config.publishing.accessTokenCacheMs + 200));
    expect((await readAs(tokens.access_token)).status).toBe(200);
    expect((await refresh(app, tokens.refresh_token!)).access_token).toEqual(expect.any(String));
  });

  it.concurrent('of the person by the operator (`tokens revoke --user`) ends every app’s tokens for them', async () => {
    const { tokens } = await tokensFor('cora@demo.example.com', 'publishing:read', [{ id: 1, access: 'read' }]);
    expect((await readAs(tokens.access_token)).status).toBe(200);
    const outcome = await adminInProcess(
      server.built.db as Kysely<Database>,
      'tokens',
      'revoke',
      '--user',
      'contributor',
    );
    expect(outcome.stdout).toContain('1 app authorization revoked');
    await new Promise((resolve) => setTimeout(resolve, server.config.publishing.accessTokenCacheMs + 200));
    expect((await readAs(tokens.access_token)).status).toBe(401);
  });
});
