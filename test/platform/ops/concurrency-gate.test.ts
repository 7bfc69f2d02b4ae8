// @store-independent
import { describe, expect, it } from 'vitest';
import { concurrencyGate } from '../../../src/platform/ops/concurrencyGate.js';

/** Work the test finishes when it chooses, noting when it started. */
function heldWork(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { run: async () => (started.push(name), await done, name), finish };
}

const busy = () => new Error('busy');

/** Lets every promise that can settle do so (the gate hands its slot on in microtasks). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A gate of `capacity` units, refusing work expected to wait `maxWaitMs` or more, each unit first expected to take 100 ms. */
const gateOf = (capacity: number, maxWaitMs: number) => concurrencyGate({ capacity, maxWaitMs, msPerUnit: 100, busy });

describe('concurrencyGate', () => {
  it('runs work while its weight fits, queues by expected wait, and refuses the next at once with busy()', async () => {
    // Two units at once, each expected to take 100 ms; work expected to wait 100 ms or more is refused.
    const gate = gateOf(2, 100);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => heldWork(started, name));
    const results = [gate(a!.run), gate(b!.run), gate(c!.run)];
    await settled();
    expect(started).toEqual(['a', 'b']);
    // c waits 0 ms, d 50 ms (c's 100 ms over two running), and a fifth would wait 100 ms: refused.
    const queued = gate(d!.run);
    await expect(gate(async () => 'e')).rejects.toThrow('busy');
    expect(started).toEqual(['a', 'b']);
    a!.finish();
    await settled();
    // The first queued takes the freed room.
    expect(started).toEqual(['a', 'b', 'c']);
    b!.finish();
    c!.finish();
    d!.finish();
    expect(await Promise.all([...results, queued])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('weighs work: many light pieces run together, a heavy one runs alone', async () => {
    const gate = gateOf(10, 10_000);
    const started: string[] = [];
    const light = Array.from({ length: 5 }, (_, i) => heldWork(started, `light${i}`));
    const heavy = heldWork(started, 'heavy');
    const results = light.map((work) => gate(work.run, 2));
    const heavyResult = gate(heavy.run, 50);
    await settled();
    expect(started).toEqual(['light0', 'light1', 'light2', 'light3', 'light4']);
    for (const work of light.slice(0, 4)) work.finish();
    await settled();
    // Heavier than the whole capacity: it waits until nothing else runs.
    expect(started).not.toContain('heavy');
    light[4]!.finish();
    await settled();
    expect(started).toContain('heavy');
    heavy.finish();
    expect(await Promise.all([...results, heavyResult])).toHaveLength(6);
  });

  it('frees the room of work that fails, and passes its error on', async () => {
    const gate = gateOf(1, 0);
    await expect(gate(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await gate(async () => 'next')).toBe('next');
  });

  it('with no wait allowed, refuses everything while its room is taken', async () => {
    const gate = gateOf(1, 0);
    const started: string[] = [];
    const held = heldWork(started, 'held');
    const result = gate(held.run);
    await expect(gate(async () => 'other')).rejects.toThrow('busy');
    held.finish();
    expect(await result).toBe('held');
    expect(await gate(async () => 'other')).toBe('other');
  });

  it('refuses to be built letting nothing run', () => {
    expect(() => gateOf(0, 1000)).toThrow(RangeError);
  });
});
