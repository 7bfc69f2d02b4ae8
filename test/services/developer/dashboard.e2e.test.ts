// @store-independent: a journey in Chromium, on SQLite; each request it makes is one the API suites send on both stores
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { launchBrowser } from '../../support/browser.js';
import type { TestServer } from '../../support/server.js';
import {
  GOOD_PASSWORD,
  profileWithKey,
  startDashboardServer,
  uniqueEmail,
  verifyAddress,
} from './support/dashboard.js';

/**
 * The dashboard page in headless Chromium (`CHROMIUM_PATH`, else the build
 * that `@sparticuz/chromium` ships in its npm package, driven by
 * playwright-core; no browser is ever downloaded): sign up, create an
 * application, read the key from the page, call the Profiles API with it,
 * revoke it through the page and see it refused; plus screenshots.
 */
const backend = (process.env.TEST_DATABASE_URL ?? 'sqlite').startsWith('postgres') ? 'postgres' : 'sqlite';
const screenshots = join(projectRoot, '.tmp', 'screenshots');

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startDashboardServer();
  browser = await launchBrowser();
  context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const openDashboard = async (target: Page = page) => {
  await target.goto(`${server.url}/developers`);
  await target.locator('html[data-ready="true"]').waitFor();
};

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string) {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bytes: bytes.length };
}

describe('an anonymous visit', () => {
  it('logs no console error: the session read answers 204 without a cookie, not a 401', async () => {
    const anonymous = await browser.newContext();
    const fresh = await anonymous.newPage();
    const problems: string[] = [];
    const sessionReads: number[] = [];
    fresh.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    fresh.on('pageerror', (error) => problems.push(error.message));
    fresh.on(
      'response',
      (response) => response.url().endsWith('/developer/v1/session') && sessionReads.push(response.status()),
    );
    await openDashboard(fresh);
    await fresh.locator('#log-in-form').waitFor();
    expect(sessionReads).toEqual([204]);
    expect(problems).toEqual([]);
    await anonymous.close();
  });
});

