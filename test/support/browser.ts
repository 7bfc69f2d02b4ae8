import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Flags of `@sparticuz/chromium` that the tests must not inherit: they switch
 * off the same-origin policy and site isolation, so a CORS or CSP test would
 * pass whatever the server sent, and single-process mode is fragile with
 * several pages.
 */
const UNSAFE_FLAGS = [
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
  '--single-process',
  '--no-zygote',
];

/** Flags every launch gets: no outside network (the machine has none), no first-run or sync chatter. */
const COMMON_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
];

/**
 * The Chromium the tests drive: `CHROMIUM_PATH` when it names one, else the
 * build shipped inside the `@sparticuz/chromium` npm package (unpacked to the
 * temp folder on first use; nothing is downloaded). Never a browser fetched
 * from a URL.
 */
export async function chromiumExecutable(): Promise<{ executablePath: string; args: string[] }> {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH names ${fromEnv}, which does not exist`);
    return { executablePath: fromEnv, args: COMMON_FLAGS };
  }
  const { default: shipped } = await import('@sparticuz/chromium');
  const args = shipped.args.filter((flag) => !UNSAFE_FLAGS.includes(flag) && !flag.startsWith('--headless'));
  return { executablePath: await shipped.executablePath(), args: [...new Set([...args, ...COMMON_FLAGS])] };
}

/** Launches headless Chromium (see `chromiumExecutable`) under playwright-core. */
export async function launchBrowser(): Promise<Browser> {
  const { executablePath, args } = await chromiumExecutable();
  return chromium.launch({ executablePath, args, headless: true });
}
