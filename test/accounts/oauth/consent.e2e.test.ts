// @store-independent
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import wpcomModule from 'wpcom';
import wpcomXhrRequest, { type XhrRequestParams } from 'wpcom-xhr-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.js';
import { projectRoot } from '../../../scripts/tools.js';
import type { TestServer } from '../../support/server.js';
import { signedUpUser } from '../../services/developer/support/dashboard.js';
import {
  authorizationRequest,
  authorizedCallback,
  personOf,
  redeem,
  REDIRECT_URI,
  registeredApp,
  startOAuthServer,
} from './support.js';

/** Where the consent page's screenshots go, to be looked at (git-ignored). */
const screenshots = join(projectRoot, '.tmp', 'screenshots');

/** `wpcom` ships ES modules with CommonJS-style types: at run time its default import is the factory itself. */
const WPCOM = wpcomModule as unknown as typeof wpcomModule.default;

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  server = await startOAuthServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The platform's own client (`wpcom`) with an app's token, its requests sent to this server. */
const wpcom = (token: string) =>
  WPCOM(token, (params: object, callback: Parameters<typeof wpcomXhrRequest>[1]) =>
    wpcomXhrRequest({ ...(params as XhrRequestParams), proxyOrigin: server.url }, callback),
  );

describe('signing in to an app through the consent page, in Chromium', () => {
  it('gives the app a token that trashes and restores a post on the chosen site, and is refused on another', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const context = await browser.newContext();
    await context.addCookies([{ name: 'dev_session', value: ada.cookie()!, url: server.url }]);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });

    const request = await authorizationRequest(app.as, app.client, 'profile publishing:write');
    await page.goto(request.url.href);
    const form = page.locator('#consent-form');
    await form.waitFor();
    await expect(form.locator('#consent-title').textContent()).resolves.toContain('Weather widget');
    await expect(form.locator('#consent-scopes li').count()).resolves.toBe(2);
    await form.getByRole('checkbox', { name: /Harbour Town Demo/ }).check();
    // Nothing listens at the app's redirect URI: the browser's request for it carries the answer.
    const [callback] = await Promise.all([
      page.waitForRequest((sent) => sent.url().startsWith(REDIRECT_URI)),
      form.getByRole('button', { name: 'Allow' }).click(),
    ]);
    expect(problems).toEqual([]);

    const tokens = await redeem(app, new URL(callback.url()), request.state, request.codeVerifier);
    const post = wpcom(tokens.access_token).site('demo.example.com').post(108);
    expect(await post.delete()).toMatchObject({ ID: 108, status: 'trash' });
    expect(await post.restore()).toMatchObject({ ID: 108, status: 'publish' });
    await expect(wpcom(tokens.access_token).site('demo.example.com::blog').post(120).restore()).rejects.toMatchObject({
      statusCode: 403,
    });
    await context.close();
  });
});

describe('an authorization link followed by a person who is not logged in', () => {
  it('shows the log-in, and after it the consent page of that same request, whose answer goes back to the app', async () => {
    const app = await registeredApp(server);
    const person = await signedUpUser(server);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    // No console error at all: a signed-out browser's session read is answered 204, not a 401 it would log.
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const request = await authorizationRequest(app.as, app.client, 'profile');
    await page.goto(request.url.href);
    const logIn = page.locator('#log-in-form');
    await logIn.waitFor();
    await expect(page.locator('#consent-form').count()).resolves.toBe(0);
    const consentId = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('consent');
    expect(consentId).toEqual(expect.any(String));
    await logIn.getByLabel('Email address').fill(person.email);
    await logIn.getByLabel('Password').fill(person.password);
    await logIn.getByRole('button', { name: 'Log in' }).click();

    const form = page.locator('#consent-form');
    await form.waitFor();
    await expect(form.locator('#consent-title').textContent()).resolves.toContain('Weather widget');
    expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('consent')).toBe(consentId);
    // Signed in now: the "log in first" message is gone (after the announcement's own delay too), and so are the forms.
    await page.waitForTimeout(200);
    await expect(page.locator('#status').textContent()).resolves.toBe('');
    await expect(page.locator('#signed-out').isHidden()).resolves.toBe(true);
    const [callback] = await Promise.all([
      page.waitForRequest((sent) => sent.url().startsWith(REDIRECT_URI)),
      form.getByRole('button', { name: 'Allow' }).click(),
    ]);
    expect(problems).toEqual([]);
    // The code is for this request: it redeems with this request's state and verifier.
    const tokens = await redeem(app, new URL(callback.url()), request.state, request.codeVerifier);
    expect(tokens.scope).toBe('profile');
    await context.close();
  });
});