describe('the dashboard in a browser', () => {
  const email = uniqueEmail('browser');
  let key = '';

  it('signs up', async () => {
    await openDashboard();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Build with Profiles and Publishing',
    );
    const form = page.locator('#sign-up-form');
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password').fill(GOOD_PASSWORD);
    await form.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    await expect(page.locator('#account-email').textContent()).resolves.toBe(email);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your account');
    // Waits for the text to be shown, and fails when it never is.
    await page.getByText('No applications yet.').waitFor({ state: 'visible', timeout: 5000 });
    // As following the emailed link would (email.test.ts follows real links): applications need it.
    await verifyAddress(server, email);
  });

  it('creates an application and shows its key once, with a note and a working Copy button', async () => {
    const form = page.locator('#create-form');
    await form.getByLabel('Name').fill('Weather widget');
    await form.getByLabel('Description').fill('Shows the author of each forecast.');
    await form.getByLabel('Website URL').fill('https://weather.example.com');
    await form.getByRole('button', { name: 'Create application' }).click();

    const panel = page.getByRole('region', { name: 'New API key for Weather widget' });
    await panel.waitFor();
    await expect(panel.textContent()).resolves.toContain('you will not see it again');
    const field = panel.getByLabel('API key', { exact: true });
    expect(await field.getAttribute('readonly')).not.toBeNull();
    key = await field.inputValue();
    expect(key).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    // Focus moves to the key, so a screen reader reads it out.
    // Page expressions are strings: the server's type check has no DOM library.
    expect(await page.evaluate('document.activeElement?.id')).toBe('new-key');

    await panel.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Key copied to the clipboard.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);

    const row = page.getByRole('row').filter({ hasText: key.slice(0, 11) });
    await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
      `${key.slice(0, 11)}…`,
      'Active',
      expect.stringMatching(/2\d{3}/),
      'Never',
      'Revoke',
    ]);
    await page.screenshot({ path: join(screenshots, `developers-new-key-${backend}.png`), fullPage: true });
  });

  it('the key gets the full profile from the Profiles API', async () => {
    const answer = await profileWithKey(server, key);
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveProperty('links');
  });

  it('never shows the key again, and lists its prefix, creation and last use', async () => {
    await openDashboard();
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('#new-key').isHidden()).toBe(true);
    const row = page.getByRole('row').filter({ hasText: `${key.slice(0, 11)}…` });
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toBe(`${key.slice(0, 11)}…`);
    expect(cells[1]).toBe('Active');
    expect(cells[2]).toMatch(/\d{4}/);
    expect(cells[3]).not.toBe('Never');
    expect(await row.locator('time').count()).toBe(2);
  });

  it('revokes the key after a confirmation, and the Profiles API answers it as anonymous', async () => {
    await page.getByRole('button', { name: `Revoke key ${key.slice(0, 11)}… of Weather widget` }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke key ${key.slice(0, 11)}…?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'revoked' }).waitFor();
    await expect(
      page
        .getByRole('row')
        .filter({ hasText: key.slice(0, 11) })
        .textContent(),
    ).resolves.toContain('Revoked');

    const answer = await profileWithKey(server, key);
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('links');
  });

  it('does nothing when the confirmation is cancelled with Escape', async () => {
    await page.getByRole('button', { name: 'Delete application Weather widget' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { name: 'Weather widget', level: 3 }).count()).toBe(1);
  });

  it('rotates: a new key is shown once and works; the application can then be deleted', async () => {
    await page.getByRole('button', { name: 'Rotate key of Weather widget' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    const field = page
      .getByRole('region', { name: 'New API key for Weather widget' })
      .getByLabel('API key', { exact: true });
    await field.waitFor();
    const rotated = await field.inputValue();
    expect(rotated).toMatch(/^pk_/);
    expect(rotated).not.toBe(key);
    expect((await profileWithKey(server, rotated)).body).toHaveProperty('links');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByLabel('API key', { exact: true }).inputValue()).toBe('');

    await page.getByRole('button', { name: 'Delete application Weather widget' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete application' }).click();
    await page.getByText('No applications yet.').waitFor();
    expect((await profileWithKey(server, rotated)).body).not.toHaveProperty('links');
  });

  it('logs out, refuses a wrong password with a message, and logs in with the keyboard alone', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Log in', level: 2 }).waitFor();
    const form = page.locator('#log-in-form');
    await form.getByLabel('Email address').fill(email);
    await form.getByLabel('Password').fill('not my password at all');
    await form.getByLabel('Password').press('Enter');
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Email address or password is incorrect');

    await form.getByLabel('Password').fill(GOOD_PASSWORD);
    await form.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    expect(await page.getByRole('alert').isHidden()).toBe(true);
  });

  it('keeps the session cookie out of reach of scripts', async () => {
    expect(await page.evaluate('document.cookie')).toBe('');
    const cookies = await context.cookies(server.url);
    expect(cookies.find((cookie) => cookie.name === 'dev_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
  });

  it('loads nothing from another origin and breaks no Content-Security-Policy rule', async () => {
    const fresh = await context.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    fresh.on('request', (request) => requests.push(request.url()));
    fresh.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    fresh.on('pageerror', (error) => problems.push(error.message));
    await openDashboard(fresh);
    expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
    expect(problems).toEqual([]);
    await fresh.close();
  });

  it('changes the password with the current one, and stays logged in', async () => {
    const form = page.locator('#password-form');
    await form.getByLabel('Current password').fill(GOOD_PASSWORD);
    await form.getByLabel('New password').fill('purple walrus ladder 77');
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
    await expect(page.locator('#account-email').textContent()).resolves.toBe(email);
  });

  it('deletes the account after a confirmation, and shows the log-in form', async () => {
    const form = page.locator('#delete-account-form');
    await form.getByLabel('Current password').fill('purple walrus ladder 77');
    await form.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('status').filter({ hasText: 'Your account is deleted' }).waitFor();
    await page.getByRole('heading', { name: 'Log in', level: 2 }).waitFor();
    const { id } = (await server.built.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst()) ?? { id: undefined };
    expect(id).toBeUndefined();
  });
});

describe('screenshots', () => {
  it('render the page at desktop and phone sizes', async () => {
    const owner = uniqueEmail('screenshots');
    const wide = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: 'light',
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    const desktop = await wide.newPage();
    await openDashboard(desktop);
    const signUp = desktop.locator('#sign-up-form');
    await signUp.getByLabel('Email address').fill(owner);
    await signUp.getByLabel('Password').fill(GOOD_PASSWORD);
    await signUp.getByRole('button', { name: 'Create account' }).click();
    await desktop.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    await verifyAddress(server, owner);
    const form = desktop.locator('#create-form');
    for (const [name, site] of [
      ['Weather widget', 'https://weather.example.com'],
      ['Team directory', 'https://directory.example.org'],
    ] as const) {
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Description').fill(`${name}: shows profiles of the people behind it.`);
      await form.getByLabel('Website URL').fill(site);
      await form.getByRole('button', { name: 'Create application' }).click();
      await desktop.getByRole('heading', { name, level: 3 }).waitFor();
    }
    await desktop.getByRole('button', { name: 'Rotate key of Team directory' }).click();
    await desktop.getByRole('dialog').getByRole('button', { name: 'Rotate key' }).click();
    await desktop.getByRole('status').filter({ hasText: 'New key issued' }).waitFor();
    const desktopFile = join(screenshots, `developers-desktop-${backend}.png`);
    await desktop.screenshot({ path: desktopFile, fullPage: true });
    await wide.close();

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      colorScheme: 'dark',
    });
    const mobile = await phone.newPage();
    await openDashboard(mobile);
    await mobile.screenshot({ path: join(screenshots, `developers-phone-signed-out-${backend}.png`), fullPage: true });
    const logIn = mobile.locator('#log-in-form');
    await logIn.getByLabel('Email address').fill(owner);
    await logIn.getByLabel('Password').fill(GOOD_PASSWORD);
    await logIn.getByRole('button', { name: 'Log in' }).click();
    await mobile.getByRole('heading', { name: 'Team directory', level: 3 }).waitFor();
    const phoneFile = join(screenshots, `developers-phone-${backend}.png`);
    await mobile.screenshot({ path: phoneFile, fullPage: true });
    await phone.close();

    const desktopShot = pngSize(desktopFile);
    expect(desktopShot.width).toBe(1280);
    expect(desktopShot.height).toBeGreaterThanOrEqual(860);
    expect(desktopShot.bytes).toBeGreaterThan(30_000);
    expect(desktopShot.bytes).toBeLessThan(5_000_000);
    const phoneShot = pngSize(phoneFile);
    expect(phoneShot.width).toBe(780);
    expect(phoneShot.bytes).toBeGreaterThan(20_000);
  });
});
