import cors from '@koa/cors';
import type { Middleware } from 'koa';

/**
 * CORS for the profiles API: "any origin may GET anonymously", a preflight
 * allows `Authorization` (and the headers the SDKs add), and scripts may read
 * the rate-limit headers and `ETag`. No cookies are involved, so the origin
 * is `*`.
 */
export function profilesCors(prefix: string): Middleware {
  const handle = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD'],
    allowHeaders: ['Authorization', 'If-None-Match', 'X-Platform', 'X-SDK-Version', 'X-Source', 'X-Request-Id'],
    exposeHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'ETag', 'X-Request-Id'],
    maxAge: 7200,
  });
  return (ctx, next) => (ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? handle(ctx, next) : next());
}
