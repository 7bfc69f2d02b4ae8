import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/**
 * One structured line per request: id, method, path (never the query string,
 * which may carry a token), status, duration, service and operation. Request
 * headers are not logged, so no key, token or `Authorization` value can leak.
 */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      if (logger.isLevelEnabled('info')) {
        logger.info(
          {
            requestId: ctx.state.requestId,
            method: ctx.method,
            path: ctx.path,
            status: ctx.status,
            ms: Math.round((performance.now() - started) * 10) / 10,
            service: ctx.state.service,
            operationId: ctx.state.operationId,
          },
          'request',
        );
      }
    }
  };
}
