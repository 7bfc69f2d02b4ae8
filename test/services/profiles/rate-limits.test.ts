import { afterEach, describe, expect, it } from 'vitest';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const start = async (env: Record<string, string>) => (harness = await startProfiles(env));
const remaining = (answer: { headers: Headers }) => Number(answer.headers.get('x-ratelimit-remaining'));

describe('anonymous callers are limited per client IP', () => {
  it('count every lookup, found or not, and answer 429 once the limit is spent', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '3' });
    const before = Math.floor(Date.now() / 1000);
    const first = await lookup(server, 'alex');
    const second = await lookup(server, 'nobody-here');
    const third = await lookup(server, 'sam');
    const fourth = await lookup(server, 'alex');

    expect([first.status, second.status, third.status, fourth.status]).toEqual([200, 404, 200, 429]);
    expect([first, second, third, fourth].map(remaining)).toEqual([2, 1, 0, 0]);
    for (const answer of [first, second, fourth]) {
      expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
      const reset = Number(answer.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(before);
      expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3600);
    }
    expect(fourth.body).toEqual({ error: 'Rate limit exceeded', code: 'rate_limit_exceeded' });
    const retryAfter = Number(fourth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(fourth.headers.get('cache-control')).toBe('no-store');
  });

  it('use the configured window for the reset time', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '1', RATE_LIMIT_WINDOW_SECONDS: '60' });
    await lookup(server, 'alex');
    const refused = await lookup(server, 'alex');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);
  });

  it('ignore X-Forwarded-For unless TRUST_PROXY is on', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '2' });
    const spoofed = (ip: string) => lookup(server, 'alex', { headers: { 'X-Forwarded-For': ip } });
    expect((await spoofed('203.0.113.1')).status).toBe(200);
    expect((await spoofed('203.0.113.2')).status).toBe(200);
    expect((await spoofed('203.0.113.3')).status).toBe(429);
  });

  it('count each forwarded client separately behind a trusted proxy', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: 'true' });
    const via = (forwardedFor: string) => lookup(server, 'alex', { headers: { 'X-Forwarded-For': forwardedFor } });
    expect((await via('203.0.113.1')).status).toBe(200);
    expect((await via('203.0.113.1')).status).toBe(429);
    expect((await via('203.0.113.2')).status).toBe(200);
  });

  it('behind a trusted proxy, believe only the address the proxy appended', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '1', TRUST_PROXY: 'true' });
    // The client forges the first entry; the proxy appends the real address.
    expect((await lookup(server, 'alex', { headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' } })).status).toBe(
      200,
    );
    expect((await lookup(server, 'alex', { headers: { 'X-Forwarded-For': '198.51.100.2, 203.0.113.9' } })).status).toBe(
      429,
    );
  });
});

describe('keyed callers are limited per key', () => {
  it('with their own limit, apart from the anonymous one and from other keys', async () => {
    const server = await start({ RATE_LIMIT_ANONYMOUS: '1', RATE_LIMIT_KEYED: '2' });
    const one = await server.issueKey('one@example.com');
    const two = await server.issueKey('two@example.com');

    expect((await lookup(server, 'alex')).status).toBe(200);
    expect((await lookup(server, 'alex')).status).toBe(429);

    const first = await lookup(server, 'alex', { key: one.key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(remaining(first)).toBe(1);
    expect((await lookup(server, 'nobody-here', { key: one.key })).status).toBe(404);
    const refused = await lookup(server, 'alex', { key: one.key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();

    const other = await lookup(server, 'alex', { key: two.key });
    expect(other.status).toBe(200);
    expect(remaining(other)).toBe(1);
  });
});

describe('the default limits', () => {
  it('are the spec’s: 100 per hour anonymous, 1000 per hour keyed', async () => {
    const server = await start({});
    const { key } = await server.issueKey();
    expect((await lookup(server, 'alex')).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await lookup(server, 'alex', { key })).headers.get('x-ratelimit-limit')).toBe('1000');
    expect(server.server.config.profiles.rateLimits.windowSeconds).toBe(3600);
  });
});
