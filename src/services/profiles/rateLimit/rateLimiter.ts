import type { Redis } from 'ioredis';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import { countPoint, fixedWindowLimiter } from '../../../platform/security/rateLimit.js';
import type { Config } from '../../../platform/config.js';

/** Who a request is counted against: anonymous callers per client IP, keyed ones per key. */
export type RateLimitedCaller = { kind: 'anonymous'; ip: string } | { kind: 'key'; keyId: string };

/** The outcome of counting one request. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests allowed in the current period. */
  limit: number;
  /** Requests left in the current period. */
  remaining: number;
  /** Unix time (seconds) when the current period ends. */
  resetsAt: number;
  /** Seconds until the next request will be accepted (meaningful when not allowed). */
  retryAfter: number;
}

/** Counts profile lookups; the one place that knows which limiter library and backend do the counting. */
export interface RateLimiter {
  take(caller: RateLimitedCaller): Promise<RateLimitDecision>;
}

/**
 * The rate limiter for the configured limits: "100 requests per hour" per
 * client IP without a key, "1000 requests per hour" per key (defaults; see
 * `RATE_LIMIT_*`), counted by the platform's recipe (`fixedWindowLimiter`):
 * in this process, or shared by every instance in Redis (`REDIS_URL`).
 */
export function createRateLimiter(
  limits: Config['rateLimits'],
  shared?: { redis: Redis; keyPrefix: string },
): RateLimiter {
  const limiter = (name: string, points: number) =>
    fixedWindowLimiter({ keyPrefix: `${shared?.keyPrefix ?? 'rl'}:profiles-${name}`, points, duration: limits.windowSeconds }, shared?.redis);
  const anonymous = limiter('anonymous', limits.anonymousPerHour);
  const keyed = limiter('key', limits.keyedPerHour);
  return {
    async take(caller) {
      const [counter, id] = caller.kind === 'key' ? [keyed, caller.keyId] : [anonymous, caller.ip];
      const { allowed, result } = await countPoint(counter, id);
      return decision(counter.points, allowed, result);
    },
  };
}

function decision(limit: number, allowed: boolean, result: RateLimiterRes): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, result.remainingPoints),
    resetsAt: Math.ceil((Date.now() + result.msBeforeNext) / 1000),
    retryAfter: Math.ceil(result.msBeforeNext / 1000),
  };
}
