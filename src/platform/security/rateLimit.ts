import type { RedisClient } from '../store/redis.js';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * The one rate-limit recipe: counters in fixed windows, and how to read
 * their answer. Shared counters (Redis, the store) are rate-limiter-flexible
 * limiters; counters that live in this process are `InProcessWindows`, which
 * answer synchronously: a lookup that is counted here pays no asynchronous
 * step for it.
 */

/** A budget: `points` requests per `duration` seconds, counted under keys that start with `keyPrefix`. */
export interface RateLimitBudget {
  keyPrefix: string;
  points: number;
  duration: number;
}

/** One point counted: `allowed` false when the key's budget for the window is spent. */
export interface Counted {
  allowed: boolean;
  /** Points left in the window (0 when refused). */
  remainingPoints: number;
  /** Milliseconds until the window ends. */
  msBeforeNext: number;
}

/** Counts points against keys, each in a window of its own; synchronous where the counters live in this process. */
export interface WindowCounter {
  readonly points: number;
  count(key: string): Counted | Promise<Counted>;
}

/**
 * Fixed windows kept in this process: a key's window starts at its first
 * point and lasts `duration` seconds, as rate-limiter-flexible's memory
 * limiter counts (the Redis limiter's insurance), without a timer or a
 * promise per key. Ended windows are swept once a window's length has
 * passed, so memory follows the keys seen in the last window or two.
 */
export class InProcessWindows implements WindowCounter {
  readonly points: number;
  private readonly windowMs: number;
  private windows = new Map<string, { used: number; endsAt: number }>();
  private nextSweep: number;

  constructor(budget: Pick<RateLimitBudget, 'points' | 'duration'>) {
    this.points = budget.points;
    this.windowMs = budget.duration * 1000;
    this.nextSweep = Date.now() + this.windowMs;
  }

  count(key: string): Counted {
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { used: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.used++;
    return {
      allowed: window.used <= this.points,
      remainingPoints: Math.max(0, this.points - window.used),
      msBeforeNext: window.endsAt - now,
    };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/** A rate-limiter-flexible limiter as a window counter (it answers through a promise). */
export class LibraryWindows implements WindowCounter {
  constructor(private readonly limiter: RateLimiterAbstract) {}
  get points() {
    return this.limiter.points;
  }
  count(key: string): Promise<Counted> {
    return countPoint(this.limiter, key);
  }
}

/**
 * A counter for a budget. Without Redis the counters live in this process
 * (synchronous). With Redis every instance shares them, counted atomically
 * there; while Redis is unreachable each instance counts in its own memory
 * (the library's insurance limiter) and goes back to Redis as soon as it
 * answers.
 */
export function fixedWindowLimiter(budget: RateLimitBudget, redis?: RedisClient): WindowCounter {
  if (!redis) return new InProcessWindows(budget);
  return new LibraryWindows(new RateLimiterRedis({ ...budget, storeClient: redis, insuranceLimiter: new RateLimiterMemory(budget) }));
}

/**
 * Counts one point against `key` on a rate-limiter-flexible limiter. The
 * library rejects with its result when the budget is spent (answered here as
 * `allowed: false`) and with an Error when its store fails (rejected as it
 * is: the store is unavailable).
 */
export async function countPoint(limiter: RateLimiterAbstract, key: string): Promise<Counted> {
  try {
    return counted(true, await limiter.consume(key));
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return counted(false, rejection);
    throw rejection;
  }
}

const counted = (allowed: boolean, result: RateLimiterRes): Counted => ({
  allowed,
  remainingPoints: Math.max(0, result.remainingPoints),
  msBeforeNext: result.msBeforeNext,
});

/** Whole seconds until the key's window ends, at least 1: a `Retry-After`. */
export const retryAfterSeconds = (result: Pick<Counted, 'msBeforeNext'>): number => Math.max(1, Math.ceil(result.msBeforeNext / 1000));
