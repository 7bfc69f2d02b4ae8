// @store-independent
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { parseYaml } from '../../../scripts/contracts.js';
import { readContract, serverPath } from '../../../scripts/contracts.js';
import { CONTRACTS } from '../../../scripts/tools.js';
import { launchBrowser } from '../../support/browser.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The API docs as a reader meets them in Chromium: each page renders under
 * its own Content-Security-Policy with no console error and no violation,
 * fetches nothing from another origin (no CDN, font or telemetry), shows
 * the origin that serves it as the server, offers the contract to download
 * in YAML and JSON and links its changelog; and its try-it console calls
 * this server with what the reader typed (an identifier, an API key).
 *
 * Loading the reference costs Chromium more CPU than anything a test then
 * does on it, so each contract's page is loaded once for the file and its
 * tests take turns on it (`docsPage`). Each test that checks the trouble
 * checks all of it since the page's first load, so an error while loading
 * still fails the first of them.
 */
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** What went wrong on a page: console errors, uncaught exceptions, CSP violations, requests to another origin. */
interface Trouble {
  errors: string[];
  violations: string[];
  elsewhere: string[];
}

/** The window every docs page opens in; a test that resizes it puts it back. */
const VIEWPORT = { width: 1400, height: 1000 };

interface DocsPage {
  page: Page;
  /** Everything that went wrong on the page since its first load. */
  trouble: Trouble;
}

/** This file's docs pages by contract name, each loaded by the first test that asks for it. */
const docsPages = new Map<string, Promise<DocsPage>>();

/**
 * The docs page of a contract, shared with the file's other tests: a test
 * leaves it as it found it (no dialog open, the same window size), and the
 * one that navigates away comes last and closes it (`closeDocsPage`). A test
 * that fails closes it too, so the next test loads a fresh page instead of
 * meeting whatever state the failure left behind.
 */
function docsPage(name: string): Promise<DocsPage> {
  let opened = docsPages.get(name);
  if (!opened) {
    opened = openDocs(name);
    docsPages.set(name, opened);
  }
  const current = opened;
  onTestFailed(() => closeDocsPage(name, current));
  return current;
}

/** Closes a contract's docs page and forgets it, so a later test would load it anew. */
async function closeDocsPage(name: string, opened: Promise<DocsPage>): Promise<void> {
  if (docsPages.get(name) === opened) docsPages.delete(name);
  const { page } = await opened.catch(() => ({ page: undefined }));
  await page?.close();
}

/** Closes the try-it console a test opened, so the next test on the page meets the reference itself. */
async function closeClient(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'API Client' }).waitFor({ state: 'hidden' });
}

async function openDocs(name: string): Promise<DocsPage> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  const trouble: Trouble = { errors: [], violations: [], elsewhere: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') trouble.errors.push(message.text());
  });
  page.on('pageerror', (error) => trouble.errors.push(error.message));
  page.on('request', (request) => {
    if (
      !request.url().startsWith(`${server.url}/`) &&
      !request.url().startsWith('data:') &&
      !request.url().startsWith('blob:')
    )
      trouble.elsewhere.push(request.url());
  });
  // Reported through a binding, so violations before and after navigation are all counted.
  await page.exposeFunction('reportViolation', (text: string) => trouble.violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      ),
    );
  });
  await page.goto(`${server.url}/docs/${name}`);
  return { page, trouble };
}

/** A contract as its docs page should show it: the contract, its title and version, and the server the page names. */
function fromContract(name: string) {
  const contract = readContract(name);
  const title = (contract.info as { title: string }).title;
  const version = (contract.info as { version: string }).version;
  const served = () =>
    `${server.url}${serverPath((contract.servers as { url: string; variables?: Record<string, { default?: string }> }[])[0]!)}`;
  return { contract, title, version, served };
}

describe.each(CONTRACTS)('the %s docs page', (name) => {
  const { contract, title, served } = fromContract(name);

  it('renders the reference with the serving origin as its server, cleanly: no console error, no CSP violation, nothing from elsewhere', async () => {
    const { page, trouble } = await docsPage(name);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    // The server box of the introduction: the deployment that serves the page, not `{base_url}` or localhost:8080.
    await page.getByText(served(), { exact: true }).first().waitFor();
    expect(await page.getByText('{base_url}').count()).toBe(0);
    // The first operation of the first tag (the group the sidebar opens), with its try-it button and its SDK sample.
    const firstTag = (contract.tags as { name: string }[])[0]!.name;
    const operation = Object.values(contract.paths ?? {})
      .flatMap((item) => Object.values(item) as { operationId?: string; summary?: string; tags?: string[] }[])
      .find((candidate) => candidate?.operationId && candidate.tags?.[0] === firstTag)!;
    await page.getByText(operation.summary!, { exact: true }).first().click({ noWaitAfter: true });
    const section = page.locator('section').filter({ has: page.getByRole('heading', { name: operation.summary! }) });
    await section.getByRole('button', { name: 'Test Request' }).waitFor();
    await section.getByRole('button', { name: 'Shell Curl' }).click();
    await page.getByRole('option', { name: 'TypeScript SDK' }).click();
    await section
      .getByText(`import { createClient, ${operation.operationId} } from '@contract-first/${name}';`)
      .waitFor();
    await section.getByText(`baseUrl: '${served()}'`).waitFor();
    expect(trouble).toEqual({ errors: [], violations: [], elsewhere: [] });
  });
});

