import type { ScopedHook } from '../../../platform/pipeline/hooks.js';
import { cachedLookups } from '../../../platform/store/lookupCache.js';
import { markAppOrigin, type AllowedOrigins } from './cors.js';

/**
 * Per-application CORS, as the platform has it: a browser `Origin` that a
 * registered OAuth application lists among its JavaScript origins may call
 * the publishing API, beside the operator's `PUBLISHING_CORS_ORIGINS`. The
 * list of every application's origins (`listOrigins`, which the module
 * builds over the accounts' `registeredOrigins`) is read at most once
 * per `ttlMs` per instance; a request under one of `prefixes` (the app runs
 * this hook for those only) from such an origin is marked for the presenter
 * (`setCorsHeaders`).
 */
export function appOrigins(
  listOrigins: () => Promise<ReadonlySet<string>>,
  options: { prefixes: readonly [string, ...string[]]; operator: AllowedOrigins; ttlMs: number },
): ScopedHook {
  const origins = cachedLookups((_all: 'all') => listOrigins(), { ttlMs: options.ttlMs, maxEntries: 1 });
  // A request without a browser origin to look up passes without an asynchronous step.
  const run: ScopedHook['run'] = (ctx, next) => {
    const origin = ctx.req.headers.origin;
    if (!origin || options.operator === '*' || options.operator.includes(origin)) return next();
    const mark = (listed: ReadonlySet<string>) => {
      if (listed.has(origin)) markAppOrigin(ctx);
      return next();
    };
    // The list the cache holds answers at once; only a read of the store is waited for.
    const listed = origins.resolve('all');
    return listed instanceof Promise ? listed.then(mark) : mark(listed);
  };
  return { prefixes: options.prefixes, run };
}
