// @store-independent
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../support/browser.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The publishing API's JSONP answers are script served from the same
 * origin as the developer dashboard and the docs. A page of that origin
 * that tries `<script src="/rest/v1.1/…?callback=…">` (an injected tag, as
 * an XSS would add) must not run it: the pages' Content-Security-Policy
 * allows only their own scripts (the dashboard's file by its exact URL, the
 * docs' inline scripts by hash). The same tag on a page of the origin
 * without that policy does run, so the test can fail. JSONP itself is only
 * served by operations whose contract declares `callback`, never on an
 * unrouted request.
 */
let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Adds `<script src=jsonpUrl>` to the page the way injected markup would,
 * with a global `stolen` function for the callback to call, and reports
 * whether the JSONP ran and whether the browser reported a CSP violation.
 */
async function injectJsonp(target: Page, jsonpPath: string) {
  return target.evaluate(async (src) => {
    const win = window as unknown as { stolen?: (data: unknown) => void; ran?: boolean };
    win.ran = false;
    win.stolen = () => (win.ran = true);
    let violated = false;
    document.addEventListener('securitypolicyviolation', () => (violated = true));
    await new Promise<void>((resolve) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = () => resolve();
      script.onerror = () => resolve();
      document.head.appendChild(script);
      setTimeout(resolve, 3000);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { ran: win.ran, violated };
  }, jsonpPath);
}

const JSONP = '/rest/v1.1/sites/1/posts/108?callback=stolen';

describe('a JSONP answer as script on this origin', () => {
  it('runs on a page of the origin without a policy (the control: the tag works)', async () => {
    await page.goto(`${server.url}/healthz`);
    expect(await injectJsonp(page, JSONP)).toEqual({ ran: true, violated: false });
  });

  it('does not run on the developer dashboard', async () => {
    await page.goto(`${server.url}/developers`);
    await page.locator('html[data-ready="true"]').waitFor();
    expect(await injectJsonp(page, JSONP)).toEqual({ ran: false, violated: true });
  });

  it('does not run on the docs pages, which still render', async () => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${server.url}/docs/publishing`);
    await page.getByText('Publishing API').first().waitFor();
    // The page's own scripts ran under its policy: nothing was refused before the injection.
    expect(errors.filter((text) => /Content Security Policy/i.test(text) && /script/i.test(text))).toEqual([]);
    expect(await injectJsonp(page, JSONP)).toEqual({ ran: false, violated: true });
  });
});

describe('JSONP outside the operations that declare callback', () => {
  it('is never served for an unknown method on a known path', async () => {
    const res = await fetch(`${server.url}/rest/v1.1/sites/1/posts/108?callback=stolen`, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: 'not_allowed', error_message: 'Method not allowed' });
  });

  it('is never served for an unknown path', async () => {
    const res = await fetch(`${server.url}/rest/v1.1/no/such/path?callback=stolen`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/javascript/);
    expect(await res.text()).toBe('');
  });
});
