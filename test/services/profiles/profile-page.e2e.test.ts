// @store-independent
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot } from '../../../scripts/tools.js';
import { launchBrowser } from '../../support/browser.js';
import { startProfiles, type ProfilesTestServer } from './support.js';

/**
 * The profile page in headless Chromium at a phone's and a desktop's width:
 * under its own Content-Security-Policy its one style applies and the avatar
 * loads, nothing is refused, and nothing overflows the viewport. The
 * screenshots are in `.tmp/screenshots/profile-page-<width>.png`, for people
 * to look at.
 */
const screenshots = join(projectRoot, '.tmp', 'screenshots');

let api: ProfilesTestServer;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  api = await startProfiles({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, { wire: true });
  mkdirSync(screenshots, { recursive: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe('the profile page in Chromium', () => {
  for (const width of [320, 1280]) {
    it(`at ${width} px: styled under its policy, the avatar loaded, no overflow`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const origin = new URL(api.server.url).origin;
      // Nothing leaves the machine: the verified accounts' links are never followed.
      await context.route('**/*', (route) =>
        new URL(route.request().url()).origin === origin ? route.continue() : route.abort(),
      );
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content.Security.Policy|Refused/i.test(message.text())) refused.push(message.text());
      });
      const response = await page.goto(`${api.server.url}/alex`);
      expect(response?.status()).toBe(200);
      await page.waitForFunction(() =>
        [...document.querySelectorAll('img')].every((image) => (image as HTMLImageElement).complete),
      );

      const seen = await page.evaluate(() => {
        const avatar = document.querySelector('img.avatar') as HTMLImageElement;
        const card = document.querySelector('.card') as HTMLElement;
        return {
          avatarWidth: avatar.naturalWidth,
          // The verified accounts' icons, from this origin's /icons under the page's policy: drawn at 16 by 16.
          icons: [...document.querySelectorAll('li img')].map((icon) => ({
            path: new URL((icon as HTMLImageElement).src).pathname,
            loaded: (icon as HTMLImageElement).naturalWidth > 0,
            size: [icon.getBoundingClientRect().width, icon.getBoundingClientRect().height],
          })),
          cardRadius: getComputedStyle(card).borderTopLeftRadius,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          title: document.title,
          heading: document.querySelector('h1')?.textContent,
        };
      });
      expect(refused).toEqual([]);
      expect(seen.avatarWidth).toBe(256);
      expect(seen.icons).toEqual(
        ['github', 'mastodon', 'linkedin', 'flickr'].map((service) => ({
          path: `/icons/${service}.svg`,
          loaded: true,
          size: [16, 16],
        })),
      );
      expect(seen.cardRadius).toBe('8px');
      expect(seen.overflow).toBeLessThanOrEqual(0);
      expect(seen.heading).toBe(seen.title);
      await page.screenshot({ path: join(screenshots, `profile-page-${width}.png`), fullPage: true });
      await context.close();
    });
  }
});
