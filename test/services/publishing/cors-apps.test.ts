import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import type { TestServer } from '../../support/server.js';
import { APP_ORIGIN, registeredApp, startOAuthServer } from '../../accounts/oauth/support.js';

let server: TestServer;
let call: typeof fetch;
beforeAll(async () => {
  server = await startOAuthServer({ PUBLISHING_CORS_ORIGINS: 'https://operator.example.com' });
  call = contractFetch(await contractChecker());
  await registeredApp(server); // lists APP_ORIGIN among its JavaScript origins
});
afterAll(() => server?.close());

const post = (origin: string) => call(`${server.url}/rest/v1.1/sites/1/posts/108`, { headers: { Origin: origin } });

describe('CORS per registered application', () => {
  it('answers an origin an application lists, as it answers the operator’s', async () => {
    for (const origin of [APP_ORIGIN, 'https://operator.example.com']) {
      const response = await post(origin);
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const preflight = await fetch(`${server.url}/rest/v1.1/sites/1/posts/108/restore`, {
      method: 'OPTIONS',
      headers: {
        Origin: APP_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('gives no CORS header to an origin nobody lists', async () => {
    const response = await post('https://stranger.example.com');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});
