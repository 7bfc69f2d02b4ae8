import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

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

/** Launches a headless Chromium of the caller's own (see `chromiumExecutable`) under playwright-core. */
export async function launchOwnBrowser(): Promise<Browser> {
  const { executablePath, args } = await chromiumExecutable();
  return chromium.launch({ executablePath, args, headless: true });
}

/** This worker's one Chromium, launched by the first test file that asks for a browser. */
let shared: Promise<Browser> | undefined;

/**
 * A browser for one test file: this worker's one Chromium (launching it costs
 * more CPU than most browser tests; workers run many files in one process),
 * seen through a handle whose `close()` closes what the file opened (the
 * contexts of its `newContext` and `newPage`, so no cookie, cache or page
 * outlives the file) and leaves the browser running for the next file. The
 * browser ends with the worker (playwright kills the browsers it launched
 * when the process exits). `launchOwnBrowser` launches one of a test's own,
 * for a test about the browser process itself.
 */
export async function launchBrowser(): Promise<Browser> {
  shared ??= launchOwnBrowser().then(
    (browser) => {
      browser.on('disconnected', () => {
        shared = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  const browser = await shared;
  if (!browser.isConnected()) {
    shared = undefined;
    return launchBrowser();
  }
  const opened = new Set<BrowserContext>();
  const handle: Partial<Browser> = {
    newContext: async (...args) => {
      const context = await browser.newContext(...args);
      opened.add(context);
      return context;
    },
    newPage: async (...args) => {
      const page = await browser.newPage(...args);
      opened.add(page.context());
      return page;
    },
    close: async () => {
      await Promise.all([...opened].map((context) => context.close().catch(() => {})));
      opened.clear();
    },
  };
  return new Proxy(browser, {
    get(target, property) {
      if (Object.hasOwn(handle, property)) return handle[property as keyof Browser];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
