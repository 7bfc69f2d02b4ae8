// @store-independent: a journey in Chromium, on SQLite; each request it makes is one the API suites send on both stores
import { createServer } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DEMO_PASSWORD } from '../../../src/services/developer/demo.js';
import { launchBrowser } from '../../support/browser.js';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { freePort } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import { GOOD_PASSWORD, startDashboardServer, uniqueEmail } from './support/dashboard.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';

/**
 * Issue 44's journey, from the docs alone, in headless Chromium on a fresh store: a developer signs up on the
 * dashboard, verifies the address from the mail, creates an application and sets its redirect URI and origin in
 * the page; the app (openid-client: discovery, PKCE, at 127.0.0.1) signs a demo person in from a page of its own,
 * reads `/me` and `/me/sites`, creates and publishes a post with the token, refreshes, revokes.
 *
 * Run twice: as the README starts the server (no `PUBLIC_URL`, reached at 127.0.0.1: discovery needs the issuer
 * and endpoints at the address the app used, the `oauthsec` branch's "one origin" fix), and with `PUBLIC_URL`
 * set to that address as docs/configuration.md says a deployment sets it.
 */
let mailbox: Mailbox;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mailbox = await startMailbox();
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await mailbox?.close();
});

/** A page in a browser of its own (own cookies), whose console errors and page errors are collected. */
async function newPage(problems: string[]): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  contexts.push(context);
  const page = await context.newPage();
  // No console error at all: a signed-out browser's session read is answered 204, not a 401 it would log.
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return page;
}

