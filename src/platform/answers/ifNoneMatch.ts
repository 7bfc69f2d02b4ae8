import type { IncomingHttpHeaders } from 'node:http';

/**
 * True when an `If-None-Match` header matches the current entity tag, by
 * RFC 9110's weak comparison (`W/` ignored; `*` matches any). Evaluated here
 * rather than with Koa's `ctx.fresh`, which ignores the condition whenever
 * the request says `Cache-Control: no-cache`: a directive meant for caches,
 * which `fetch()` adds to every request that sets `If-None-Match` itself.
 */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = opaqueTag(etag);
  return header.split(',').some((candidate) => opaqueTag(candidate.trim()) === opaque);
}

const opaqueTag = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** A GET or HEAD whose `If-None-Match` matches the answer's entity tag (`ifNoneMatchMatches`): answered 304 with no body. */
export const notModified = (
  req: { readonly method?: string; readonly headers: IncomingHttpHeaders },
  etag: string,
): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && ifNoneMatchMatches(req.headers['if-none-match'] ?? '', etag);
