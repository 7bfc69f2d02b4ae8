import type { Context } from 'koa';
import type { Outgoing, RouteMiss } from '../../../platform/pipeline/service.js';

/** Methods the platform's endpoint layer serves; any other is answered 405 on a known path. */
const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'POST']);

/** An empty `text/plain` answer, as the endpoint layer writes its own (never enveloped or wrapped). */
const emptyText = (status: number): Outgoing => ({ status, body: undefined, headers: {}, isError: true, text: '' });

/**
 * The platform's answer to a request no endpoint takes (`WPCOM_JSON_API::serve`,
 * the service's `onRouteMiss`): `OPTIONS` on any path is 200 with an empty
 * `text/plain` body (a preflight's CORS headers come with the presentation);
 * a `GET` or `POST` that matches nothing is 404 with an empty `text/plain`
 * body, even when the path is known under the other method; any other
 * method on a known path is 405 `{"error": "not_allowed", "error_message":
 * "Method not allowed"}` with `Allow` listing the path's methods
 * (`GET,POST`, no spaces). (No operation of the contract is an `OPTIONS`.)
 */
export function routeMissAnswer(ctx: Context, miss: RouteMiss): Outgoing {
  if (ctx.method === 'OPTIONS') return { ...emptyText(200), isError: false };
  if (miss.kind === 'not-found' || SERVED_METHODS.has(ctx.method)) return emptyText(404);
  return {
    status: 405,
    body: { error: 'not_allowed', error_message: 'Method not allowed' },
    headers: { Allow: miss.allow.filter((method) => SERVED_METHODS.has(method)).join(',') },
    isError: true,
  };
}