describe('the consent page’s answer buttons', () => {
  it.each([
    ['a wide screen', 'wide', { width: 1280, height: 800 }],
    ['a phone', 'phone', { width: 320, height: 640 }],
  ])(
    'have room on %s: neither overlaps the other, each holds its label, with space between; each site’s box sits beside its name',
    async (_where, name, viewport) => {
      const app = await registeredApp(server);
      const ada = await personOf(server, 'ada@demo.example.com');
      const context = await browser.newContext({ viewport, colorScheme: 'light' });
      await context.addCookies([{ name: 'dev_session', value: ada.cookie()!, url: server.url }]);
      const page = await context.newPage();
      await page.goto((await authorizationRequest(app.as, app.client, 'openid profile publishing:write')).url.href);
      await page.locator('#consent-form').waitFor();
      mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: join(screenshots, `consent-${name}.png`), fullPage: true });
      // Each checkbox: its own small size, left of its site's name and level with its first line, none beyond the page.
      const choices = await page.evaluate(() =>
        [...document.querySelectorAll('#consent-sites label.check')].map((label) => {
          const box = label.querySelector('input')!.getBoundingClientRect();
          const text = label.querySelector('span')!.getBoundingClientRect();
          return { box, text: { left: text.left, top: text.top, right: text.right } };
        }),
      );
      expect(choices).toHaveLength(2);
      for (const { box, text } of choices) {
        expect(box.width).toBeLessThan(32);
        expect(box.right).toBeLessThanOrEqual(text.left);
        expect(Math.abs(box.top - text.top)).toBeLessThan(box.height);
        expect(text.right).toBeLessThanOrEqual(viewport.width);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      const boxes = await page.evaluate(() =>
        ['consent-allow', 'consent-deny'].map((id) => {
          const button = document.getElementById(id)!;
          const { left, right, top, bottom } = button.getBoundingClientRect();
          return {
            left,
            right,
            top,
            bottom,
            fits: button.scrollWidth <= button.clientWidth && button.scrollHeight <= button.clientHeight,
          };
        }),
      );
      const [allow, deny] = boxes as [(typeof boxes)[number], (typeof boxes)[number]];
      expect(allow.fits && deny.fits).toBe(true);
      // Side by side with a gap, or stacked with one.
      const gap = Math.max(deny.left - allow.right, deny.top - allow.bottom);
      expect(gap).toBeGreaterThanOrEqual(8);
      // Inside the page: nothing to scroll sideways for.
      expect(Math.max(allow.right, deny.right)).toBeLessThanOrEqual(viewport.width);
      await context.close();
    },
  );
});

