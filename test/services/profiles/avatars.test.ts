import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../../src/app.js';
import { emailHashes } from '../../../src/accounts/email.js';
import { fetchAvatar, lookup, startProfiles, type AvatarAnswer, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer;
beforeAll(async () => {
  harness = await startProfiles();
});
afterAll(() => harness.close());

const alex = emailHashes('alex@example.com');
const sam = emailHashes('sam@example.com');
/** The SHA-256 of an email nobody has. */
const nobody = emailHashes('nobody@example.com').sha256;

/** The mystery-person default: grey around a pale silhouette. */
const MP_GREY = [196, 199, 204, 255];
const MP_FIGURE = [243, 244, 246, 255];

const expectPng = (answer: AvatarAnswer, size: number) => {
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('image/png');
  expect(answer.image).toMatchObject({ width: size, height: size });
};
const expectMysteryPerson = (answer: AvatarAnswer, size = 80) => {
  expectPng(answer, size);
  expect(answer.image!.pixel(1, 1)).toEqual(MP_GREY);
  expect(answer.image!.pixel(size / 2, size - 2)).toEqual(MP_FIGURE);
};
/** Alex's uploaded image: a blue sky in its top-left corner. */
const expectAlexImage = (answer: AvatarAnswer, size = 80) => {
  expectPng(answer, size);
  const [r, g, b] = answer.image!.pixel(1, 1);
  expect(b).toBeGreaterThan(200);
  expect(r).toBeLessThan(80);
  expect(g).toBeLessThan(140);
};

describe('a profile with an uploaded image', () => {
  it('is served at the default 80 pixels by its SHA-256 hash', async () => {
    expectAlexImage(await fetchAvatar(harness, alex.sha256));
  });

  it.each([
    ['the SHA-256 hash in capitals', alex.sha256.toUpperCase()],
    ['the legacy MD5 hash', alex.md5],
    ['the MD5 hash with a .jpg extension', `${alex.md5}.jpg`],
    ['the SHA-256 hash with a .png extension', `${alex.sha256}.png`],
  ])('is the same image by %s', async (_what, hash) => {
    const bySha256 = await fetchAvatar(harness, alex.sha256);
    const answer = await fetchAvatar(harness, hash);
    expectAlexImage(answer);
    expect(answer.bytes.equals(bySha256.bytes)).toBe(true);
  });

  it.each([
    ['s=200', 200],
    ['size=32', 32],
    ['s=16&size=300', 16],
    ['s=1', 1],
    ['s=2048', 2048],
  ])('is drawn at the size asked for (%s)', async (query, size) => {
    const answer = await fetchAvatar(harness, `${alex.sha256}?${query}`);
    expectPng(answer, size);
    if (size >= 16) expectAlexImage(answer, size);
  });

  it('carries a strong ETag and may be cached publicly for a day', async () => {
    const answer = await fetchAvatar(harness, alex.sha256);
    expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=86400');
    const other = await fetchAvatar(harness, `${alex.sha256}?s=81`);
    expect(other.headers.get('etag')).not.toBe(answer.headers.get('etag'));
  });

  it('answers 304 with no body to a matching If-None-Match, weak or strong', async () => {
    const etag = (await fetchAvatar(harness, alex.sha256)).headers.get('etag')!;
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const answer = await fetchAvatar(harness, alex.sha256, { headers: { 'If-None-Match': tag } });
      expect(answer.status).toBe(304);
      expect(answer.bytes.length).toBe(0);
      expect(answer.headers.get('etag')).toBe(etag);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=86400');
    }
    expect((await fetchAvatar(harness, alex.sha256, { headers: { 'If-None-Match': '"other"' } })).status).toBe(200);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await fetchAvatar(harness, alex.sha256);
    const head = await fetchAvatar(harness, alex.sha256, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    expect(head.headers.get('content-type')).toBe('image/png');
  });

  it('accepts every rating, in any letter case (every uploaded image is rated g)', async () => {
    const plain = await fetchAvatar(harness, alex.sha256);
    for (const query of ['r=g', 'r=PG', 'r=x', 'rating=R']) {
      expect((await fetchAvatar(harness, `${alex.sha256}?${query}`)).bytes.equals(plain.bytes)).toBe(true);
    }
  });

  it('gives way to the default image with f=y (or forcedefault=y)', async () => {
    expectMysteryPerson(await fetchAvatar(harness, `${alex.sha256}?f=y`));
    expectMysteryPerson(await fetchAvatar(harness, `${alex.sha256}?forcedefault=Y`));
    const forced = await fetchAvatar(harness, `${alex.sha256}?f=y&d=404`);
    expect(forced.status).toBe(404);
    expectAlexImage(await fetchAvatar(harness, `${alex.sha256}?f=n`));
  });
});

describe('without an uploaded image', () => {
  it('a profile gets the mystery-person silhouette, cached for 300 seconds', async () => {
    const answer = await fetchAvatar(harness, sam.sha256);
    expectMysteryPerson(answer);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it.each([
    ['a hash nobody has', nobody],
    ['a slug (only hashes name avatars)', 'alex'],
    ['text that is no hash at all', 'not-a-hash'],
  ])('%s gets it too', async (_what, hash) => {
    expectMysteryPerson(await fetchAvatar(harness, hash));
  });

  it.each(['mp', 'mm', 'MP', 'no-such-style', ''])('d=%s draws it', async (d) => {
    expectMysteryPerson(await fetchAvatar(harness, `${sam.sha256}?d=${d}`, {}));
  });

  it('d=identicon draws a pattern from the hash: one per email, whichever hash names it', async () => {
    const bySha256 = await fetchAvatar(harness, `${sam.sha256}?d=identicon`);
    const byMd5 = await fetchAvatar(harness, `${sam.md5}?d=identicon`);
    const someoneElse = await fetchAvatar(harness, `${nobody}?d=identicon`);
    expectPng(bySha256, 80);
    expect(bySha256.image!.pixel(0, 0)).toEqual([255, 255, 255, 255]);
    expect(byMd5.bytes.equals(bySha256.bytes)).toBe(true);
    expect(someoneElse.bytes.equals(bySha256.bytes)).toBe(false);
    expect((await fetchAvatar(harness, `${nobody}?d=identicon`)).bytes.equals(someoneElse.bytes)).toBe(true);
  });

  it.each(['monsterid', 'wavatar', 'retro', 'robohash', 'initials', 'color'])(
    'd=%s (not drawn here) draws the identicon',
    async (style) => {
      const identicon = await fetchAvatar(harness, `${nobody}?d=identicon&s=40`);
      expect((await fetchAvatar(harness, `${nobody}?default=${style}&s=40`)).bytes.equals(identicon.bytes)).toBe(true);
    },
  );

  it('d=blank is a fully transparent image of the size asked for', async () => {
    const answer = await fetchAvatar(harness, `${sam.sha256}?d=blank&s=24`);
    expectPng(answer, 24);
    for (let y = 0; y < 24; y++) for (let x = 0; x < 24; x++) expect(answer.image!.pixel(x, y)[3]).toBe(0);
  });

  it('d=404 answers 404 in the error format, cached for 300 seconds', async () => {
    const answer = await fetchAvatar(harness, `${sam.sha256}?d=404`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(answer.bytes.toString())).toEqual({ error: 'Avatar not found', code: 'not_found' });
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('d=404 still serves an uploaded image', async () => {
    expectAlexImage(await fetchAvatar(harness, `${alex.sha256}?d=404`));
  });

  it('d=<an image URL> redirects there with 302', async () => {
    const own = 'https://images.example.com/default avatar.png?v=2';
    const answer = await fetchAvatar(harness, `${sam.sha256}?d=${encodeURIComponent(own)}`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://images.example.com/default%20avatar.png?v=2');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expectAlexImage(await fetchAvatar(harness, `${alex.sha256}?d=${encodeURIComponent(own)}`));
  });

  it.each(['javascript:alert(1)', 'ftp://images.example.com/a.png', '//images.example.com/a.png', 'http://'])(
    'd=%s is no image URL: the default silhouette, never a redirect',
    async (d) => {
      expectMysteryPerson(await fetchAvatar(harness, `${sam.sha256}?d=${encodeURIComponent(d)}`));
    },
  );
});

describe('bad parameters are 400 in the error format, never cached', () => {
  it.each([
    ['s=0', 's'],
    ['s=2049', 's'],
    ['s=abc', 's'],
    ['s=1.5', 's'],
    ['size=-3', 'size'],
    ['r=nc17', 'r'],
    ['rating=gg', 'rating'],
    [`d=${'x'.repeat(2049)}`, 'd'],
  ])('%.40s', async (query, name) => {
    const answer = await fetchAvatar(harness, `${sam.sha256}?${query}`);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.bytes.toString()) as { error: string; code: string };
    expect(body.code).toBe('invalid_request');
    expect(body.error).toMatch(new RegExp(`^Invalid parameter ${name}:`));
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('a hash longer than 128 characters', async () => {
    expect((await fetchAvatar(harness, 'a'.repeat(129))).status).toBe(400);
  });

  it('other methods are 405 with Allow', async () => {
    const answer = await fetchAvatar(harness, sam.sha256, { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('browsers on other origins', () => {
  it('may load and read avatar images (CORS *)', async () => {
    const answer = await fetchAvatar(harness, sam.sha256, { headers: { Origin: 'https://blog.example.org' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toContain('ETag');
  });

  it('get a preflight answered', async () => {
    const response = await fetch(`${harness.server.url}/avatar/${sam.sha256}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://blog.example.org',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'If-None-Match',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
  });
});

describe('avatar_url in profile answers', () => {
  it.each(['alex', 'sam', 'quiet'])(
    'of %s is an absolute URL of this deployment that serves an image',
    async (slug) => {
      for (const key of [undefined, (await harness.issueKey(`${slug}-reader@example.com`)).key]) {
        const { body } = await lookup(harness, slug, key ? { key } : {});
        const url = new URL(body.avatar_url as string);
        expect(`${url.origin}${url.pathname}`).toBe(`${harness.server.config.publicUrl}/avatar/${body.hash as string}`);
        expect(url.search).toBe('');
        // The deployment's public URL is not the test server's address: ask the test server for the same path.
        const answer = await fetchAvatar(harness, url.pathname.slice('/avatar/'.length));
        expectPng(answer, 80);
      }
    },
  );
});

describe('configuration', () => {
  it('AVATAR_BASE_URL points avatar URLs at a CDN, and AVATAR_CACHE_SECONDS sets how long uploaded images are cached', async () => {
    const cdn = await startProfiles({
      AVATAR_BASE_URL: 'https://cdn.example.net/avatars/',
      AVATAR_CACHE_SECONDS: '3600',
    });
    try {
      expect((await lookup(cdn, 'sam')).body.avatar_url).toBe(`https://cdn.example.net/avatars/${sam.sha256}`);
      expect((await fetchAvatar(cdn, alex.sha256)).headers.get('cache-control')).toBe('public, max-age=3600');
      expect((await fetchAvatar(cdn, sam.sha256)).headers.get('cache-control')).toBe('public, max-age=300');
    } finally {
      await cdn.close();
    }
  });

  it.each(['cdn.example.net/avatars', 'ftp://cdn.example.net/avatars', 'https://cdn.example.net/avatars?v=1'])(
    'AVATAR_BASE_URL=%s is refused at start-up',
    (value) => {
      expect(() => configFromEnv({ AVATAR_BASE_URL: value })).toThrow(
        /^AVATAR_BASE_URL must be an absolute http or https URL/,
      );
    },
  );

  it('AVATAR_BASE_URL defaults to PUBLIC_URL/avatar', () => {
    expect(configFromEnv({ PUBLIC_URL: 'https://people.example.com/' }).profiles.avatarBaseUrl).toBe(
      'https://people.example.com/avatar',
    );
  });
});
