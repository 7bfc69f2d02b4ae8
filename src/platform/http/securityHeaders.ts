import type { Middleware } from 'koa';

/**
 * Headers every answer carries, whoever writes it: `nosniff`, so a browser
 * never runs an answer as another type than it says; and, when the
 * deployment is served over https, HSTS, so browsers stop trying plain http.
 * Written before anything else, so an error answer has them too.
 */
export function securityHeaders(options: { https: boolean }): Middleware {
  const hsts = options.https ? 'max-age=31536000' : undefined;
  return (ctx, next) => {
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
    if (hsts) ctx.res.setHeader('Strict-Transport-Security', hsts);
    return next();
  };
}
