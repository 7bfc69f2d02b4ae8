// @store-independent
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, projectRoot } from '../../../scripts/tools.js';
import { emailHashes } from '../../../src/accounts/email.js';
import { launchBrowser } from '../../support/browser.js';
import { startProfiles, type ProfilesTestServer } from './support.js';

/**
 * Browser clients of the real service, unchanged, against this server in
 * headless Chromium: the official hovercards widget
 * (`@gravatar-com/hovercards`) and plain `fetch`, on a page served from
 * another origin (another port), so every call is a cross-origin one.
 *
 * The widget has no option for its API address: it fetches the constant
 * `https://api.gravatar.com/v3/profiles`. The page serves the package's own
 * bundle with that one constant replaced by this server's address, the only
 * change; and it finds profiles by the `data-gravatar-hash` attribute (the
 * widget only recognises images whose URL contains `gravatar.com/avatar/`).
 */
const REAL_API = 'https://api.gravatar.com/v3/profiles';
const screenshots = join(projectRoot, '.tmp', 'screenshots');
const widgetDist = join(
  dirname(createRequire(import.meta.url).resolve('@gravatar-com/hovercards/package.json')),
  'dist',
);

let api: ProfilesTestServer;
let site: Server;
let siteOrigin: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let key: string;

const alex = emailHashes('alex@example.com').sha256;
/** The header image alex's demo profile names (`header_image`). */
const ALEX_HEADER = 'https://images.example.com/alex/header.jpg';
let headerRequests = 0;
const sam = emailHashes('sam@example.com').sha256;

/** The page of a site that uses the widget and its own scripts. */
const sitePage = () => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog</title>
<link rel="stylesheet" href="/hovercards/style.css">
<script src="/hovercards/index.umd.js"></script>
</head><body>
<p>Comments by <span id="alex" data-gravatar-hash="${alex}">Alex</span> and <span id="sam" data-gravatar-hash="${sam}">Sam</span>.</p>
<script>
  window.fetched = [];
  const hovercards = new Gravatar.Hovercards({
    delayToShow: 0,
    onFetchProfileSuccess: (hash, profile) => window.fetched.push(profile),
    onFetchProfileFailure: (hash, error) => window.fetched.push({ hash, error }),
  });
  hovercards.attach(document.body);
</script>
</body></html>`;

beforeAll(async () => {
  const port = await freePort();
  api = await startProfiles({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` });
  ({ key } = await api.issueKey());

  const bundle = readFileSync(join(widgetDist, 'index.umd.js'), 'utf8');
  // Exactly one place names the real API: a new version of the widget that changes that fails here, loudly.
  expect(bundle.split(REAL_API).length - 1).toBe(1);
  const files: Record<string, [string, string]> = {
    '/': ['text/html; charset=utf-8', sitePage()],
    '/hovercards/index.umd.js': ['text/javascript', bundle.replace(REAL_API, `${api.server.url}/v3/profiles`)],
    '/hovercards/style.css': ['text/css', readFileSync(join(widgetDist, 'style.css'), 'utf8')],
  };
  site = createServer((req, res) => {
    const file = files[req.url ?? ''];
    res.writeHead(file ? 200 : 404, { 'Content-Type': file?.[0] ?? 'text/plain' }).end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  mkdirSync(screenshots, { recursive: true });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  // Nothing leaves the machine: requests to other hosts (the widget's own icons) fail at once, but for
  // alex's header image, answered here with a picture, so the card can show the header the profile names.
  const ours = new Set([new URL(api.server.url).origin, siteOrigin]);
  const headerPicture = readFileSync(join(projectRoot, 'src/services/profiles/demo-avatars/alex.png'));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url === ALEX_HEADER) {
      headerRequests++;
      return route.fulfill({ status: 200, contentType: 'image/png', body: headerPicture });
    }
    return ours.has(new URL(url).origin) ? route.continue() : route.abort();
  });
  page = await context.newPage();
  await page.goto(`${siteOrigin}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await api?.close();
});

/** Hovers a name and waits for its finished card; returns what a reader sees of it and of its images. */
async function hovercardOf(id: string) {
  await page.hover(`#${id}`);
  const card = page
    .locator('.gravatar-hovercard:not(.gravatar-hovercard--skeleton)')
    .filter({ has: page.locator('.gravatar-hovercard__name') });
  await card.waitFor({ state: 'visible', timeout: 15_000 });
  const avatar = card.locator('img.gravatar-hovercard__avatar');
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 15_000 })
    .toBe(true);
  // The verified accounts' icons (not the widget's own Gravatar icon, from its host), once each has loaded or failed.
  const icons = card.locator('a.gravatar-hovercard__social-link:not([data-service-name="gravatar"]) img');
  await expect
    .poll(() => icons.evaluateAll((imgs: HTMLImageElement[]) => imgs.every((img) => img.complete)), {
      timeout: 15_000,
    })
    .toBe(true);
  const seen = {
    name: await card.locator('.gravatar-hovercard__name').textContent(),
    /** Each verified account's icon: where it came from and the size it drew at (0 by 0: it did not load). */
    icons: await icons.evaluateAll((imgs: HTMLImageElement[]) =>
      imgs.map((img) => ({ src: img.src, drawn: [img.naturalWidth, img.naturalHeight] })),
    ),
    // What the card shows now (no waiting for parts a profile may not have).
    job: (await card.locator('.gravatar-hovercard__job').allTextContents())[0] ?? null,
    avatarSrc: await avatar.getAttribute('src'),
    avatarSize: await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]),
    headerImagesLoaded: await card
      .locator('.gravatar-hovercard__header-image img')
      .evaluateAll((imgs: HTMLImageElement[]) => imgs.map((img) => img.complete && img.naturalWidth > 0)),
    // The header the profile names, as the card's CSS background (the widget's default header is the avatar, an <img>).
    headerBackground: await card
      .locator('.gravatar-hovercard__header-image')
      .evaluateAll((divs: HTMLElement[]) => divs.map((div) => getComputedStyle(div).backgroundImage)),
    profileColor: await card
      .locator('.gravatar-hovercard__profile-color')
      .evaluateAll((divs: HTMLElement[]) => divs.map((div) => getComputedStyle(div).backgroundImage)),
  };
  // For people to look at: .tmp/screenshots/hovercard-<id>.png.
  await page.screenshot({ path: join(screenshots, `hovercard-${id}.png`) });
  await page.mouse.move(0, 0);
  await card.waitFor({ state: 'detached', timeout: 15_000 });
  return seen;
}

