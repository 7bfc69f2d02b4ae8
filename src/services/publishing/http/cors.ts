import type { Context } from 'koa';
import { setHeader, setHeaders, varyOn, type AnswerContext } from '../../../platform/answers/headers.js';

/** Origins whose scripts may call the publishing API: a list, or `'*'` for any. */
export type AllowedOrigins = readonly string[] | '*';

/** What a preflight allows: the methods the API serves, and the headers its clients send. */
const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '7200',
};

/** Marks a request whose `Origin` a registered OAuth application lists among its JavaScript origins (see `appOrigins`). */
export const markAppOrigin = (ctx: Context): void => {
  ctx.state.appOrigin = true;
};

const isAppOrigin = (ctx: AnswerContext): boolean => ctx.state.appOrigin === true;

/**
 * Sets the CORS headers of a publishing answer. A `400` or `404` carries
 * `Access-Control-Allow-Origin: *` whatever the origin (the platform's
 * endpoint layer sends it so); any other answer to an allowed origin carries
 * that origin (`*` when every origin is allowed), and a preflight from one
 * (`OPTIONS` with `Access-Control-Request-Method`) the methods and headers it
 * may use. Other origins get no CORS header, so browsers keep the answer
 * from their scripts. An origin a registered application lists (its
 * "JavaScript origins") is allowed like the operator's list. `status` is the
 * real status (before any envelope).
 */
export function setCorsHeaders(ctx: AnswerContext, status: number, allowed: AllowedOrigins): void {
  // Written straight to Node's response (`platform/answers/headers.ts`): this runs on every answer.
  varyOn(ctx, 'Origin');
  if (status === 400 || status === 404) {
    setHeader(ctx, 'Access-Control-Allow-Origin', '*');
    return;
  }
  const origin = ctx.req.headers.origin;
  if (!origin || (allowed !== '*' && !allowed.includes(origin) && !isAppOrigin(ctx))) return;
  setHeader(ctx, 'Access-Control-Allow-Origin', allowed === '*' ? '*' : origin);
  if (ctx.method === 'OPTIONS' && ctx.req.headers['access-control-request-method']) setHeaders(ctx, PREFLIGHT);
}
