import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { requestOrigin } from '../../../platform/docs/servedContract.js';

/** The dashboard page's files, as `npm run build:ui` writes them into `dist/developers/`. */
const FILES: Record<string, { file: string; type: string }> = {
  '/developers': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/developers/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/developers/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
  '/developers/icon.svg': { file: 'icon.svg', type: 'image/svg+xml' },
};

/**
 * The page's Content-Security-Policy. Everything comes from this origin (no
 * CDN, no inline script or style), and the only script it may run is its
 * own file, named by its exact URL: not `'self'`, which would let any answer
 * of this origin that is valid JavaScript (a JSONP answer of the publishing
 * API) run as script on this page.
 */
const dashboardPolicy = (script: string) =>
  `default-src 'self'; script-src ${script}; style-src 'self'; img-src 'self'; connect-src 'self'; ` +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The page's other security headers: it cannot be framed, and it sends no referrer (a key never leaks through a link). */
const DASHBOARD_SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/**
 * The origin the policy names: `PUBLIC_URL`'s when it is set (a deployment:
 * never anything a request says); else, on a local start, the host the
 * request reached, only when it is a plain host and port. Anything else
 * names no script, so the page does not run rather than trust the header.
 */
function policyOrigin(ctx: Parameters<Middleware>[0], publicOrigin: string | undefined): string | undefined {
  return publicOrigin ?? requestOrigin(ctx);
}

/**
 * Serves the developer dashboard page at `/developers` from the built files
 * in `dir`; `publicUrl` is `PUBLIC_URL` when it is set.
 */
export function dashboardPage(dir: string, publicUrl?: string): Middleware {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  return async (ctx, next) => {
    const entry = FILES[ctx.path === '/developers/' ? '/developers' : ctx.path];
    if (!entry || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    let content: Buffer;
    try {
      content = await readFile(join(dir, entry.file));
    } catch {
      ctx.status = 404;
      ctx.body = { error: 'Dashboard not built: run `npm run build:ui`', code: 'not_found' };
      return;
    }
    ctx.set(DASHBOARD_SECURITY_HEADERS);
    const origin = policyOrigin(ctx, publicOrigin);
    // Without PUBLIC_URL the policy names the host the request reached: a cache must keep one page per Host.
    if (!publicOrigin) ctx.vary('Host');
    ctx.set('Content-Security-Policy', dashboardPolicy(origin ? `${origin}/developers/app.js` : "'none'"));
    // Revalidated on every load, so a new build is picked up at once.
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = entry.type;
    ctx.body = content;
  };
}
