// @store-independent: its own server on SQLite, or headers and limits that no store takes part in
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fetchAvatar, lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async (env: Record<string, string>) => (harness = await startProfiles(env));
const hash = 'a'.repeat(64);

describe('avatar images have an hourly limit per client address of their own', () => {
  it('count every image, answer the rate-limit headers, and 429 with Retry-After once spent', async () => {
    const server = await start({ RATE_LIMIT_AVATARS: '2', RATE_LIMIT_ANONYMOUS: '1' });
    const first = await fetchAvatar(server, `${hash}?d=identicon&s=20`);
    const second = await fetchAvatar(server, `${hash}?d=404`);
    const third = await fetchAvatar(server, `${hash}?d=identicon&s=20`);
    expect([first.status, second.status, third.status]).toEqual([200, 404, 429]);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect([first, second, third].map((answer) => answer.headers.get('x-ratelimit-remaining'))).toEqual([
      '1',
      '0',
      '0',
    ]);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(third.bytes.toString())).toEqual({ error: 'Rate limit exceeded', code: 'rate_limit_exceeded' });
    // Counted apart from profile lookups: the lookup budget is untouched.
    expect((await lookup(server, 'alex')).status).toBe(200);
  });

  it('count an IPv6 client by its /64, behind a trusted proxy', async () => {
    const server = await start({ RATE_LIMIT_AVATARS: '1', TRUST_PROXY: 'true' });
    const via = (ip: string) => fetchAvatar(server, `${hash}?d=blank&s=8`, { headers: { 'X-Forwarded-For': ip } });
    expect((await via('2001:db8:1:2::1')).status).toBe(200);
    expect((await via('2001:db8:1:2::99')).status).toBe(429);
    expect((await via('2001:db8:1:3::1')).status).toBe(200);
    expect((await via('::ffff:203.0.113.5')).status).toBe(200);
    expect((await via('203.0.113.5')).status).toBe(429);
  });

  it('profile lookups count an IPv6 client by its /64 too', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: 'true' });
    const via = (ip: string) => lookup(server, 'alex', { headers: { 'X-Forwarded-For': ip } });
    expect((await via('2001:db8:9:9::1')).status).toBe(200);
    expect((await via('2001:db8:9:9:ffff::2')).status).toBe(429);
  });

  it('default to 2000 an hour', async () => {
    const server = await start({});
    expect((await fetchAvatar(server, `${hash}?d=blank&s=8`)).headers.get('x-ratelimit-limit')).toBe('2000');
  });
});

describe('s is read as the real service reads it', () => {
  let server: ProfilesTestServer;
  beforeAll(async () => {
    server = await startProfiles();
  });
  afterAll(() => server?.close());

  it.each(['1e3', '0x10', '+5', ' 5', '5.0', '1e1'])('s=%j is 400 naming s', async (value) => {
    const answer = await fetchAvatar(server, `${hash}?s=${encodeURIComponent(value)}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.bytes.toString()).error).toMatch(/parameter s\b/);
  });

  it('size= the same, and plain digits (leading zeros too) are sizes', async () => {
    expect((await fetchAvatar(server, `${hash}?size=0x10`)).status).toBe(400);
    expect((await fetchAvatar(server, `${hash}?s=016&d=blank`)).image).toMatchObject({ width: 16 });
  });
});
