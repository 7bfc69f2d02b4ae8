import type { RedisClient } from '../store/redis.js';
import { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * The counters of the one limit step (`limits.ts`): fixed windows,
 * each answering a `Counted`. Counters that live in this process are
 * `InProcessWindows`, which answer synchronously: a lookup that is counted
 * here pays no asynchronous step for it. Counters in Redis are
 * `RedisWindows`: the Redis limiter of rate-limiter-flexible as a batched
 * script call. Counters in the store are rate-limiter-flexible limiters,
 * counted through `LibraryWindows`.
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

/** A point's answer in a window of `points` where `used` points (this one included) are counted, `msLeft` before it ends. */
const pointsUsed = (points: number, used: number, msLeft: number): Counted => ({
  allowed: used <= points,
  remainingPoints: Math.max(0, points - used),
  msBeforeNext: msLeft,
});

/** Counts points against keys, each in a window of its own; synchronous where the counters live in this process. */
export interface WindowCounter {
  readonly points: number;
  count(key: string): Counted | Promise<Counted>;
  /** Gives a counted point back, where the counter can (in this process and in the store; not in Redis). */
  giveBack?(key: string): void | Promise<void>;
  /** Forgets the key's count in its window, where the counter can (in this process and in the store; not in Redis). */
  forget?(key: string): void | Promise<void>;
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
    return pointsUsed(this.points, window.used, window.endsAt - now);
  }

  giveBack(key: string): void {
    const window = this.windows.get(key);
    if (window && window.used > 0) window.used--;
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    this.nextSweep = now + this.windowMs;
  }
}

/**
 * Counts one point in each of a batch's windows, step for step as
 * rate-limiter-flexible's Redis limiter counts one (same keys, same steps,
 * so an instance of either kind shares its counts): a window starts with its
 * first point and lasts ARGV[i] seconds; a key left without an expiry gets
 * one. Answers the points used and the milliseconds left per key, flat.
 */
const COUNT_POINTS_LUA = `
local answer = {}
for i, key in ipairs(KEYS) do
  redis.call('set', key, 0, 'EX', ARGV[i], 'NX')
  local used = redis.call('incr', key)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, ARGV[i])
    ttl = 1000 * ARGV[i]
  end
  answer[2 * i - 1] = used
  answer[2 * i] = ttl
end
return answer`;

/** Most points one script call counts (a longer batch goes as several calls). */
const MOST_POINTS_PER_CALL = 256;

type CountingClient = RedisClient & {
  countWindowPoints(keys: number, ...keysThenSeconds: (string | number)[]): Promise<number[]>;
};

interface PendingPoint {
  windows: RedisWindows;
  key: string;
  resolve: (counted: Counted) => void;
}

/**
 * The points of every Redis window counter of one client, sent in batches:
 * while a batch is on its way, new points wait and go together once it has
 * answered, so under load one write and one script call carry many requests'
 * points (each still counted atomically, in the order they came), and an
 * idle instance sends a point in the event-loop turn it came in. On a
 * cluster each point goes as a call of its own (its key's slot decides the
 * master); ioredis's auto-pipelining still sends a turn's calls to one master
 * in one write.
 */
class PointBatches {
  private waiting: PendingPoint[] = [];
  private sending = 0;
  private scheduled = false;

  constructor(private readonly redis: CountingClient) {
    redis.defineCommand('countWindowPoints', { lua: COUNT_POINTS_LUA });
  }

  add(point: PendingPoint): void {
    this.waiting.push(point);
    this.schedule();
  }

  private schedule() {
    if (this.sending > 0 || this.scheduled || this.waiting.length === 0) return;
    this.scheduled = true;
    // After this turn's I/O: the points of every request read in it go together.
    setImmediate(this.send);
  }

  private readonly send = () => {
    this.scheduled = false;
    const points = this.waiting;
    this.waiting = [];
    const perCall = this.redis.isCluster ? 1 : MOST_POINTS_PER_CALL;
    for (let start = 0; start < points.length; start += perCall) this.call(points.slice(start, start + perCall));
  };

