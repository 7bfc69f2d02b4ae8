// @store-independent: a journey in Chromium, on SQLite; each request it makes is one the API suites send on both stores
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../scripts/tools.js';
import { launchBrowser } from '../../support/browser.js';
import { freePort } from '../../support/processes.js';
import type { TestServer } from '../../support/server.js';
import { GOOD_PASSWORD, startDashboardServer, uniqueEmail, verifyAddress } from './support/dashboard.js';
import { startMailbox, type Mailbox } from './support/mailbox.js';

/**
 * Getting back into an account through the dashboard page in headless
 * Chromium (see dashboard.e2e.test.ts for the browser), with mail delivered
 * to a real SMTP server in this process: the emailed links are opened in the
 * browser as they are written, so the server's `PUBLIC_URL` is its own address.
 */
const backend = (process.env.TEST_DATABASE_URL ?? 'sqlite').startsWith('postgres') ? 'postgres' : 'sqlite';
const screenshots = join(projectRoot, '.tmp', 'screenshots');

let mailbox: Mailbox;
let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  mailbox = await startMailbox();
  const port = await freePort();
  server = await startDashboardServer({
    SMTP_URL: mailbox.url,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await mailbox?.close();
});

/** A page in a browser of its own (own cookies): another device of the same person. */
async function newDevice(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    colorScheme: 'light',
    locale: 'en-GB',
    timezoneId: 'UTC',
  });
  contexts.push(context);
  return context.newPage();
}

const openDashboard = async (page: Page, url = `${server.url}/developers`) => {
  await page.goto(url);
  await page.locator('html[data-ready="true"]').waitFor();
};

async function signUp(page: Page, email: string) {
  await openDashboard(page);
  const form = page.locator('#sign-up-form');
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel('Password').fill(GOOD_PASSWORD);
  await form.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
}

async function logIn(page: Page, email: string, password: string) {
  const form = page.locator('#log-in-form');
  await form.getByLabel('Email address').fill(email);
  await form.getByLabel('Password').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

describe('password reset in the browser', () => {
  it('asks for a link from the log-in page, opens the emailed link, sets a new password, logs in with it, and the old session has ended', async () => {
    const email = uniqueEmail('forgetful');
    const oldDevice = await newDevice();
    await signUp(oldDevice, email);

    const page = await newDevice();
    await openDashboard(page);
    const forgot = page.locator('#forgot-form');
    await forgot.getByLabel('Email address').fill(email);
    await forgot.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByRole('status').filter({ hasText: 'we sent it a link to set a new password' }).waitFor();

    const { link } = await mailbox.nextLink(email, 'reset');
    expect(link.startsWith(`${server.url}/developers#reset=`)).toBe(true);
    await openDashboard(page, link);
    // The token leaves the address bar (and so the history) as soon as the page has read it.
    expect(page.url()).toBe(`${server.url}/developers`);
    const reset = page.locator('#reset-form');
    await reset.waitFor({ state: 'visible' });
    await page.screenshot({ path: join(screenshots, `developers-reset-${backend}.png`), fullPage: true });

    await reset.getByLabel('New password').fill('password1234');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Choose a harder password');

    const newPassword = 'purple walrus ladder 77';
    await reset.getByLabel('New password').fill(newPassword);
    await reset.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is changed' }).waitFor();
    expect(await reset.isHidden()).toBe(true);

    await logIn(page, email, GOOD_PASSWORD);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Email address or password is incorrect');
    await logIn(page, email, newPassword);
    await page.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    await expect(page.locator('#account-email').textContent()).resolves.toBe(email);
    // The new session is the only one left (the list is fetched after the page shows: wait for it).
    await page.locator('#sessions li').first().waitFor();
    await expect(page.locator('#sessions li').allTextContents()).resolves.toEqual([
      expect.stringContaining('(this browser)'),
    ]);

    await openDashboard(oldDevice);
    await oldDevice.getByRole('heading', { name: 'Log in', level: 2 }).waitFor();
    expect(await oldDevice.locator('#signed-in').isHidden()).toBe(true);
  });
});

describe('email change in the browser', () => {
  it('asks with the current password, opens the link sent to the new address, and logs in with the new address', async () => {
    const email = uniqueEmail('moving');
    const page = await newDevice();
    await signUp(page, email);
    await verifyAddress(server, email);

    const newEmail = uniqueEmail('moved');
    const form = page.locator('#email-form');
    await form.getByLabel('New email address').fill(newEmail);
    await form.getByLabel('Current password').fill(GOOD_PASSWORD);
    await form.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `We sent a link to ${newEmail}` })
      .waitFor();
    await expect(page.locator('#account-email').textContent()).resolves.toBe(email);

    const { link } = await mailbox.nextLink(newEmail, 'email');
    // Opened in the tab where the dashboard is open: only the fragment changes.
    await page.goto(link);
    await page
      .getByRole('status')
      .filter({ hasText: `Your address is now ${newEmail}` })
      .waitFor();
    await page.getByRole('heading', { name: 'Log in', level: 2 }).waitFor();

    await logIn(page, newEmail, GOOD_PASSWORD);
    await page.getByRole('heading', { name: 'Your applications', level: 1 }).waitFor();
    await expect(page.locator('#account-email').textContent()).resolves.toBe(newEmail);
    expect(await page.locator('#verify-banner').isHidden()).toBe(true);
    await page.screenshot({ path: join(screenshots, `developers-email-changed-${backend}.png`), fullPage: true });
  });
});
