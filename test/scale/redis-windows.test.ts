import { randomUUID } from 'node:crypto';
import { Redis, type Command } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LibraryWindows,
  RedisWindows,
  type Counted,
  type RateLimitBudget,
} from '../../src/platform/security/rateLimit.js';

/** One point counted on a rate-limiter-flexible limiter, as the platform reads it. */
const countPoint = (limiter: RateLimiterRedis, key: string) => new LibraryWindows(limiter, limiter.points).count(key);
import { startRedis, type RedisServer } from '../support/redis.js';

/**
 * `RedisWindows` stands in for rate-limiter-flexible's Redis limiter (with a
 * memory insurance limiter) on the request path: the same points counted on
 * the same Redis must be allowed or refused alike, with the same points left
 * and the window's end where the library puts it; while Redis is down both
 * count in memory alike. Its points go in batches, each still counted once.
 */
let redis: RedisServer;
let client: Redis;
let admin: Redis;
/** Script calls the client sent (eval or evalsha). */
let scriptCalls = 0;

const connect = (url: string) =>
  new Redis(url, {
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    commandTimeout: 2000,
  });

beforeAll(async () => {
  redis = await startRedis();
  client = connect(redis.url);
  admin = new Redis(redis.url);
  await new Promise((resolve) => client.once('ready', resolve));
  await admin.ping();
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command: Command, ...rest: never[]) => {
    if (command.name === 'eval' || command.name === 'evalsha') scriptCalls++;
    return send(command, ...rest);
  };
});
afterAll(async () => {
  client.disconnect();
  admin.disconnect();
  await redis.stop();
});

/** Both counters for one budget, on keys of their own. */
function both(budget: Omit<RateLimitBudget, 'keyPrefix'>) {
  const tag = randomUUID();
  const library = new RateLimiterRedis({
    ...budget,
    keyPrefix: `lib-${tag}`,
    storeClient: client,
    insuranceLimiter: new RateLimiterMemory({ ...budget, keyPrefix: `lib-${tag}` }),
  });
  const ours = new RedisWindows({ ...budget, keyPrefix: `ours-${tag}` }, client);
  return { library, ours, tag };
}

/** An answer without its time left, and whether that time lies in the window: at most its length, at least its length less the time since the window began. */
function checked(answer: Counted, duration: number, windowBegan: number) {
  const { msBeforeNext, ...rest } = answer;
  const elapsed = Date.now() - windowBegan;
  return { ...rest, inWindow: msBeforeNext <= duration * 1000 && msBeforeNext >= duration * 1000 - elapsed - 1 };
}

describe('RedisWindows beside rate-limiter-flexible’s Redis limiter', () => {
  it('answers a sequence of points on several keys alike, refusals included', async () => {
    const duration = 60;
    const { library, ours } = both({ points: 3, duration });
    const began = new Map<string, number>();
    const keys = ['a', 'a', 'b', 'a', 'a', 'c', 'b', 'a', 'b', 'b', 'c', 'b'];
    const answers = { library: [] as unknown[], ours: [] as unknown[] };
    for (const key of keys) {
      if (!began.has(key)) began.set(key, Date.now());
      answers.library.push({ key, ...checked(await countPoint(library, key), duration, began.get(key)!) });
      answers.ours.push({ key, ...checked(await ours.count(key), duration, began.get(key)!) });
    }
    expect(answers.ours).toEqual(answers.library);
    expect(answers.ours.every((answer) => (answer as { inWindow: boolean }).inWindow)).toBe(true);
    expect(answers.ours.map((answer) => (answer as Counted).allowed)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      false,
      true,
      false,
    ]);
  });

  it('gives a key left without an expiry one, as the library does', async () => {
    const { library, ours, tag } = both({ points: 10, duration: 30 });
    await admin.set(`lib-${tag}:k`, 4);
    await admin.set(`ours-${tag}:k`, 4);
    const theirs = await countPoint(library, 'k');
    const mine = await ours.count('k');
    expect([mine.allowed, mine.remainingPoints]).toEqual([theirs.allowed, theirs.remainingPoints]);
    expect([mine.remainingPoints, mine.msBeforeNext]).toEqual([5, 30_000]);
    expect(await admin.pttl(`ours-${tag}:k`)).toBeGreaterThan(0);
  });

  it('counts with a window of its own under the same key name, so instances running either share one count', async () => {
    const tag = randomUUID();
    const budget = { keyPrefix: `shared-${tag}`, points: 4, duration: 60 };
    const library = new RateLimiterRedis({ ...budget, storeClient: client });
    const ours = new RedisWindows(budget, client);
    const left = [
      (await countPoint(library, 'x')).remainingPoints,
      (await ours.count('x')).remainingPoints,
      (await countPoint(library, 'x')).remainingPoints,
    ];
    expect(left).toEqual([3, 2, 1]);
  });
});

