import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The Prometheus metrics of one app instance (its own registry, so tests can build many apps). */
export interface Metrics {
  registry: Registry;
  requests: Counter<'service' | 'operation' | 'status'>;
  duration: Histogram<'service' | 'operation'>;
  rateLimitRejections: Counter<'service' | 'caller'>;
  storeErrors: Counter;
}

/** Creates the registry with process metrics and the platform's series (services add their own to `registry`). */
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
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `GET /metrics` in the Prometheus text format, for whoever presents
 * `Authorization: Bearer <token>` when a token is given (401 otherwise; the
 * token is compared in constant time), for anyone without one (the route is
 * then mounted only on the metrics port, never on the public API port).
 */
export function metricsRoute(metrics: Metrics, options: { token?: string } = {}): Middleware {
  const expected = options.token === undefined ? undefined : digest(options.token);
  // Not async: every other request passes straight on.
  return (ctx, next) => {
    if (ctx.path !== '/metrics' || ctx.method !== 'GET') return next();
    if (expected) {
      const presented = /^Bearer +(\S+) *$/i.exec(ctx.get('authorization'))?.[1];
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        ctx.body = { error: 'Unauthorized', code: 'unauthorized' };
        return Promise.resolve();
      }
    }
    return metrics.registry.metrics().then((text) => {
      ctx.type = metrics.registry.contentType;
      ctx.body = text;
    });
  };
}