describe.each([
  ['as the README starts it (no PUBLIC_URL)', false],
  ['with PUBLIC_URL set to its address', true],
])('a first app, %s', (_how, withPublicUrl) => {
  let server: TestServer;
  let base: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startDashboardServer({
      SMTP_URL: mailbox.url,
      PORT: String(port),
      ...(withPublicUrl ? { PUBLIC_URL: base } : {}),
    });
  });
  afterAll(() => server?.close());

  it('signs up, registers an app in the page, signs a demo person in with openid-client, publishes, refreshes, revokes, then signs in with scope=openid (a validated ID token)', async () => {
    const problems: string[] = [];
    const call = contractFetch(await contractChecker());

    // 1. The developer: sign up, verify from the mail, create an application with a redirect URI and an origin.
    const developer = await newPage(problems);
    await developer.goto(`${base}/developers`);
    await developer.locator('html[data-ready="true"]').waitFor();
    const email = uniqueEmail('first-app');
    const signUp = developer.locator('#sign-up-form');
    await signUp.getByLabel('Email address').fill(email);
    await signUp.getByLabel('Password').fill(GOOD_PASSWORD);
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await developer.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    // The sign-up ends with its welcome: a link opened in this tab before it would have its notice replaced by that one.
    await developer.getByText(`Your account ${email} is ready`).waitFor();
    const { link } = await mailbox.nextLink(email, 'verify');
    expect(new URL(link).origin).toBe(base);
    await developer.goto(link);
    await developer.getByText(`Your address ${email} is verified`).waitFor();

    const create = developer.locator('#create-form');
    await create.getByLabel('Name').fill('Harbour notes');
    await create.getByLabel('Website URL').fill('https://notes.example.com');
    await create.getByRole('button', { name: 'Create application' }).click();
    const settings = developer.locator('form.oauth-settings');
    await settings.waitFor();
    const appPort = await freePort();
    const redirectUri = `http://127.0.0.1:${appPort}/callback`;
    // The app's callback page (the app is this test): each redirect ends on a page rather than a browser error page,
    // whose late navigation could cut into the next one.
    const app = createServer((_req, res) => res.end('signed in')).listen(appPort, '127.0.0.1');
    onTestFinished(() => void app.close());
    await settings.getByLabel('Redirect URIs').fill(redirectUri);
    await settings.getByLabel('JavaScript origins').fill(`http://127.0.0.1:${appPort}`);
    await settings.getByRole('button', { name: 'Save OAuth settings' }).click();
    await developer.getByText('OAuth settings of Harbour notes saved.').waitFor();
    // Read back after a reload, and the client_id copied from the page.
    await developer.reload();
    await developer.locator('html[data-ready="true"]').waitFor();
    await expect
      .poll(() => developer.locator('form.oauth-settings').getByLabel('Redirect URIs').inputValue(), {
        timeout: 10_000,
      })
      .toBe(redirectUri);
    const clientId = await developer.locator('form.oauth-settings input.client-id').inputValue();
    expect(clientId).toMatch(/^[0-9a-f-]{36}$/);

    // 2. The app: discovery at the address it was given (depends on the oauthsec branch without PUBLIC_URL), PKCE.
    const config = await client.discovery(new URL(`${base}/oauth2`), clientId, undefined, client.None(), {
      execute: [client.allowInsecureRequests],
    });
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'publishing:write',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    });

    // 3. The person, in a browser of their own: the documented demo log-in, then the consent page.
    const person = await newPage(problems);
    await person.goto(authorizationUrl.href);
    const logIn = person.locator('#log-in-form');
    await logIn.waitFor();
    await logIn.getByLabel('Email address').fill('ada@demo.example.com');
    await logIn.getByLabel('Password').fill(DEMO_PASSWORD);
    await logIn.getByRole('button', { name: 'Log in' }).click();
    const consent = person.locator('#consent-form');
    await consent.waitFor();
    await expect(person.locator('#status').textContent()).resolves.toBe('');
    await consent.getByRole('checkbox', { name: /Harbour Town Demo/ }).check();
    const [callback] = await Promise.all([
      person.waitForRequest((sent) => sent.url().startsWith(redirectUri)),
      consent.getByRole('button', { name: 'Allow' }).click(),
    ]);

    await person.waitForURL(`${redirectUri}**`);

    // 4. The code, redeemed; the token names the site.
    const tokens = await client.authorizationCodeGrant(config, new URL(callback.url()), {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    });
    expect(tokens).toMatchObject({ blog_id: '1', blog_url: 'https://demo.example.com' });
    const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

    // 5. Who signed in, and where.
    const me = await call(`${base}/rest/v1.1/me`, { headers: bearer(tokens.access_token) });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'admin', email: 'ada@demo.example.com', primary_blog: 1 });
    const sites = await call(`${base}/rest/v1.1/me/sites`, { headers: bearer(tokens.access_token) });
    expect(((await sites.json()) as { sites: { ID: number }[] }).sites.map((site) => site.ID)).toEqual([1]);

    // 6. Create and publish a post with the token.
    const created = await call(`${base}/rest/v1.1/sites/1/posts/new`, {
      method: 'POST',
      headers: { ...bearer(tokens.access_token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Hello from Harbour notes', content: 'Written by an app.', status: 'draft' }),
    });
    expect(created.status).toBe(200);
    const post = (await created.json()) as { ID: number; status: string };
    expect(post.status).toBe('draft');
    const published = await call(`${base}/rest/v1.1/sites/1/posts/${post.ID}`, {
      method: 'POST',
      headers: { ...bearer(tokens.access_token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'publish' }),
    });
    expect(published.status).toBe(200);
    expect(await published.json()).toMatchObject({ ID: post.ID, status: 'publish' });
    expect((await call(`${base}/rest/v1.1/sites/1/posts/${post.ID}`)).status).toBe(200);

    // 7. Refresh: a new pair; the new access token works.
    const renewed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(`${base}/rest/v1.1/me`, { headers: bearer(renewed.access_token) })).status).toBe(200);

    // 8. Revoke (sign-out): the grant's tokens stop working.
    await client.tokenRevocation(config, renewed.refresh_token!);
    expect((await call(`${base}/rest/v1.1/me`, { headers: bearer(renewed.access_token) })).status).toBe(401);

    // 9. The same app with `scope=openid`: the person, still logged in, consents once more; openid-client checks the
    // ID token's claims (issuer, audience, nonce, times) and, with non-repudiation checks on, its signature against
    // the server's published keys.
    client.enableNonRepudiationChecks(config);
    const oidcVerifier = client.randomPKCECodeVerifier();
    const oidcState = client.randomState();
    const nonce = client.randomNonce();
    await person.goto(
      client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid publishing:read',
        code_challenge: await client.calculatePKCECodeChallenge(oidcVerifier),
        code_challenge_method: 'S256',
        state: oidcState,
        nonce,
      }).href,
    );
    const oidcConsent = person.locator('#consent-form');
    await oidcConsent.waitFor();
    const [oidcCallback] = await Promise.all([
      person.waitForRequest((sent) => sent.url().startsWith(redirectUri)),
      oidcConsent.getByRole('button', { name: 'Allow' }).click(),
    ]);
    const signedIn = await client.authorizationCodeGrant(config, new URL(oidcCallback.url()), {
      pkceCodeVerifier: oidcVerifier,
      expectedState: oidcState,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = signedIn.claims()!;
    expect(claims).toMatchObject({ iss: `${base}/oauth2`, aud: clientId, nonce, sub: expect.any(String) });
    expect((await client.fetchUserInfo(config, signedIn.access_token, claims.sub)).sub).toBe(claims.sub);

    expect(problems).toEqual([]);
    // A ceiling, not a bound: two browsers and two whole authorizations, on a loaded machine past the default 60 s.
  }, 180_000);
});
