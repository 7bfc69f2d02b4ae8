/**
 * Runs work through a gate: `work` weighs `weight` (in the gate's unit, 1
 * unless given). It runs at once while the weight in progress allows it,
 * else waits its turn, or is refused at once with the gate's `busy()` when
 * its expected wait is too long.
 */
export type ConcurrencyGate = <T>(work: () => Promise<T>, weight?: number) => Promise<T>;

export interface GateOptions {
  /**
   * Weight that may be in progress at once: what the running work may take
   * of memory, in the caller's unit (pixels of images, password hashes).
   * Work heavier than this runs alone.
   */
  capacity: number;
  /** Expected wait at which a piece of work is refused with `busy()` instead of queued (`0`: never queued). */
  maxWaitMs: number;
  /** Milliseconds a unit of weight is expected to take until the gate has timed work of its own. */
  msPerUnit: number;
  /** The error of a refusal (a service's 503). */
  busy: () => Error;
}

/** How much a newly timed piece of work moves the expected time per unit (an exponential average). */
const LEARNING = 0.2;

/**
 * A gate for work that costs a lot of memory or CPU while it runs (drawing
 * an image, hashing a password). What runs at once is bounded by weight (so
 * many small images draw together, and a large one alone), first come first
 * served. What waits is bounded by time, not by a count: a piece of work
 * queues only when the work queued before it is expected to be done within
 * `maxWaitMs` (the time per unit of weight learned from the work it timed,
 * shared by the lanes running), so a burst that the gate can serve within a
 * second is served, and a flood is refused at once instead of piling up.
 */
export function concurrencyGate(options: GateOptions): ConcurrencyGate {
  const { capacity, maxWaitMs, busy } = options;
  if (!(capacity > 0)) throw new RangeError(`a gate must let some work run at once, got a capacity of ${capacity}`);
  let msPerUnit = options.msPerUnit;
  let inProgress = 0;
  let running = 0;
  /** Expected milliseconds of the work queued, in all. */
  let queuedMs = 0;
  const queue: { weight: number; expectedMs: number; start: () => void }[] = [];

  const startNext = () => {
    while (queue.length > 0 && (running === 0 || inProgress + queue[0]!.weight <= capacity)) {
      const next = queue.shift()!;
      queuedMs -= next.expectedMs;
      inProgress += next.weight;
      running++;
      next.start();
    }
  };

  return async <T>(work: () => Promise<T>, weight = 1): Promise<T> => {
    const held = Math.min(Math.max(weight, 0), capacity);
    if (queue.length === 0 && (running === 0 || inProgress + held <= capacity)) {
      inProgress += held;
      running++;
    } else {
      if (queuedMs / Math.max(1, running) >= maxWaitMs) throw busy();
      const expectedMs = held * msPerUnit;
      queuedMs += expectedMs;
      await new Promise<void>((start) => queue.push({ weight: held, expectedMs, start }));
    }
    const started = performance.now();
    try {
      return await work();
    } finally {
      if (held > 0) {
        // A slow first run (a library loading) moves the estimate by a few times at most.
        const timed = Math.min((performance.now() - started) / held, 4 * msPerUnit);
        msPerUnit += LEARNING * (timed - msPerUnit);
      }
      inProgress -= held;
      running--;
      startNext();
    }
  };
}