describe('the official hovercards widget, from another origin', () => {
  it("renders alex's card from our API, with the uploaded avatar at the size it asks for", async () => {
    const card = await hovercardOf('alex');
    expect(card.name).toBe('Alex Morgan');
    expect(card.job).toBe('Landscape Architect, ACME Corp');
    expect(card.avatarSrc).toBe(`${api.server.url}/avatar/${alex}?s=256`);
    expect(card.avatarSize).toEqual([256, 256]);
  });

  it("loads alex's verified accounts' icons from our /icons, cross-origin (the card shows the first 3)", async () => {
    const card = await hovercardOf('alex');
    expect(card.icons).toEqual(
      ['github', 'mastodon', 'linkedin'].map((service) => ({
        src: `${api.server.url}/icons/${service}.svg`,
        drawn: [32, 32],
      })),
    );
  });

  it("shows the header image and background colour alex's profile names, from the anonymous call", async () => {
    const card = await hovercardOf('alex');
    // Not the default header (the avatar, blurred): the profile's own image, which the browser fetched (on this
    // hover or the first).
    expect(card.headerImagesLoaded).toEqual([]);
    expect(card.headerBackground).toEqual([`url("${ALEX_HEADER}")`]);
    expect(headerRequests).toBeGreaterThan(0);
    expect(card.profileColor).toEqual(['linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)']);
  });

  it("renders sam's card, whose profile has no image, with the default image", async () => {
    const card = await hovercardOf('sam');
    expect(card.name).toBe('Sam');
    expect(card.avatarSrc).toBe(`${api.server.url}/avatar/${sam}?s=256`);
    expect(card.avatarSize).toEqual([256, 256]);
    // No header image of its own: the widget's default header, the avatar.
    expect(card.headerImagesLoaded).toEqual([true]);
  });

  it('fetched each profile once, anonymously, and mapped its fields', async () => {
    const fetched = await page.evaluate(() => (window as unknown as { fetched: unknown[] }).fetched);
    expect(fetched).toEqual([
      expect.objectContaining({
        hash: alex,
        displayName: 'Alex Morgan',
        profileUrl: `${api.server.url}/alex`,
        avatarUrl: `${api.server.url}/avatar/${alex}`,
        headerImage: `url('${ALEX_HEADER}') no-repeat 50% 1% / 100%`,
        backgroundColor: 'linear-gradient(135deg, rgb(2, 3, 129) 0%, rgb(40, 116, 252) 100%)',
      }),
      expect.objectContaining({ hash: sam, displayName: 'Sam', avatarUrl: `${api.server.url}/avatar/${sam}` }),
    ]);
    const [alexCard] = fetched as { verifiedAccounts: { type: string; label: string }[] }[];
    expect(alexCard!.verifiedAccounts.map((account) => account.type)).toEqual([
      'github',
      'mastodon',
      'linkedin',
      'flickr',
    ]);
  });
});

describe('plain fetch from another origin', () => {
  it('reads a profile and the headers scripts may read, and draws its avatar on a canvas', async () => {
    const seen = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/v3/profiles/sam?source=card`);
      const profile = await response.json();
      const img = new Image();
      img.crossOrigin = 'anonymous';
      img.src = `${profile.avatar_url}?s=120&d=identicon`;
      await img.decode();
      // Reading pixels back works only when the image was served with CORS.
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 120;
      const drawing = canvas.getContext('2d')!;
      drawing.drawImage(img, 0, 0);
      return {
        origin: location.origin,
        status: response.status,
        name: profile.display_name,
        etag: response.headers.get('ETag'),
        remaining: response.headers.get('X-RateLimit-Remaining'),
        avatar: [img.naturalWidth, img.naturalHeight],
        corner: Array.from(drawing.getImageData(0, 0, 1, 1).data),
      };
    }, api.server.url);
    expect(seen.origin).not.toBe(new URL(api.server.url).origin);
    expect(seen).toMatchObject({ status: 200, name: 'Sam', avatar: [120, 120], corner: [255, 255, 255, 255] });
    expect(seen.etag).toMatch(/^"/);
    expect(Number(seen.remaining)).toBeGreaterThanOrEqual(0);
  });

  it('sends an API key (a preflighted request) and gets the keyed fields', async () => {
    const profile = await page.evaluate(
      async ([base, bearer]) =>
        (await fetch(`${base}/v3/profiles/alex`, { headers: { Authorization: `Bearer ${bearer}` } })).json(),
      [api.server.url, key] as const,
    );
    expect(profile).toMatchObject({ display_name: 'Alex Morgan', first_name: 'Alex', timezone: 'America/New_York' });
  });

  it('is refused by the browser where the server sends no CORS headers (so the checks above are real)', async () => {
    const outcome = await page.evaluate(
      async (base) =>
        fetch(`${base}/healthz`).then(
          () => 'read',
          (error: Error) => error.name,
        ),
      api.server.url,
    );
    expect(outcome).toBe('TypeError');
  });
});
