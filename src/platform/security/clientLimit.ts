import type { Context } from 'koa';
import type { ApiError } from '../http/errors.js';
import type { Writes } from '../http/handlers.js';
import { setHeaders } from '../http/headers.js';
import type { RedisClient } from '../store/redis.js';
import { rateLimitClient } from './clientAddress.js';
import { fixedWindowLimiter, retryAfterSeconds, type Counted } from './rateLimit.js';

/** The rate-limit headers an admit step that counts requests writes on every answer it lets through (its `writes`). */
export const RATE_LIMIT_HEADERS = { 'X-RateLimit-Limit': true, 'X-RateLimit-Remaining': true, 'X-RateLimit-Reset': true } as const;

export type RateLimitHeader = keyof typeof RATE_LIMIT_HEADERS;

/** The rate-limit headers of an answer counted against a budget of `limit`. */
export function rateLimitHeaders(limit: number, counted: Counted): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(counted.remainingPoints),
    'X-RateLimit-Reset': String(Math.ceil((Date.now() + counted.msBeforeNext) / 1000)),
  };
}

/**
 * An admit step that counts each request against the client address
 * (`ctx.ip`, by `rateLimitClient`: IPv6 by its /64) in fixed windows of
 * `duration` seconds, shared through Redis when given: sets the
 * `X-RateLimit-*` headers, and over the budget throws what `refuse` makes of
 * them (with `Retry-After`), in the service's own error format.
 */
export function perClientLimit(options: {
  name: string;
  points: number;
  duration: number;
  shared?: { redis: RedisClient; keyPrefix: string };
  refuse: (headers: Record<string, string>) => ApiError;
  onRefused?: () => void;
}): ((ctx: Context) => void | Promise<void>) & Writes<RateLimitHeader> {
  const counter = fixedWindowLimiter(
    { keyPrefix: `${options.shared?.keyPrefix ?? 'rl'}:${options.name}`, points: options.points, duration: options.duration },
    options.shared?.redis,
  );
  const admit = (ctx: Context, counted: Counted) => {
    const headers = rateLimitHeaders(counter.points, counted);
    if (!counted.allowed) {
      options.onRefused?.();
      throw options.refuse({ ...headers, 'Retry-After': String(retryAfterSeconds(counted)) });
    }
    setHeaders(ctx, headers);
  };
  const step = (ctx: Context) => {
    const counted = counter.count(rateLimitClient(ctx.ip));
    // Counted in this process, the answer is at hand: no asynchronous step.
    if (counted instanceof Promise) return counted.then((done) => admit(ctx, done));
    admit(ctx, counted);
  };
  return Object.assign(step, { writes: RATE_LIMIT_HEADERS });
}
