import type { RedisClient } from '../../../platform/store/redis.js';
import { fixedWindowLimiter, type Counted, type WindowCounter } from '../../../platform/security/rateLimit.js';
import type { ProfilesSettings } from '../settings.js';

/**
 * Who a request is counted against: anonymous callers per client IP, keyed ones per key, per inbox of the
 * key's account (`canonicalInbox`: every account of one inbox together) and per client IP.
 */
export type RateLimitedCaller = { kind: 'anonymous'; ip: string } | { kind: 'key'; keyId: string; inbox: string; ip: string };

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
  /** Synchronous when the counters live in this process (no Redis). */
  take(caller: RateLimitedCaller): RateLimitDecision | Promise<RateLimitDecision>;
}

/**
 * The rate limiter for the configured limits: "100 requests per hour" per
 * client IP without a key, "1000 requests per hour" per key and, across all
 * the keys of an account's applications, 1000 per account (defaults; see
 * `RATE_LIMIT_*`), counted by the platform's recipe (`fixedWindowLimiter`):
 * in this process, or shared by every instance in Redis (`REDIS_URL`), with
 * each instance counting on its own while Redis is unreachable. The
 * account's count is what makes a new key (a rotation, another
 * application) no way around the hourly allowance; it is kept per inbox
 * (`carol+k1@` and `c.a.r.o.l@` share `carol@`'s), so another account of
 * the same inbox is none either, and keyed lookups from one client address
 * are bounded too (`RATE_LIMIT_KEYED_PER_CLIENT`), whatever keys it holds.
 */
export function createRateLimiter(
  limits: Omit<ProfilesSettings['rateLimits'], 'avatarsPerHour'>,
  shared?: { redis: RedisClient; keyPrefix: string },
): RateLimiter {
  const limiter = (name: string, points: number) =>
    fixedWindowLimiter({ keyPrefix: `${shared?.keyPrefix ?? 'rl'}:profiles-${name}`, points, duration: limits.windowSeconds }, shared?.redis);
  const anonymous = limiter('anonymous', limits.anonymousPerHour);
  const keyed = limiter('key', limits.keyedPerHour);
  const account = limiter('account', limits.accountPerHour);
  const keyedClient = limiter('keyed-client', limits.keyedPerClientPerHour);
  const count = (counter: WindowCounter, id: string): RateLimitDecision | Promise<RateLimitDecision> => {
    const counted = counter.count(id);
    return counted instanceof Promise ? counted.then((done) => decision(counter.points, done)) : decision(counter.points, counted);
  };
  return {
    take(caller) {
      if (caller.kind === 'anonymous') return count(anonymous, caller.ip);
      const counts = [count(keyed, caller.keyId), count(account, caller.inbox), count(keyedClient, caller.ip)];
      if (counts.some((counted) => counted instanceof Promise)) return Promise.all(counts).then((done) => done.reduce(tighter));
      return (counts as RateLimitDecision[]).reduce(tighter);
    },
  };
}

/** Of two counts of one request, the one that decides: a refusal (the later retry), else the one with fewer requests left. */
function tighter(a: RateLimitDecision, b: RateLimitDecision): RateLimitDecision {
  if (!a.allowed || !b.allowed) {
    if (a.allowed) return b;
    if (b.allowed) return a;
    return a.retryAfter >= b.retryAfter ? a : b;
  }
  return b.remaining < a.remaining ? b : a;
}

function decision(limit: number, { allowed, remainingPoints, msBeforeNext }: Counted): RateLimitDecision {
  return {
    allowed,
    limit,
    remaining: remainingPoints,
    resetsAt: Math.ceil((Date.now() + msBeforeNext) / 1000),
    retryAfter: Math.ceil(msBeforeNext / 1000),
  };
}
