import type { Middleware } from 'koa';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  requests: Counter<'service' | 'operation' | 'status'>;
  duration: Histogram<'service' | 'operation'>;
  rateLimitRejections: Counter<'service' | 'caller'>;
  storeErrors: Counter;
  postRestores: Counter<'outcome'>;
}

/** Creates the registry with process metrics and the API's own series. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by service, operationId and status.',
      labelNames: ['service', 'operation', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by service and operationId.',
      labelNames: ['service', 'operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429, by service and kind of caller.',
      labelNames: ['service', 'caller'],
      registers: [registry],
    }),
    storeErrors: new Counter({
      name: 'store_errors_total',
      help: 'Store queries that failed.',
      registers: [registry],
    }),
    postRestores: new Counter({
      name: 'post_restores_total',
      help: 'Authorised restores: `restored` made the transition, `unchanged` found the post out of the trash.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };
}

/**
 * Counts and times every request. The pipeline names the service and
 * operation in `ctx.state`; anything else is counted as `service="none"`,
 * `operation="none"` so unknown paths cannot create unbounded label values.
 */
export function metricsMiddleware(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const service = ctx.state.service ?? 'none';
      const operation = ctx.state.operationId ?? 'none';
      metrics.requests.inc({ service, operation, status: String(ctx.status) });
      metrics.duration.observe({ service, operation }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}

/** `GET /metrics` in the Prometheus text format. */
export function metricsRoute(metrics: Metrics): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}