describe('the authentication box', () => {
  it.each([1280, 1400])('shows its whole title at %i px, not cut off by the auth type picker', async (width) => {
    const { page } = await docsPage('publishing');
    await page.setViewportSize({ width, height: 900 });
    const title = page.locator('h2', { hasText: 'Authentication' }).filter({ hasText: 'Required' }).first();
    await title.waitFor();
    // The title's box, and the button it is in (which clips what overflows it): all of the title inside.
    const clipped = await title.evaluate((heading) => {
      const button = heading.closest('button')!;
      const inner = heading.getBoundingClientRect();
      const outer = button.getBoundingClientRect();
      return heading.scrollWidth > heading.clientWidth + 1 || inner.right > outer.right + 1;
    });
    expect(clipped).toBe(false);
    await page.setViewportSize(VIEWPORT);
  });
});

describe('the try-it console', () => {
  it('sends only the required parameters until the reader ticks an optional one (no JSONP callback)', async () => {
    // A page of its own, not the shared one: the server refuses the request this test sends, Chromium logs the
    // refusal as a console error, and that error would fail the tests that check the shared page's trouble.
    const { page } = await openDocs('publishing');
    try {
      // A sidebar link: the click changes the page's hash, and Playwright need not wait for that navigation.
      await page.getByText('Read a post', { exact: true }).first().click({ noWaitAfter: true });
      const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Read a post' }) });
      await section.getByRole('button', { name: 'Test Request' }).click();
      const client = page.getByRole('dialog', { name: 'API Client' });
      const answered = page.waitForResponse((response) => response.url().startsWith(`${server.url}/rest/v1.1/sites/`));
      await client.getByRole('button', { name: /^Send/ }).first().click();
      const response = await answered;
      expect(new URL(response.url()).search).toBe('');
      expect(response.headers()['content-type']).toContain('application/json');
    } finally {
      await page.close();
    }
  });

  it('calls this server with what the reader typed, and shows the answer', async () => {
    const { page, trouble } = await docsPage('profiles');
    await page.getByText('Get profile by identifier', { exact: true }).first().click({ noWaitAfter: true });
    const section = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Get profile by identifier' }) });
    await section.getByRole('button', { name: 'Test Request' }).click();
    const client = page.getByRole('dialog', { name: 'API Client' });
    await client
      .getByRole('row')
      .filter({ hasText: 'profileIdentifier' })
      .getByRole('combobox', { name: 'Value' })
      .fill('alex');
    await client.getByRole('button', { name: /Select Auth Type/ }).click();
    await page.getByRole('option', { name: /^apiKey/ }).click();
    await client.getByPlaceholder('Token').fill('typed-by-the-reader');

    const answered = page.waitForResponse((response) => response.url().startsWith(`${server.url}/v3/profiles/`));
    await client.getByRole('button', { name: /^Send/ }).first().click();
    const response = await answered;
    expect(response.url()).toBe(`${server.url}/v3/profiles/alex`);
    expect(await response.request().headerValue('authorization')).toBe('Bearer typed-by-the-reader');
    // An optional header the reader did not tick is not sent (scripts/docs/optional-parameters.ts).
    expect(await response.request().headerValue('if-none-match')).toBeNull();
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ display_name: 'Alex Morgan' });
    // The console shows the status and the profile (an unknown key is answered as anonymous).
    await client.getByText('200 OK').waitFor();
    await client.getByText('"Alex Morgan"').first().waitFor();
    expect(trouble).toEqual({ errors: [], violations: [], elsewhere: [] });
    await closeClient(page);
  });
});

/**
 * The download and changelog test of each contract's page, apart from the
 * others and last: it follows the changelog link, which takes its page away
 * from the reference that the tests above share.
 */
describe.each(CONTRACTS)('the %s docs page', (name) => {
  const { contract, title, version, served } = fromContract(name);

  it('offers the contract to download in YAML and JSON, at this origin, and links its changelog', async () => {
    const opened = docsPage(name);
    const { page, trouble } = await opened;
    try {
      const yaml = page.getByRole('link', { name: 'YAML' });
      const json = page.getByRole('link', { name: 'JSON' });
      expect(await yaml.getAttribute('href')).toBe(`/docs/${name}/openapi.yaml`);
      expect(await json.getAttribute('href')).toBe(`/docs/${name}/openapi.json`);
      const [download] = await Promise.all([page.waitForEvent('download'), yaml.click()]);
      expect(download.suggestedFilename()).toBe(`${name}-${version}.yaml`);
      const fromYaml = parseYaml(await (await fetch(`${server.url}/docs/${name}/openapi.yaml`)).text()) as {
        servers: { url: string }[];
        info: unknown;
      };
      const fromJson = (await (await fetch(`${server.url}/docs/${name}/openapi.json`)).json()) as typeof fromYaml;
      expect(fromYaml).toEqual(fromJson);
      expect(fromJson.info).toEqual(contract.info);
      expect(fromJson.servers[0]!.url).toBe(served());

      await page.getByRole('link', { name: 'Changelog' }).click();
      await page.getByRole('heading', { name: `${title}: changelog` }).waitFor();
      expect(page.url()).toBe(`${server.url}/docs/${name}/changelog`);
      expect(trouble).toEqual({ errors: [], violations: [], elsewhere: [] });
    } finally {
      await closeDocsPage(name, opened);
    }
  });
});
