import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Middleware } from 'koa';

/** A rendered docs page with the Content-Security-Policy that lets exactly its own scripts run. */
interface DocsPage {
  mtimeMs: number;
  html: Buffer;
  policy: string;
}

/** Inline `<script>` elements (no `src`): their text, exactly as the browser hashes it. */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The page's policy: as script only the inline scripts it was built with,
 * each by its SHA-256 hash (Redocly's self-contained page has nothing
 * else), so no other answer of this origin (a JSONP answer of the
 * publishing API) can run as script on it; styles inline (Redoc writes its
 * own), images and fonts from this origin or data URLs, and a search worker
 * from a blob.
 */
function docsPolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`,
  );
  return (
    `default-src 'self'; script-src ${hashes.join(' ') || "'none'"}; style-src 'self' 'unsafe-inline'; ` +
    "img-src 'self' data:; font-src 'self' data:; worker-src blob:; connect-src 'self'; object-src 'none'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  );
}

/**
 * Serves the rendered API docs built by `npm run docs` (self-contained HTML,
 * no CDN) at `/docs/<service>`, each with a Content-Security-Policy naming
 * its own scripts (see `docsPolicy`), worked out once per build of the file.
 */
export function docsRoutes(docsDir: string, services: readonly string[]): Middleware {
  const files = new Map(services.map((name) => [`/docs/${name}`, join(docsDir, `${name}.html`)]));
  const pages = new Map<string, DocsPage>();
  const load = async (file: string): Promise<DocsPage> => {
    const { mtimeMs } = await stat(file);
    const cached = pages.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const html = await readFile(file);
    const page = { mtimeMs, html, policy: docsPolicy(html.toString('utf8')) };
    pages.set(file, page);
    return page;
  };
  return async (ctx, next) => {
    const file = files.get(ctx.path.replace(/\/$/, ''));
    if (!file || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    let page: DocsPage;
    try {
      page = await load(file);
    } catch {
      ctx.status = 404;
      ctx.body = { error: 'Docs not built: run `npm run docs`', code: 'not_found' };
      return;
    }
    ctx.body = page.html;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('Content-Security-Policy', page.policy);
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
}
