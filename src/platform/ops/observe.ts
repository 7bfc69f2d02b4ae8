import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.js';

/** What is counted and logged of one answered request. */
export interface ObservedRequest {
  requestId: string;
  method: string;
  /** The path, never the query string (which may carry a token). */
  path: string;
  status: number;
  /** The service and operation that answered it, when one did. */
  service: string | undefined;
  operationId: string | undefined;
}

/**
 * Counts, times and logs one answered request (`started`: `performance.now()`
 * when it came), as the Koa step below runs it for every request.
 *
 * Metrics: a request that no service and operation answered is counted as
 * `service="none"`, `operation="none"` so unknown paths cannot create
 * unbounded label values.
 *
 * Access log: one structured line per request at `info`: id, method, path
 * (never the query string, which may carry a token), status, duration,
 * service and operation. Request headers are not logged, so no key, token
 * or `Authorization` value can leak. With tracing on, the line also carries
 * the request's trace and span ids.
 */
export function requestObserver(
  logger: Logger,
  metrics: Metrics,
  traceIds?: () => { traceId: string; spanId: string } | undefined,
): (request: ObservedRequest, started: number) => void {
  return (request, started) => {
    const seconds = (performance.now() - started) / 1000;
    metrics.requests.record(request.service ?? 'none', request.operationId ?? 'none', request.status, seconds);
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          requestId: request.requestId,
          method: request.method,
          path: request.path,
          status: request.status,
          ms: Math.round(seconds * 10_000) / 10,
          service: request.service,
          operationId: request.operationId,
          ...traceIds?.(),
        },
        'request',
      );
    }
  };
}

/**
 * Counts, times and logs every request (`requestObserver`), in one
 * asynchronous step (each awaiting middleware adds a promise step to every
 * request). The pipeline names the service and operation in `ctx.state`.
 */
export function observeRequests(
  logger: Logger,
  metrics: Metrics,
  traceIds?: () => { traceId: string; spanId: string } | undefined,
): Middleware {
  const observed = requestObserver(logger, metrics, traceIds);
  return async function observe(ctx, next) {
    const started = performance.now();
    try {
      await next();
    } finally {
      observed(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          service: ctx.state.service,
          operationId: ctx.state.operationId,
        },
        started,
      );
    }
  };
}
