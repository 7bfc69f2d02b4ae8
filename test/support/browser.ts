import type { Browser } from 'playwright-core';

/**
 * Launches headless Chromium for the end-to-end tests: the browser
 * `CHROMIUM_PATH` names when set, else the build that `@sparticuz/chromium`
 * ships inside its npm package (unpacked to the temp folder on first use).
 * Background networking is off, so the browser phones nowhere.
 */
export async function launchBrowser(): Promise<Browser> {
  const { chromium: playwright } = await import('playwright-core');
  if (process.env.CHROMIUM_PATH) {
    return playwright.launch({
      executablePath: process.env.CHROMIUM_PATH,
      headless: true,
      args: ['--disable-background-networking'],
    });
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  return playwright.launch({
    executablePath: await packaged.executablePath(),
    headless: true,
    args: [...packaged.args, '--disable-background-networking'],
  });
}
