import cors from '@koa/cors';
import type { ScopedHook } from '../../../platform/pipeline/hooks.js';
import { setHeader, varyOn } from '../../../platform/answers/headers.js';

/** The profiles API's CORS settings (the mock, scripts/mock/front.ts, answers by them too). */
export const PROFILES_CORS = {
  allowMethods: ['GET', 'HEAD'],
  allowHeaders: ['Authorization', 'If-None-Match', 'X-Platform', 'X-SDK-Version', 'X-Source', 'X-Request-Id'],
  exposeHeaders: [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
    'ETag',
    'X-Request-Id',
  ],
  maxAge: 7200,
} as const;
const EXPOSED = PROFILES_CORS.exposeHeaders;

/**
 * CORS for the profiles API and its avatar images (every prefix in
 * `prefixes`): "any origin may GET anonymously", a preflight allows
 * `Authorization` (and the headers the SDKs add), and scripts may read the
 * rate-limit headers and `ETag`. No cookies are involved, so the origin is
 * `*` (a page may draw an avatar on a canvas and read it back).
 *
 * The app runs it only for requests under those prefixes (a scoped hook).
 * Preflights (`OPTIONS`) are answered by @koa/cors. Every other request gets
 * the same two headers that @koa/cors would set, and `Vary: Origin`, without
 * an asynchronous step: this runs on every lookup. (@koa/cors also copies
 * its headers onto an error thrown past it; nothing is thrown past it here,
 * since the contract pipeline answers every error under the prefix itself.)
 */
export function profilesCors(prefixes: readonly [string, ...string[]]): ScopedHook {
  const preflight = cors({
    origin: '*',
    allowMethods: [...PROFILES_CORS.allowMethods],
    allowHeaders: [...PROFILES_CORS.allowHeaders],
    exposeHeaders: [...EXPOSED],
    maxAge: PROFILES_CORS.maxAge,
  });
  const exposed = EXPOSED.join(',');
  return {
    prefixes,
    run: (ctx, next) => {
      if (ctx.method === 'OPTIONS') return preflight(ctx, next);
      varyOn(ctx, 'Origin');
      setHeader(ctx, 'Access-Control-Allow-Origin', '*');
      setHeader(ctx, 'Access-Control-Expose-Headers', exposed);
      return next();
    },
  };
}
