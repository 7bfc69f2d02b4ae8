import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { setHeader } from './headers.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request an id (a well-formed incoming `X-Request-Id` is kept) and echoes it.
 * Synchronous: it hands on `next()`'s promise instead of awaiting it, so it
 * adds no asynchronous step to every request.
 */
export const requestId: Middleware = (ctx, next) => {
  const incoming = ctx.req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
  ctx.state.requestId = id;
  setHeader(ctx, 'X-Request-Id', id);
  return next();
};
