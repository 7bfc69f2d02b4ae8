import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { countPoint, fixedWindowLimiter, retryAfterSeconds } from '../../../src/platform/security/rateLimit.js';

describe('the rate-limit recipe', () => {
  it('allows a key its points in the window, then answers refused with the time to wait', async () => {
    const limiter = fixedWindowLimiter({ keyPrefix: 'test', points: 2, duration: 60 });
    expect((await countPoint(limiter, 'a')).allowed).toBe(true);
    const last = await countPoint(limiter, 'a');
    expect([last.allowed, last.result.remainingPoints]).toEqual([true, 0]);
    const refused = await countPoint(limiter, 'a');
    expect(refused.allowed).toBe(false);
    expect(retryAfterSeconds(refused.result)).toBeGreaterThan(0);
    expect(retryAfterSeconds(refused.result)).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect((await countPoint(limiter, 'b')).allowed).toBe(true);
  });

  it('rejects as the store did when counting fails (the store is unavailable, not a refusal)', async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    limiter.consume = () => Promise.reject(new Error('store down'));
    await expect(countPoint(limiter, 'a')).rejects.toThrow('store down');
  });

  it('asks a client to wait at least a second', () => {
    expect(retryAfterSeconds(new RateLimiterRes(0, 10))).toBe(1);
    expect(retryAfterSeconds(new RateLimiterRes(0, 1500))).toBe(2);
  });
});
