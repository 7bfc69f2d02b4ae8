// @store-independent: its own server on SQLite, or headers and limits that no store takes part in
import { afterEach, describe, expect, it } from 'vitest';
import { read, restore, startPublishing, type PublishingTestServer } from './support.js';

let harness: PublishingTestServer | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('publishing reads are limited per client address', () => {
  it('every GET counts, with the rate-limit headers; over the limit 429 rate_limit_exceeded with Retry-After', async () => {
    harness = await startPublishing({ RATE_LIMIT_PUBLISHING_READS: '2', RATE_LIMIT_ANONYMOUS: '1000' });
    const first = await read(harness, undefined, 'demo.example.com', 108);
    const site = await harness.call(`${harness.server.url}/rest/v1.1/sites/demo.example.com`);
    const refused = await read(harness, undefined, 'demo.example.com', 108);
    expect([first.status, site.status, refused.status]).toEqual([200, 200, 429]);
    expect(first.response.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.response.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(site.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.body).toEqual({ error: 'rate_limit_exceeded', message: 'Too many requests; try again later' });
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Writes are not reads: a restore is not refused by the read limit.
    const token = await harness.tokenFor('admin');
    expect((await restore(harness, token, 'demo.example.com', 108)).status).not.toBe(429);
  });

  it('an IPv6 client is counted by its /64 behind a trusted proxy', async () => {
    harness = await startPublishing({ RATE_LIMIT_PUBLISHING_READS: '1', TRUST_PROXY: 'true' });
    const fetchVia = (ip: string) =>
      harness!
        .call(`${harness!.server.url}/rest/v1.1/sites/demo.example.com/posts/108`, {
          headers: { 'X-Forwarded-For': ip },
        })
        .then((res) => res.status);
    expect(await fetchVia('2001:db8:5:6::1')).toBe(200);
    expect(await fetchVia('2001:db8:5:6:aaaa::1')).toBe(429);
    expect(await fetchVia('2001:db8:5:7::1')).toBe(200);
  });

  it('default to 1000 an hour', async () => {
    harness = await startPublishing({});
    expect((await read(harness, undefined, 'demo.example.com', 108)).response.headers.get('x-ratelimit-limit')).toBe(
      '1000',
    );
  });
});
