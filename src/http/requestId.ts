import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Gives each request an id (a well-formed incoming `X-Request-Id` is kept) and echoes it. */
export const requestId: Middleware = async (ctx, next) => {
  const incoming = ctx.get('x-request-id');
  ctx.state.requestId = SAFE_ID.test(incoming) ? incoming : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
};
