import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailHashes } from '../../../src/accounts/email.js';
import { startProfiles, type ProfilesTestServer } from './support.js';

/**
 * `GET /v3/qr-code/{sha256_hash}`: a PNG of the profile URL, with the real
 * `size`, `version`, `type` and `utm_*` parameters, read back here with an
 * independent decoder (jsQR). Every answer goes through the
 * contract-checking fetch.
 */
let harness: ProfilesTestServer;
beforeAll(async () => {
  harness = await startProfiles({ RATE_LIMIT_QR_CODES: '100' });
});
afterAll(() => harness.close());

const alex = emailHashes('alex@example.com');
/** jsQR's decoder (a CommonJS module: its function is the default export or the module itself, by loader). */
const jsQR = (typeof jsQRModule === 'function' ? jsQRModule : jsQRModule.default) as typeof jsQRModule.default;

async function qrCode(identifier: string, query = '', init: RequestInit = {}) {
  const response = await harness.call(
    `${harness.server.url}/v3/qr-code/${identifier}${query ? `?${query}` : ''}`,
    init,
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes };
}

/** What a phone camera would read: the decoded text and the image's size. */
async function scan(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    text: jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data,
  };
}

describe('a QR code', () => {
  it('holds the profile URL, found by hash, MD5 or slug, as a 200-pixel PNG by default', async () => {
    for (const identifier of [alex.sha256, alex.sha256.toUpperCase(), alex.md5, 'alex']) {
      const answer = await qrCode(identifier);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
      expect(answer.headers.get('x-gravatar-profile-status')).toBe('enabled');
      expect(await scan(answer.bytes)).toEqual({
        width: 200,
        height: 200,
        text: `${harness.server.config.publicUrl}/alex`,
      });
    }
  });

  it('carries utm_medium and utm_campaign, after utm_source=qr, in its URL', async () => {
    const answer = await qrCode('alex', 'utm_medium=email&utm_campaign=spring%20sale');
    expect((await scan(answer.bytes)).text).toBe(
      `${harness.server.config.publicUrl}/alex?utm_source=qr&utm_medium=email&utm_campaign=spring+sale`,
    );
  });

  it('is drawn at the size asked for, and at least at the symbol version asked for', async () => {
    const small = await scan((await qrCode('alex', 'size=120')).bytes);
    expect(small).toMatchObject({ width: 120, height: 120, text: `${harness.server.config.publicUrl}/alex` });
    const large = await scan((await qrCode('alex', 'size=600&version=10')).bytes);
    expect(large).toMatchObject({ width: 600, text: `${harness.server.config.publicUrl}/alex` });
  });

  it('with type=user shows the avatar in the middle and still scans', async () => {
    const plain = await qrCode('alex', 'size=400');
    const withAvatar = await qrCode('alex', 'size=400&type=user');
    expect(withAvatar.bytes.equals(plain.bytes)).toBe(false);
    expect((await scan(withAvatar.bytes)).text).toBe(`${harness.server.config.publicUrl}/alex`);
    // The middle pixel is the avatar's (alex's uploaded image is not black or white there).
    const { data } = await sharp(withAvatar.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const middle = (200 * 400 + 200) * 3;
    const [r, g, b] = [data[middle]!, data[middle + 1]!, data[middle + 2]!];
    expect([r, g, b].every((channel) => channel === 0) || [r, g, b].every((channel) => channel === 255)).toBe(false);
    // A profile without an uploaded image gets the default silhouette there.
    expect((await scan((await qrCode('sam', 'size=400&type=user')).bytes)).text).toBe(
      `${harness.server.config.publicUrl}/sam`,
    );
  });

  it('of a hash that names no profile holds the URL it would have, marked not-found', async () => {
    const nobody = 'b'.repeat(64);
    const answer = await qrCode(nobody);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-gravatar-profile-status')).toBe('not-found');
    expect((await scan(answer.bytes)).text).toBe(`${harness.server.config.publicUrl}/${nobody}`);
  });

  it('is cacheable publicly, with a strong ETag that answers 304, and drawn once (the same bytes again)', async () => {
    const first = await qrCode('alex', 'size=300');
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    const again = await qrCode('alex', 'size=300');
    expect(again.bytes.equals(first.bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    const notModified = await qrCode('alex', 'size=300', { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(notModified.status).toBe(304);
  });
});

describe("bad input gets the service's own error, never a 500", () => {
  it.each([
    ['a size under 50', 'size=10', /size/],
    ['a size over 1000', 'size=5000', /size/],
    ['a size in another notation', 'size=1e3', /size/],
    ['a version that is no QR version', 'version=41', /version/],
    [
      'a version too small for the URL',
      'version=1&utm_campaign=a-rather-long-campaign-name-that-will-not-fit',
      /version/,
    ],
    ['an unknown icon type', 'type=dog', /type/],
    ['a utm value over 100 characters', `utm_medium=${'m'.repeat(101)}`, /utm_medium/],
  ])('%s is 400 invalid_request naming the parameter', async (_what, query, named) => {
    const answer = await qrCode('alex', query);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.bytes.toString('utf8')) as { error: string; code: string };
    expect(body.code).toBe('invalid_request');
    expect(body.error).toMatch(named);
  });
});

describe('limits', () => {
  it('counts per client address apart from lookups and avatars, and answers 429 with Retry-After over it', async () => {
    const fresh = await startProfiles({ RATE_LIMIT_QR_CODES: '1' });
    try {
      const get = () => fresh.call(`${fresh.server.url}/v3/qr-code/alex`);
      const first = await get();
      const avatar = await fresh.call(`${fresh.server.url}/avatar/${alex.sha256}`);
      const second = await get();
      expect([first.status, avatar.status, second.status]).toEqual([200, 200, 429]);
      expect(await second.json()).toEqual({ error: 'Rate limit exceeded', code: 'rate_limit_exceeded' });
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
