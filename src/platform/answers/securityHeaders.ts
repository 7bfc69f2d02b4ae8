import type { Middleware } from 'koa';

/** HSTS for a year, sent only when the deployment is served over https. */
const HSTS = 'max-age=31536000';

/**
 * Headers every answer carries, whoever writes it: `nosniff`, so a browser
 * never runs an answer as another type than it says; and, when the
 * deployment is served over https, HSTS, so browsers stop trying plain http.
 * Written before anything else, so an error answer has them too.
 */
export function securityHeaders(options: { https: boolean }): Middleware {
  const hsts = options.https ? HSTS : undefined;
  return (ctx, next) => {
    ctx.res.setHeader('X-Content-Type-Options', 'nosniff');
    if (hsts) ctx.res.setHeader('Strict-Transport-Security', hsts);
    return next();
  };
}

/** The same headers as raw header lines (each ending in CRLF), for answers written to the socket before Koa sees the request. */
export function securityHeaderLines(options: { https: boolean }): string {
  return `X-Content-Type-Options: nosniff\r\n${options.https ? `Strict-Transport-Security: ${HSTS}\r\n` : ''}`;
}
