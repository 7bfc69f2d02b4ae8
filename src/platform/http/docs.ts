import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Middleware } from 'koa';

/**
 * Serves the rendered API docs built by `npm run docs` (self-contained HTML,
 * no CDN) at `/docs/<service>`.
 */
export function docsRoutes(docsDir: string, services: readonly string[]): Middleware {
  const pages = new Map(services.map((name) => [`/docs/${name}`, join(docsDir, `${name}.html`)]));
  return async (ctx, next) => {
    const file = pages.get(ctx.path.replace(/\/$/, ''));
    if (!file || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    try {
      ctx.body = await readFile(file);
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=300');
    } catch {
      ctx.status = 404;
      ctx.body = { error: 'Docs not built: run `npm run docs`', code: 'not_found' };
    }
  };
}
