import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../../generated/developer/sdk.gen.js';
import type { TestServer } from '../../support/server.js';
import { signedUpUser } from '../../services/developer/support/dashboard.js';
import {
  answerInBrowser,
  authorizationRequest,
  browserAt,
  inBrowser,
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

/** An app's authorization request for `scope`, followed by a browser to the consent page: its id and the browser. */
async function pendingConsent(scope: string) {
  const app = await registeredApp(server);
  const request = await authorizationRequest(app.as, app.client, scope);
  const browser = browserAt(server);
  const consentPage = await browser.visit(request.url.href);
  const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent')!;
  expect(consentId).toEqual(expect.any(String));
  return { app, request, browser, consentId };
}

describe('an approval of a publishing scope', () => {
  it('with no site picked is refused with a message saying so, and the request still waits for an answer', async () => {
    const { app, request, browser, consentId } = await pendingConsent('publishing:write');
    const ada = await personOf(server, 'ada@demo.example.com');
    const none = await answerInBrowser(ada, browser, consentId, { approve: true, sites: [] });
    expect(none.response.status).toBe(400);
    expect(none.error).toMatchObject({
      code: 'invalid_request',
      error: expect.stringMatching(/^Pick at least one site/),
    });
    const missing = await answerInBrowser(ada, browser, consentId, { approve: true });
    expect(missing.response.status).toBe(400);

    // The same person, now picking a site, is answered: the app's token uses that site.
    const picked = await answerInBrowser(ada, browser, consentId, {
      approve: true,
      sites: [{ id: 2, access: 'read' }],
    });
    expect(picked.response.status).toBe(200);
    const callback = await browser.visit(picked.data!.redirect_to);
    const tokens = await redeem(app, callback, request.state, request.codeVerifier);
    expect(tokens).toMatchObject({ blog_id: '2', blog_url: 'https://demo.example.com/blog' });
  });

  it('picking only sites the person has no role on is refused the same way', async () => {
    const { browser, consentId } = await pendingConsent('publishing:read');
    const newcomer = await signedUpUser(server);
    const person = await personOf(server, newcomer.email);
    // A new account's own site is not site 1: the demo's site is not theirs to grant.
    const elsewhere = await answerInBrowser(person, browser, consentId, {
      approve: true,
      sites: [{ id: 1, access: 'read' }],
    });
    expect(elsewhere.response.status).toBe(400);
    expect(elsewhere.error).toMatchObject({ code: 'invalid_request' });
  });

  it('is not needed to refuse, nor for a request of the profile alone', async () => {
    const ada = await personOf(server, 'ada@demo.example.com');
    const refused = await pendingConsent('publishing:write');
    const denied = await answerInBrowser(ada, refused.browser, refused.consentId, { approve: false });
    expect(denied.response.status).toBe(200);
    expect(new URL(await refused.browser.visit(denied.data!.redirect_to)).searchParams.get('error')).toBe(
      'access_denied',
    );
    const profile = await pendingConsent('profile');
    const allowed = await answerInBrowser(ada, profile.browser, profile.consentId, { approve: true, sites: [] });
    expect(allowed.response.status).toBe(200);
  });
});

describe('the consent request', () => {
  it('of `scope=openid` alone says the app signs the person in, with no other scope', async () => {
    const { browser, consentId } = await pendingConsent('openid');
    const ada = await personOf(server, 'ada@demo.example.com');
    const shown = await sdk.getConsentRequest({
      client: ada.client,
      headers: { cookie: inBrowser(ada, browser) },
      path: { consentId },
    });
    expect(shown.response.status).toBe(200);
    expect(shown.data).toMatchObject({ openid: true, scopes: [] });
  });

  it('without openid says so', async () => {
    const { browser, consentId } = await pendingConsent('profile publishing:read');
    const ada = await personOf(server, 'ada@demo.example.com');
    const shown = await sdk.getConsentRequest({
      client: ada.client,
      headers: { cookie: inBrowser(ada, browser) },
      path: { consentId },
    });
    expect(shown.data).toMatchObject({ openid: false, scopes: ['profile', 'publishing:read'] });
  });
});

/**
 * Issue 52, item 9: a consent answer naming one site twice (which access
 * would it get?) is a 400 that grants nothing, and the request stays open
 * for a good answer; it was a 500 that left a grant without sites.
 */
describe('a consent answer naming a site twice', () => {
  it('is refused with 400 and grants nothing; the same request then takes a good answer', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const request = await authorizationRequest(app.as, app.client, 'publishing:write');
    const browser = browserAt(server);
    const consentPage = await browser.visit(request.url.href);
    const consentId = new URLSearchParams(consentPage.hash.slice(1)).get('consent')!;
    expect(consentId).toBeTruthy();

    const twice = await answerInBrowser(ada, browser, consentId, {
      approve: true,
      sites: [
        { id: 1, access: 'read' },
        { id: 1, access: 'write' },
      ],
    });
    expect(twice.response.status).toBe(400);
    expect(twice.error).toMatchObject({ code: 'invalid_request' });
    expect(JSON.stringify(twice.error)).toContain('Site 1 is named more than once');
    const db = server.built.db;
    const grants = () =>
      db
        .selectFrom('oauth_records')
        .select('grant_id')
        .where('model', '=', 'Grant')
        .where('client_id', '=', app.client.client_id)
        .execute();
    expect(await grants()).toEqual([]);

    const good = await answerInBrowser(ada, browser, consentId, { approve: true, sites: [{ id: 1, access: 'write' }] });
    expect(good.response.status).toBe(200);
    const callback = await browser.visit(good.data!.redirect_to);
    const tokens = await redeem(app, callback, request.state, request.codeVerifier);
    expect(tokens).toMatchObject({ blog_id: '1' });
    const [grant] = await grants();
    expect(
      await db
        .selectFrom('oauth_grant_sites')
        .select(['site_id', 'access'])
        .where('grant_id', '=', grant!.grant_id!)
        .execute(),
    ).toEqual([{ site_id: 1, access: 'write' }]);
  });
});