describe('batches', () => {
  it('counts points made in one turn in one script call, each exactly once', async () => {
    const { ours, tag } = both({ points: 20, duration: 60 });
    const before = scriptCalls;
    const answers = await Promise.all(Array.from({ length: 50 }, () => ours.count('burst')));
    expect(scriptCalls - before).toBe(1);
    expect(answers.filter((answer) => answer.allowed)).toHaveLength(20);
    expect(answers.map((answer) => answer.remainingPoints).slice(0, 20)).toEqual(
      Array.from({ length: 20 }, (_, i) => 19 - i),
    );
    expect(await admin.get(`ours-${tag}:burst`)).toBe('50');
  });

  it('holds points made while a batch is on its way, and sends them together once it has answered', async () => {
    const { ours } = both({ points: 100, duration: 60 });
    await ours.count('warm');
    // Redis holds every write until told otherwise: the first batch stays on its way.
    await admin.call('client', 'pause', '60000', 'WRITE');
    const before = scriptCalls;
    const first = ours.count('held');
    const later: Promise<Counted>[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      later.push(ours.count('held'));
    }
    expect(scriptCalls - before).toBe(1);
    await admin.call('client', 'unpause');
    expect((await first).remainingPoints).toBe(99);
    expect((await Promise.all(later)).map((answer) => answer.remainingPoints)).toEqual([98, 97, 96, 95, 94]);
    expect(scriptCalls - before).toBe(2);
  });

  it('keeps one count across two clients (two instances) counting at once', async () => {
    const other = connect(redis.url);
    await new Promise((resolve) => other.once('ready', resolve));
    try {
      const budget = { keyPrefix: `two-${randomUUID()}`, points: 30, duration: 60 };
      const a = new RedisWindows(budget, client);
      const b = new RedisWindows(budget, other);
      const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).count('ip')));
      expect(answers.filter((answer) => answer.allowed)).toHaveLength(30);
      expect(new Set(answers.filter((answer) => answer.allowed).map((answer) => answer.remainingPoints)).size).toBe(30);
    } finally {
      other.disconnect();
    }
  });
});

describe('while Redis is down', () => {
  it('counts in this process as the library’s insurance limiter does', async () => {
    const down = connect('redis://127.0.0.1:1');
    down.on('error', () => {});
    try {
      const budget = { points: 2, duration: 60 };
      const library = new RateLimiterRedis({
        ...budget,
        keyPrefix: 'lib',
        storeClient: down,
        insuranceLimiter: new RateLimiterMemory({ ...budget, keyPrefix: 'lib' }),
      });
      const ours = new RedisWindows({ ...budget, keyPrefix: 'ours' }, down);
      const strip = ({ allowed, remainingPoints }: Counted) => ({ allowed, remainingPoints });
      const answers = { library: [] as unknown[], ours: [] as unknown[] };
      for (let i = 0; i < 3; i++) {
        answers.library.push(strip(await countPoint(library, 'k')));
        answers.ours.push(strip(await ours.count('k')));
      }
      expect(answers.ours).toEqual(answers.library);
      expect(answers.ours).toEqual([
        { allowed: true, remainingPoints: 1 },
        { allowed: true, remainingPoints: 0 },
        { allowed: false, remainingPoints: 0 },
      ]);
    } finally {
      down.disconnect();
    }
  });
});
