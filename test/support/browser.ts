import type { Browser } from 'playwright-core';

/**
 * Flags of `@sparticuz/chromium`'s recommended set that a test browser must
 * not have: they switch off the same-origin policy (CORS) and mixed-content
 * blocking, which the end-to-end tests exist to exercise.
 */
const UNSAFE_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

/**
 * Launches headless Chromium for the end-to-end tests: the browser
 * `CHROMIUM_PATH` names when set, else the build that `@sparticuz/chromium`
 * ships inside its npm package (unpacked to the temp folder on first use),
 * with that package's flags less the ones that turn off web security.
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
    args: [...packaged.args.filter((flag) => !UNSAFE_FLAGS.has(flag)), '--disable-background-networking'],
  });
}
