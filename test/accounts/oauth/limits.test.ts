import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../support/server.js';
import { authorizedCallback, checkedFetch, personOf, redeem, registeredApp, startOAuthServer } from './support.js';

/**
 * The authorization server's limits (`src/platform/security/limits.ts`):
 * every request per client address (`RATE_LIMIT_OAUTH`), and the requests
 * naming an application per application and address (`RATE_LIMIT_OAUTH_APPLICATION`),
 * small here so a flood is short. Client addresses are told apart by
 * `X-Forwarded-For` (`TRUST_PROXY`).
 */
const PER_ADDRESS = 20;
const PER_APPLICATION = 5;
let server: TestServer;
beforeAll(async () => {
  server = await startOAuthServer({
    RATE_LIMIT_OAUTH: String(PER_ADDRESS),
    RATE_LIMIT_OAUTH_APPLICATION: String(PER_APPLICATION),
    TRUST_PROXY: 'true',
  });
});
afterAll(() => server?.close());

/** A token request (a refresh token that is no token) naming `clientId`, from `address`; its answer checked against the contract. */
const tokenRequest = (clientId: string, address: string) =>
  checkedFetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': address },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: clientId,
      refresh_token: 'not-a-token',
    }).toString(),
  });

/** A refusal as the project answers one: 429 `rate_limited`, the rate-limit headers of the spent budget, and when to come back. */
async function expectRefused(response: Response, limit: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
  expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await response.json()).toMatchObject({ error: 'rate_limited' });
}

/** A whole authorization from this test's own address: the app gets tokens. */
async function tokensFor(app: Awaited<ReturnType<typeof registeredApp>>) {
  const person = await personOf(server, 'ada@demo.example.com');
  const flow = await authorizedCallback(server, app, person, 'publishing:read', [{ id: 1, access: 'read' }]);
  return redeem(app, flow.callback, flow.state, flow.codeVerifier);
}

describe('per application', () => {
  it('junk naming an app’s client_id from many addresses spends only each sender’s share: the app’s users still get tokens', async () => {
    const app = await registeredApp(server);
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      for (let sent = 0; sent < PER_APPLICATION; sent++)
        expect((await tokenRequest(app.client.client_id, address)).status).toBe(400);
      // Past its share for this app, one address is refused for it.
      await expectRefused(await tokenRequest(app.client.client_id, address), PER_APPLICATION);
    }
    expect((await tokensFor(app)).access_token).toEqual(expect.any(String));
  });
});

describe('per client address', () => {
  it('one address’s flood is refused, whatever apps it names; another address still gets tokens', async () => {
    const app = await registeredApp(server);
    for (let sent = 0; sent < PER_ADDRESS; sent++) {
      const answer = await tokenRequest(`no-such-app-${sent}`, '203.0.113.7');
      expect(answer.status).not.toBe(429);
    }
    await expectRefused(await tokenRequest(app.client.client_id, '203.0.113.7'), PER_ADDRESS);
    expect((await tokensFor(app)).access_token).toEqual(expect.any(String));
  });
});
