import { configFromEnv } from '../../../src/app.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractChecker, contractFetch } from '../../support/contract.js';
import { freePort, startProcess } from '../../support/processes.js';
import { startServer, type TestServer } from '../../support/server.js';

const METRICS_TOKEN = 'scraper-secret-token-for-tests';
let server: TestServer;
let call: typeof fetch;

beforeAll(async () => {
  server = await startServer({ METRICS_TOKEN });
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
    const res = await call(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('http_requests_total{service="profiles",operation="getOpenApiDocument",status="200"} 1');
    expect(text).toContain('http_requests_total{service="publishing",operation="restorePost",status="401"} 1');
    expect(text).toContain('http_requests_total{service="profiles",operation="none",status="404"} 1');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",service="profiles",operation="getOpenApiDocument"\}/,
    );
    expect(text).toContain('# TYPE rate_limit_rejections_total counter');
    expect(text).toContain('# TYPE store_errors_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});

describe('where /metrics is served', () => {
  it('nowhere on the API port by default: 404', async () => {
    const plain = await startServer();
    try {
      const res = await call(`${plain.url}/metrics`);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('http_requests_total');
      // Nor are prom-client's process metrics kept (an event loop delay histogram, a watch on every collection).
      expect(plain.built.metrics.registry.getSingleMetric('process_cpu_user_seconds_total')).toBeUndefined();
      expect(server.built.metrics.registry.getSingleMetric('process_cpu_user_seconds_total')).toBeDefined();
    } finally {
      await plain.close();
    }
  });

  it('on the API port with METRICS_TOKEN, only for the bearer of that token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${METRICS_TOKEN}`]) {
      const res = await call(
        `${server.url}/metrics`,
        authorization ? { headers: { Authorization: authorization } } : {},
      );
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain('http_requests_total');
    }
  });

  it('with METRICS_PORT on a listener of its own, and not on the API port', async () => {
    const metricsPort = await freePort();
    const instance = await startProcess({
      DATABASE_URL: 'sqlite::memory:',
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
    });
    try {
      expect((await fetch(`${instance.base}/metrics`)).status).toBe(404);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
    } finally {
      await instance.stop();
    }
  });
});

describe('the metrics listener', () => {
  it('listens on loopback by default, whatever HOST says; METRICS_HOST overrides it', () => {
    expect(configFromEnv({ METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics.host).toBe('127.0.0.1');
    expect(configFromEnv({ METRICS_PORT: '9464' }).metrics.host).toBe('127.0.0.1');
    expect(configFromEnv({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics.host).toBe('0.0.0.0');
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