describe('what the consent page says', () => {
  it('names the signed-in account, lists what each scope shares (openid alone too), and picks the first site already', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const context = await browser.newContext();
    await context.addCookies([{ name: 'dev_session', value: ada.cookie()!, url: server.url }]);
    const page = await context.newPage();
    await page.goto((await authorizationRequest(app.as, app.client, 'openid')).url.href);
    const form = page.locator('#consent-form');
    await form.waitFor();
    await expect(form.locator('#consent-account').textContent()).resolves.toBe('Signed in as ada@demo.example.com.');
    await expect(form.locator('#consent-scopes li').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Sign you in: it learns your account’s id/),
    ]);
    await expect(page.locator('#account-email').textContent()).resolves.toBe('ada@demo.example.com');

    await page.goto((await authorizationRequest(app.as, app.client, 'profile publishing:read')).url.href);
    await page.locator('#consent-sites').waitFor();
    await expect(form.locator('#consent-scopes li').count()).resolves.toBe(2);
    await expect(form.getByRole('checkbox', { name: /Harbour Town Demo/ }).isChecked()).resolves.toBe(true);
    await expect(form.getByRole('checkbox', { name: /Harbour Town Blog/ }).isChecked()).resolves.toBe(false);
    await context.close();
  });

  it('with every site unticked, asks for one on Allow and sends nothing', async () => {
    const app = await registeredApp(server);
    const ada = await personOf(server, 'ada@demo.example.com');
    const context = await browser.newContext();
    await context.addCookies([{ name: 'dev_session', value: ada.cookie()!, url: server.url }]);
    const page = await context.newPage();
    const answers: string[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && sent.url().includes('/oauth/consents/')) answers.push(sent.url());
    });
    await page.goto((await authorizationRequest(app.as, app.client, 'publishing:write')).url.href);
    const form = page.locator('#consent-form');
    await form.waitFor();
    await form.getByRole('checkbox', { name: /Harbour Town Demo/ }).uncheck();
    await form.getByRole('button', { name: 'Allow' }).click();
    await expect(form.locator('#consent-site-error').textContent()).resolves.toBe(
      'Pick at least one site the app may use, or Deny.',
    );
    await expect(form.locator('#consent-site-error').isVisible()).resolves.toBe(true);
    expect(answers).toEqual([]);
    await context.close();
  });
});

describe('apps you authorized, on the dashboard', () => {
  it('lists an app once, however many consents the person gave it (one never redeemed)', async () => {
    const app = await registeredApp(server);
    const newcomer = await signedUpUser(server);
    const person = await personOf(server, newcomer.email);
    await authorizedCallback(server, app, person, 'profile', []);
    await authorizedCallback(server, app, person, 'profile', []);
    const context = await browser.newContext();
    await context.addCookies([{ name: 'dev_session', value: person.cookie()!, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/developers`);
    await page.locator('#authorizations').waitFor();
    await expect(page.locator('#authorizations .authorization').count()).resolves.toBe(1);
    await expect(page.locator('#authorizations .authorization strong').textContent()).resolves.toBe('Weather widget');
    await context.close();
  });

  it('names each site the app may use, with its access, not its ID', async () => {
    const app = await registeredApp(server);
    const max = await personOf(server, 'max@demo.example.com');
    await authorizedCallback(server, app, max, 'publishing:read', [{ id: 1, access: 'read' }]);
    const context = await browser.newContext();
    await context.addCookies([{ name: 'dev_session', value: max.cookie()!, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/developers`);
    await page.locator('#authorizations .authorization').waitFor();
    await expect(page.locator('#authorizations .authorization').textContent()).resolves.toContain(
      'publishing:read on Harbour Town Demo (read only)',
    );
    await context.close();
  });
});

describe('an authorization link with a redirect URI the app did not register', () => {
  it('shows the person the dashboard’s error page, in its style, with nothing sent to that address', async () => {
    const app = await registeredApp(server);
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    // The page's own 400 is logged as a failed load of the document itself; anything else (a refused style sheet, a CSP
    // violation) is a problem.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.location().url.includes('/oauth2/authorize'))
        problems.push(`${message.text()} ${message.location().url}`);
    });
    const sentElsewhere: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().startsWith('https://elsewhere.example')) sentElsewhere.push(sent.url());
    });
    const request = await authorizationRequest(app.as, app.client, 'profile');
    request.url.searchParams.set('redirect_uri', 'https://elsewhere.example/callback');
    const response = await page.goto(request.url.href);
    expect(response?.status()).toBe(400);
    await expect(page.title()).resolves.toContain('Developer dashboard');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'This sign-in link does not work',
    );
    await expect(page.locator('#authorization-error-code').textContent()).resolves.toBe('invalid_redirect_uri');
    // The dashboard's style sheet applies (its header is laid out as on the dashboard), and its CSP let nothing fail.
    const header = await page.evaluate(() => getComputedStyle(document.querySelector('.header-row')!).display);
    expect(header).toBe('flex');
    expect(problems).toEqual([]);
    expect(sentElsewhere).toEqual([]);
    await context.close();
  });
});
