import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

/**
 * Counts, times and logs every request, in one asynchronous step (each
 * awaiting middleware adds a promise step to every request).
 *
 * Metrics: the pipeline names the service and operation in `ctx.state`;
 * anything else is counted as `service="none"`, `operation="none"` so
 * unknown paths cannot create unbounded label values.
 *
 * Access log: one structured line per request at `info`: id, method, path
 * (never the query string, which may carry a token), status, duration,
 * service and operation. Request headers are not logged, so no key, token
 * or `Authorization` value can leak. With tracing on, the line also carries
 * the request's trace and span ids.
 */
export function observeRequests(
  logger: Logger,
  metrics: Metrics,
  traceIds?: () => { traceId: string; spanId: string } | undefined,
): Middleware {
  return async function observe(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      const service: string = ctx.state.service ?? 'none';
      const operation: string = ctx.state.operationId ?? 'none';
      metrics.requests.record(service, operation, ctx.status, seconds);
      if (logger.isLevelEnabled('info')) {
        logger.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round(seconds * 10_000) / 10,
            service: ctx.state.service,
            operationId: ctx.state.operationId,
            ...traceIds?.(),
          },
          'request',
        );
      }
    }
  };
}