  private call(batch: PendingPoint[]) {
    const args: (string | number)[] = new Array(batch.length * 2);
    for (let i = 0; i < batch.length; i++) {
      const point = batch[i]!;
      args[i] = point.windows.keyPrefix + point.key;
      args[batch.length + i] = point.windows.seconds;
    }
    this.sending++;
    this.redis.countWindowPoints(batch.length, ...args).then(
      (answer) => {
        for (let i = 0; i < batch.length; i++)
          batch[i]!.resolve(batch[i]!.windows.counted(answer[2 * i]!, answer[2 * i + 1]!));
        this.sent();
      },
      () => {
        // Redis unreachable or failing: each point is counted by its counter's insurance, in this process.
        for (const point of batch) point.resolve(point.windows.insurance.count(point.key));
        this.sent();
      },
    );
  }

  private sent() {
    this.sending--;
    this.schedule();
  }
}

/** Each Redis client's batches, shared by every counter on it. */
const batchesOf = new WeakMap<RedisClient, PointBatches>();

/**
 * Fixed windows counted in Redis, shared by every instance: what
 * rate-limiter-flexible's Redis limiter with a memory insurance limiter
 * answers (test/scale/redis-windows.test.ts compares them), with one promise
 * per point and its points sent in batches (`PointBatches`).
 */
export class RedisWindows implements WindowCounter {
  readonly points: number;
  /** `<keyPrefix>:`, as the library names a key. */
  readonly keyPrefix: string;
  readonly seconds: number;
  /** Counts while Redis does not answer, as the library's insurance limiter would. */
  readonly insurance: InProcessWindows;
  private readonly batches: PointBatches;

  constructor(budget: RateLimitBudget, redis: RedisClient) {
    this.points = budget.points;
    this.keyPrefix = `${budget.keyPrefix}:`;
    this.seconds = budget.duration;
    this.insurance = new InProcessWindows(budget);
    let batches = batchesOf.get(redis);
    if (!batches) batchesOf.set(redis, (batches = new PointBatches(redis as CountingClient)));
    this.batches = batches;
  }

  count(key: string): Promise<Counted> {
    return new Promise((resolve) => this.batches.add({ windows: this, key, resolve }));
  }

  /** A point's answer from the points used in its window and the milliseconds left. */
  counted(used: number, msLeft: number): Counted {
    return pointsUsed(this.points, used, msLeft);
  }
}

/**
 * A counter for a budget. Without Redis the counters live in this process
 * (synchronous). With Redis every instance shares them, counted atomically
 * there; while Redis is unreachable each instance counts in its own memory
 * (as the library's insurance limiter would) and goes back to Redis as soon
 * as it answers.
 */
export function windowCounter(budget: RateLimitBudget, redis?: RedisClient): WindowCounter {
  return redis ? new RedisWindows(budget, redis) : new InProcessWindows(budget);
}

/**
 * A rate-limiter-flexible limiter as a window counter (the dashboard's
 * counters in the store). The library rejects with its result when the
 * budget is spent (answered here as `allowed: false`) and with an Error when
 * its store fails (rejected as it is: the store is unavailable).
 */
export class LibraryWindows implements WindowCounter {
  constructor(
    private readonly limiter: {
      consume(key: string): Promise<RateLimiterRes>;
      reward(key: string): Promise<RateLimiterRes>;
      delete(key: string): Promise<boolean>;
    },
    readonly points: number,
  ) {}

  async count(key: string): Promise<Counted> {
    try {
      return counted(true, await this.limiter.consume(key));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return counted(false, rejection);
      throw rejection;
    }
  }

  /** Gives a counted point back (what it counted did not happen). */
  async giveBack(key: string): Promise<void> {
    await this.limiter.reward(key);
  }

  /** Forgets the key's count. */
  async forget(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

const counted = (allowed: boolean, result: RateLimiterRes): Counted => ({
  allowed,
  remainingPoints: Math.max(0, result.remainingPoints),
  msBeforeNext: result.msBeforeNext,
});
