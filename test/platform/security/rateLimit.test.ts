import { fc, test } from '@fast-check/vitest';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { windowCounter, InProcessWindows, LibraryWindows } from '../../../src/platform/security/rateLimit.js';
import { retryAfterSeconds } from '../../../src/platform/security/limits.js';

/** One point counted on a rate-limiter-flexible limiter, as the platform reads it. */
const countPoint = (limiter: RateLimiterMemory, key: string) => new LibraryWindows(limiter, limiter.points).count(key);

describe('the rate-limit recipe', () => {
  afterEach(() => vi.useRealTimers());

  it('allows a key its points in the window, then answers refused with the time to wait', async () => {
    const counter = windowCounter({ keyPrefix: 'test', points: 2, duration: 60 });
    expect((await counter.count('a')).allowed).toBe(true);
    const last = await counter.count('a');
    expect([last.allowed, last.remainingPoints]).toEqual([true, 0]);
    const refused = await counter.count('a');
    expect(refused.allowed).toBe(false);
    expect(refused.remainingPoints).toBe(0);
    expect(retryAfterSeconds(refused)).toBeGreaterThan(0);
    expect(retryAfterSeconds(refused)).toBeLessThanOrEqual(60);
    // Another key has its own budget.
    expect((await counter.count('b')).allowed).toBe(true);
  });

  it('counts in this process synchronously (no promise on the request path) when there is no Redis', () => {
    const counter = windowCounter({ keyPrefix: 'test', points: 1, duration: 60 });
    expect(counter).toBeInstanceOf(InProcessWindows);
    const counted = counter.count('a');
    expect(counted).not.toBeInstanceOf(Promise);
    expect(counted).toMatchObject({ allowed: true, remainingPoints: 0 });
  });

  it('starts a key a new window when its window has ended, and forgets ended windows', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const windows = new InProcessWindows({ points: 1, duration: 10 });
    expect(windows.count('a').allowed).toBe(true);
    vi.setSystemTime(1_000_000 + 4_000);
    const refused = windows.count('a');
    expect([refused.allowed, refused.msBeforeNext]).toEqual([false, 6_000]);
    vi.setSystemTime(1_000_000 + 10_000);
    expect(windows.count('b').allowed).toBe(true);
    // `a`'s window ended: a new one, with the whole budget again.
    expect(windows.count('a')).toEqual({ allowed: true, remainingPoints: 0, msBeforeNext: 10_000 });
    // After another window's length, the sweep forgets both keys' ended windows.
    vi.setSystemTime(1_000_000 + 30_000);
    windows.count('c');
    expect((windows as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });

  it('rejects as the store did when counting fails (the store is unavailable, not a refusal)', async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    limiter.consume = () => Promise.reject(new Error('store down'));
    await expect(countPoint(limiter, 'a')).rejects.toThrow('store down');
  });

  it('reads a library limiter answer and its refusal', async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    expect(await countPoint(limiter, 'a')).toMatchObject({ allowed: true, remainingPoints: 0 });
    const refused = await countPoint(limiter, 'a');
    expect(refused.allowed).toBe(false);
    expect(refused.msBeforeNext).toBeGreaterThan(59_000);
  });

  it('asks a client to wait at least a second', () => {
    expect(retryAfterSeconds({ msBeforeNext: 10 })).toBe(1);
    expect(retryAfterSeconds({ msBeforeNext: 1500 })).toBe(2);
  });
});

/**
 * `InProcessWindows` stands in for rate-limiter-flexible's memory limiter on
 * the lookup path (docs/decisions/in-process-windows.md): the same points
 * counted at the same instants must be allowed or refused alike, with the
 * same points left and the same time to the window's end.
 */
describe('InProcessWindows beside rate-limiter-flexible’s memory limiter', () => {
  const START = 1_000_000;
  afterEach(() => vi.useRealTimers());

  /** Counts each point on both at its instant (ms after START); answers both sequences. */
  async function countBoth(
    budget: { points: number; duration: number },
    points: readonly { at: number; key: string }[],
  ) {
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const windows = new InProcessWindows(budget);
    const memory = new RateLimiterMemory({ keyPrefix: 'compare', ...budget });
    const ours = [];
    const library = [];
    for (const { at, key } of points) {
      vi.setSystemTime(START + at);
      ours.push({ key, at, ...windows.count(key) });
      library.push({ key, at, ...(await countPoint(memory, key)) });
    }
    return { ours, library };
  }

  it('answers a worked sequence alike: refusals, the window’s very end, a new window, the sweep', async () => {
    const points = [
      ...[0, 0, 1, 2_000].map((at) => ({ at, key: 'a' })),
      { at: 2_000, key: 'b' },
      { at: 9_999, key: 'a' },
      { at: 10_000, key: 'a' },
      { at: 10_000, key: 'b' },
      { at: 11_999, key: 'b' },
      { at: 12_000, key: 'b' },
      { at: 45_000, key: 'a' },
    ];
    const { ours, library } = await countBoth({ points: 3, duration: 10 }, points);
    expect(ours).toEqual(library);
    expect(ours.map((answer) => answer.allowed)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(ours[9]).toMatchObject({ key: 'b', at: 12_000, remainingPoints: 2, msBeforeNext: 10_000 });
  });

  test.prop(
    [
      fc.integer({ min: 1, max: 5 }),
      fc.integer({ min: 1, max: 20 }),
      fc.array(fc.record({ after: fc.integer({ min: 0, max: 25_000 }), key: fc.constantFrom('a', 'b', 'c') }), {
        maxLength: 60,
      }),
    ],
    { numRuns: 200 },
  )('answers any sequence of points alike', async (points, duration, steps) => {
    let at = 0;
    const timed = steps.map(({ after, key }) => ({ at: (at += after % 3 === 0 ? 0 : after), key }));
    const { ours, library } = await countBoth({ points, duration }, timed);
    expect(ours).toEqual(library);
  });
});
