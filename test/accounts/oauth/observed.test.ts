import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/processes.js';
import { startServer, type TestServer } from '../../support/server.js';
import { checkedFetch } from './support.js';

/** The authorization server's requests pass the observation step as every other: the access log and the request metrics. */
const METRICS_TOKEN = 'scraper-secret-token-for-tests';
const lines: Record<string, unknown>[] = [];
let server: TestServer;
beforeAll(async () => {
  const port = await freePort();
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, METRICS_TOKEN }, { logger });
});
afterAll(() => server?.close());

describe('/oauth2 requests', () => {
  it('are in the access log, with the path they reached and their status, and counted in the request metrics', async () => {
    const token = await checkedFetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'no-such-app',
        refresh_token: 'not-a-token',
      }).toString(),
    });
    expect(token.status).toBe(401);
    expect((await checkedFetch(`${server.url}/.well-known/oauth-authorization-server/oauth2`)).status).toBe(200);

    const logged = lines.filter((line) => line.msg === 'request');
    expect(logged).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/oauth2/token',
        status: 401,
        service: 'oauth',
        operationId: 'requestToken',
      }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        path: '/.well-known/oauth-authorization-server/oauth2',
        status: 200,
        operationId: 'getAuthorizationServerMetadata',
      }),
    );
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(metrics).toContain('http_requests_total{service="oauth",operation="requestToken",status="401"} 1');
    expect(metrics).toContain(
      'http_requests_total{service="oauth",operation="getAuthorizationServerMetadata",status="200"} 1',
    );
    // Never a credential in the log.
    expect(JSON.stringify(lines)).not.toContain('not-a-token');
  });
});
