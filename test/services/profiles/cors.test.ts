import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookup, startProfiles, type ProfilesTestServer } from './support.js';

let harness: ProfilesTestServer;
beforeAll(async () => {
  // Publishing too: its API, which answers CORS its own way, is where the profiles' CORS must not reach.
  harness = await startProfiles({ SERVICES: 'profiles,publishing' });
});
afterAll(() => harness.close());

const ORIGIN = 'https://widget.example.org';
const listed = (value: string | null) => (value ?? '').split(',').map((name) => name.trim().toLowerCase());

describe('a preflight', () => {
  // A preflight is answered by the CORS layer before the contract pipeline and
  // is not an operation of the contract, so it is sent with plain fetch.
  it('allows any origin to GET with Authorization', async () => {
    const res = await fetch(`${harness.server.url}/v3/profiles/alex`, {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, x-platform',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(res.headers.get('access-control-allow-methods'))).toContain('get');
    expect(listed(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['authorization', 'x-platform', 'if-none-match']),
    );
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('is not answered outside the profiles API', async () => {
    const res = await fetch(`${harness.server.url}/rest/v1.1/openapi`, {
      method: 'OPTIONS',
      headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'GET' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a cross-origin lookup', () => {
  it('may be read by any origin, anonymously, with the rate-limit headers and ETag exposed', async () => {
    const { status, headers } = await lookup(harness, 'alex', { headers: { Origin: ORIGIN } });
    expect(status).toBe(200);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(headers.get('access-control-allow-credentials')).toBeNull();
    expect(listed(headers.get('access-control-expose-headers'))).toEqual(
      expect.arrayContaining([
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'retry-after',
        'etag',
      ]),
    );
  });

  it('exposes the headers on errors too', async () => {
    const { status, headers } = await lookup(harness, 'nobody-here', { headers: { Origin: ORIGIN } });
    expect(status).toBe(404);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(listed(headers.get('access-control-expose-headers'))).toContain('x-ratelimit-remaining');
  });
});
