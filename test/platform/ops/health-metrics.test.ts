import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  server = await startServer();
  call = contractFetch(await contractChecker());
});
afterAll(() => server.close());

describe('/healthz and /readyz', () => {
  it('healthz answers while the process is up', async () => {
    const res = await call(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('readyz checks the store', async () => {
    const res = await call(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { store: 'ok' } });
  });
});

describe('/metrics', () => {
  it('counts requests by service, operationId and status, and times them', async () => {
    await call(`${server.url}/v3/openapi`);
    await call(`${server.url}/rest/v1.1/sites/1/posts/101/restore`, { method: 'POST' });
    await call(`${server.url}/v3/no/such/path`);
    const res = await call(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('http_requests_total{service="profiles",operation="getOpenApiDocument",status="200"} 1');
    expect(text).toContain('http_requests_total{service="publishing",operation="restorePost",status="401"} 1');
    expect(text).toContain('http_requests_total{service="profiles",operation="none",status="404"} 1');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",service="profiles",operation="getOpenApiDocument"\}/);
    expect(text).toContain('# TYPE rate_limit_rejections_total counter');
    expect(text).toContain('# TYPE store_errors_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('readiness when the store is gone', () => {
  it('answers 503 naming the store', async () => {
    const other = await startServer();
    await other.built.close();
    const res = await call(`${other.url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', checks: { store: 'unavailable' } });
    other.server.closeAllConnections();
    other.server.close();
  });
});
