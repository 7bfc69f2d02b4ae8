// @store-independent
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestMetrics } from '../../../src/platform/ops/metrics.js';

/** The same observations through prom-client's own Counter and Histogram, as the platform recorded them before. */
function promClientText() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by service, operationId and status.',
    labelNames: ['service', 'operation', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer, by service and operationId.',
    labelNames: ['service', 'operation'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return {
    registry,
    record: (service: string, operation: string, status: number, seconds: number) => {
      requests.inc({ service, operation, status: String(status) });
      duration.observe({ service, operation }, seconds);
    },
  };
}

const SAMPLES: [string, string, number, number][] = [
  ['profiles', 'getProfileById', 200, 0.0004],
  ['profiles', 'getProfileById', 200, 0.001],
  ['profiles', 'getProfileById', 404, 0.0031],
  ['profiles', 'getProfileById', 429, 7],
  ['publishing', 'restorePost', 200, 0.02],
  ['none', 'none', 404, 0.0001],
];

describe('request metrics', () => {
  it('write the very text prom-client writes for the same requests (counter and histogram)', async () => {
    const ours = new Registry();
    const metrics = new RequestMetrics(ours);
    const theirs = promClientText();
    for (const sample of SAMPLES) {
      metrics.record(...sample);
      theirs.record(...sample);
    }
    for (const name of ['http_requests_total', 'http_request_duration_seconds']) {
      expect(await ours.getSingleMetricAsString(name)).toBe(await theirs.registry.getSingleMetricAsString(name));
    }
  });

  it('write only the help and type lines before any request, as prom-client does for labelled series', async () => {
    const ours = new Registry();
    new RequestMetrics(ours);
    const theirs = promClientText();
    expect(await ours.metrics()).toBe(await theirs.registry.metrics());
  });
});
