import type { Context } from 'koa';
import type { Outgoing, RouteMiss } from '../../../platform/pipeline/service.js';

/** Methods the platform's endpoint layer serves; any other is answered 405 on a known path. */
const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'POST']);

/** An empty `text/plain` answer, as the endpoint layer writes its own (never enveloped or wrapped). */
const emptyText = (status: number): Outgoing => ({ status, body: undefined, headers: {}, isError: true, text: '' });

/**
 * The platform's answer to `OPTIONS` on any path, before routing: 200 with
 * an empty `text/plain` body (a preflight's CORS headers come with the
 * presentation).
 */
export function optionsAnswer(ctx: Context): Outgoing | undefined {
  return ctx.method === 'OPTIONS' ? { ...emptyText(200), isError: false } : undefined;
}

/**
 * The platform's answer to a request no endpoint takes (`WPCOM_JSON_API::serve`):
 * a `GET` or `POST` that matches nothing is 404 with an empty `text/plain`
 * body, even when the path is known under the other method; any other
 * method on a known path is 405 `{"error": "not_allowed", "error_message":
 * "Method not allowed"}` with `Allow` listing the path's methods
 * (`GET,POST`, no spaces).
 */
export function unroutedAnswer(ctx: Context, miss: RouteMiss): Outgoing {
  if (miss.kind === 'not-found' || SERVED_METHODS.has(ctx.method)) return emptyText(404);
  return {
    status: 405,
    body: { error: 'not_allowed', error_message: 'Method not allowed' },
    headers: { Allow: miss.allow.filter((method) => SERVED_METHODS.has(method)).join(',') },
    isError: true,
  };
}
