import type { Kysely } from 'kysely';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterLike } from 'rate-limiter-flexible';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KyselyRateLimiter } from '../../../src/services/developer/rateLimit/kyselyRateLimiter.js';
import type { DeveloperDatabase } from '../../../src/services/developer/store/tables.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The store's limiter counts as rate-limiter-flexible's own limiters do:
 * the same calls, on the same clock, give the same answers as the package's
 * memory limiter (refused or not, points used and left, time to the
 * window's end), on each storage backend.
 */
const BUDGET = { keyPrefix: 'compare', points: 3, duration: 60 };
const START = Date.UTC(2030, 0, 1);

type Call = (limiter: RateLimiterLike) => Promise<unknown>;

/** What a call answered, as a caller reads it: resolved or rejected, with the result's counts. */
async function outcome(call: Call, limiter: RateLimiterLike) {
  const read = (value: unknown) =>
    value instanceof RateLimiterRes
      ? { consumed: value.consumedPoints, remaining: value.remainingPoints, msBeforeNext: value.msBeforeNext }
      : value;
  try {
    return { resolved: read(await call(limiter)) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { rejected: read(rejection) };
    throw rejection;
  }
}

/** Calls at times (ms after START): within a window, at its very end, after block, set, delete and reward. */
const SCRIPT: [at: number, name: string, call: Call][] = [
  [0, 'consume a', (l) => l.consume('a')],
  [0, 'consume a', (l) => l.consume('a')],
  [0, 'consume a (last point)', (l) => l.consume('a')],
  [0, 'consume a (refused)', (l) => l.consume('a')],
  [4_000, 'consume a (refused, later)', (l) => l.consume('a')],
  [4_000, 'get a', (l) => l.get('a')],
  [5_000, 'reward a', (l) => l.reward('a')],
  [5_000, 'consume b, 2 points', (l) => l.consume('b', 2)],
  [5_000, 'consume b (last point)', (l) => l.consume('b')],
  [5_000, 'consume b (refused)', (l) => l.consume('b')],
  [10_000, 'delete a', (l) => l.delete('a')],
  [10_000, 'delete a again', (l) => l.delete('a')],
  [10_000, 'get a (none)', (l) => l.get('a')],
  [10_000, 'consume a (new window)', (l) => l.consume('a')],
  [20_000, 'reward a, 2 points (below zero in its window)', (l) => l.reward('a', 2)],
  [20_000, 'consume a', (l) => l.consume('a')],
  [64_999, 'consume b (a millisecond before its window ends)', (l) => l.consume('b')],
  [65_000, 'consume b (its window ended)', (l) => l.consume('b')],
  [65_000, 'block c', (l) => l.block('c', 30)],
  [66_000, 'consume c (blocked)', (l) => l.consume('c')],
  [70_000, 'set d', (l) => l.set('d', 2, 10)],
  [70_000, 'consume d', (l) => l.consume('d')],
  [71_000, 'consume d (refused)', (l) => l.consume('d')],
  [71_000, 'penalty e, 5 points (never refused)', (l) => l.penalty('e', 5)],
  [71_000, 'consume e (refused)', (l) => l.consume('e')],
];

describe('KyselyRateLimiter beside rate-limiter-flexible’s memory limiter', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  afterEach(() => vi.useRealTimers());

  const storeLimiter = () => new KyselyRateLimiter(server.built.db as unknown as Kysely<DeveloperDatabase>, BUDGET);

  it('answers every call of the script as the memory limiter does', async () => {
    const store = storeLimiter();
    const memory = new RateLimiterMemory(BUDGET);
    vi.useFakeTimers({ now: START, toFake: ['Date'] });
    const answers = [];
    for (const [at, name, call] of SCRIPT) {
      vi.setSystemTime(START + at);
      const expected = await outcome(call, memory);
      expect({ name, ...(await outcome(call, store)) }).toEqual({ name, ...expected });
      answers.push(expected);
    }
    // The script does reach refusals, a new window and a missing key.
    expect(answers.filter((answer) => 'rejected' in answer)).toHaveLength(7);
    expect(answers).toContainEqual({ resolved: null });
  });

  it('differs on purpose in one place: a reward in a new window starts it at zero, not below', async () => {
    const store = storeLimiter();
    const memory = new RateLimiterMemory(BUDGET);
    vi.useFakeTimers({ now: START + 1_000_000, toFake: ['Date'] });
    expect(await outcome((l) => l.reward('fresh'), memory)).toEqual({
      resolved: { consumed: -1, remaining: 4, msBeforeNext: 60_000 },
    });
    expect(await outcome((l) => l.reward('fresh'), store)).toEqual({
      resolved: { consumed: 0, remaining: 3, msBeforeNext: 60_000 },
    });
  });

  it('keeps its counters under the package’s key layout (prefix:key)', async () => {
    const store = storeLimiter();
    await store.consume('layout');
    const rows = await (server.built.db as unknown as Kysely<DeveloperDatabase>)
      .selectFrom('developer_login_attempts')
      .select('key')
      .where('key', '=', 'compare:layout')
      .execute();
    expect(rows).toHaveLength(1);
  });
});
