import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../config.js';

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
 * `RATE_LIMIT_*`). Counters live in this process (rate-limiter-flexible's
 * fixed-window memory limiter).
 */
export function createRateLimiter(limits: Config['rateLimits']): RateLimiter {
  // A window of 0 would mean "never reset" to the library, and no reset time could be told.
  if (limits.windowSeconds < 1) throw new Error('RATE_LIMIT_WINDOW_SECONDS must be at least 1');
  const anonymous = new RateLimiterMemory({
    keyPrefix: 'profiles-anonymous',
    points: limits.anonymousPerHour,
    duration: limits.windowSeconds,
  });
  const keyed = new RateLimiterMemory({
    keyPrefix: 'profiles-key',
    points: limits.keyedPerHour,
    duration: limits.windowSeconds,
  });
  return {
    async take(caller) {
      const [limiter, id] = caller.kind === 'key' ? [keyed, caller.keyId] : [anonymous, caller.ip];
      try {
        return decision(limiter.points, true, await limiter.consume(id));
      } catch (rejection) {
        // The library rejects with its result when the limit is exhausted, and with an Error when its store fails.
        if (rejection instanceof RateLimiterRes) return decision(limiter.points, false, rejection);
        throw rejection;
      }
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
