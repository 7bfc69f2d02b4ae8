import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The one rate-limit recipe: rate-limiter-flexible counters in fixed
 * windows, and how to read the library's answer.
 */

/** A budget: `points` requests per `duration` seconds, counted under keys that start with `keyPrefix`. */
export interface RateLimitBudget {
  keyPrefix: string;
  points: number;
  duration: number;
}

/**
 * A limiter for a budget. Without Redis the counters live in this process.
 * With Redis every instance shares them, counted atomically there; while
 * Redis is unreachable each instance counts in its own memory (the
 * library's insurance limiter) and goes back to Redis as soon as it answers.
 */
export function fixedWindowLimiter(budget: RateLimitBudget, redis?: Redis): RateLimiterAbstract {
  const local = new RateLimiterMemory(budget);
  return redis ? new RateLimiterRedis({ ...budget, storeClient: redis, insuranceLimiter: local }) : local;
}

/** One point counted: `allowed` false when the key's budget for the window is spent; the library's result either way. */
export interface Counted {
  allowed: boolean;
  result: RateLimiterRes;
}

/**
 * Counts one point against `key`. The library rejects with its result when
 * the budget is spent (answered here as `allowed: false`) and with an Error
 * when its store fails (rejected as it is: the store is unavailable).
 */
export async function countPoint(limiter: RateLimiterAbstract, key: string): Promise<Counted> {
  try {
    return { allowed: true, result: await limiter.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, result: rejection };
    throw rejection;
  }
}

/** Whole seconds until the key's window ends, at least 1: a `Retry-After`. */
export const retryAfterSeconds = (result: RateLimiterRes): number => Math.max(1, Math.ceil(result.msBeforeNext / 1000));
