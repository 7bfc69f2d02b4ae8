/** Runs work through a gate: at most `running` at a time, at most `waiting` queued, and any more refused at once. */
export type ConcurrencyGate = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * A gate for work that costs a lot of memory or CPU while it runs (drawing
 * an image, hashing a password): `running` at a time, first come first
 * served, with at most `waiting` queued; one more is refused at once with
 * `busy()` (a service's 503), so a flood costs a bounded amount, not a pile
 * of concurrent runs, and a caller never waits behind an unbounded queue.
 */
export function concurrencyGate(running: number, waiting: number, busy: () => Error): ConcurrencyGate {
  if (!(Number.isInteger(running) && running >= 1)) throw new RangeError(`a gate must let at least one run at a time, got ${running}`);
  let active = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (active >= running) {
      if (queue.length >= waiting) throw busy();
      await new Promise<void>((resolve) => queue.push(resolve));
    } else {
      active++;
    }
    try {
      return await work();
    } finally {
      release();
    }
  };
}
