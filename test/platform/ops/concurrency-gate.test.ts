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

describe('concurrencyGate', () => {
  it('runs N at once, queues M, and refuses the next at once with busy()', async () => {
    const gate = concurrencyGate(2, 1, busy);
    const started: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => heldWork(started, name));
    const results = [gate(a!.run), gate(b!.run), gate(c!.run)];
    await settled();
    expect(started).toEqual(['a', 'b']);
    await expect(gate(d!.run)).rejects.toThrow('busy');
    expect(started).toEqual(['a', 'b']);
    a!.finish();
    await settled();
    // The queued one takes the freed slot, and the queue has room again.
    expect(started).toEqual(['a', 'b', 'c']);
    const again = gate(d!.run);
    await settled();
    expect(started).toEqual(['a', 'b', 'c']);
    b!.finish();
    c!.finish();
    d!.finish();
    expect(await Promise.all([...results, again])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('frees the slot of work that fails, and passes its error on', async () => {
    const gate = concurrencyGate(1, 0, busy);
    await expect(gate(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(await gate(async () => 'next')).toBe('next');
  });

  it('with no queue, refuses everything while one runs', async () => {
    const gate = concurrencyGate(1, 0, busy);
    const started: string[] = [];
    const held = heldWork(started, 'held');
    const result = gate(held.run);
    await expect(gate(async () => 'other')).rejects.toThrow('busy');
    held.finish();
    expect(await result).toBe('held');
    expect(await gate(async () => 'other')).toBe('other');
  });

  it('refuses to be built letting nothing run', () => {
    expect(() => concurrencyGate(0, 8, busy)).toThrow(RangeError);
  });
});
