import type { Middleware } from 'koa';
import { ownedBy } from '../../../platform/pipeline/service.js';
import { cachedLookups } from '../../../platform/store/lookupCache.js';
import { markAppOrigin, type AllowedOrigins } from './cors.js';

/**
 * Per-application CORS, as the platform has it: a browser `Origin` that a
 * registered OAuth application lists among its JavaScript origins may call
 * the publishing API, beside the operator's `PUBLISHING_CORS_ORIGINS`. The
 * list of every application's origins (`listOrigins`, which the module
 * builds over the accounts' `registeredOrigins`) is read at most once
 * per `ttlMs` per instance; a request under one of `prefixes` from such an origin is
 * marked for the presenter (`setCorsHeaders`).
 */
export function appOrigins(
  listOrigins: () => Promise<ReadonlySet<string>>,
  options: { prefixes: readonly [string, ...string[]]; operator: AllowedOrigins; ttlMs: number },
): Middleware {
  const origins = cachedLookups((_all: 'all') => listOrigins(), { ttlMs: options.ttlMs, maxEntries: 1 });
  const owns = ownedBy({ prefix: options.prefixes[0], otherPrefixes: options.prefixes.slice(1) });
  // Every request passes this step: one without a browser origin to look up passes without an asynchronous step.
  return (ctx, next) => {
    const origin = ctx.req.headers.origin;
    if (!origin || options.operator === '*' || options.operator.includes(origin) || !owns(ctx.path)) return next();
    const mark = (listed: ReadonlySet<string>) => {
      if (listed.has(origin)) markAppOrigin(ctx);
      return next();
    };
    // The list the cache holds answers at once; only a read of the store is waited for.
    const listed = origins.resolve('all');
    return listed instanceof Promise ? listed.then(mark) : mark(listed);
  };
}
