import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { setHeader } from './headers.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A request's id: a well-formed incoming `X-Request-Id`, else a new one. */
export const requestIdOf = (incoming: string | string[] | undefined): string =>
  typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();

/**
 * Gives each request an id (a well-formed incoming `X-Request-Id` is kept) and echoes it.
 * Synchronous: it hands on `next()`'s promise instead of awaiting it, so it
 * adds no asynchronous step to every request.
 */
export const requestId: Middleware = (ctx, next) => {
  const id = requestIdOf(ctx.req.headers['x-request-id']);
  ctx.state.requestId = id;
  setHeader(ctx, 'X-Request-Id', id);
  return next();
};
