// @store-independent
import { describe, expect, it } from 'vitest';
import { fairTurns, MAX_WAITING_PER_CALLER } from '../../../src/platform/ops/fairTurns.js';

/**
 * Issue 52, item 6: turns at a search were first come, first served, so one
 * caller's flood held the line. fairTurns gives each caller one place in the
 * line: callers take turns round robin, a caller's further work waits behind
 * its own, and only a flood past MAX_WAITING_PER_CALLER is refused.
 */
class Busy extends Error {}
const busy = (reason: string) => new Busy(reason);
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Takes a turn as `caller`, noting `label` in `order` when the turn comes; the pass is kept to end the turn. */
function taking(turns: ReturnType<typeof fairTurns>, caller: string, label: string, order: string[], waitMs = 60_000) {
  return turns.take(caller, waitMs).then((pass) => {
    order.push(label);
    return pass;
  });
}

describe('fair turns', () => {
  it('serves callers round robin: a flooder holds one place, another caller waits behind one of its turns at most', async () => {
    const turns = fairTurns(busy);
    const order: string[] = [];
    const flood = Array.from({ length: 5 }, (_, i) => taking(turns, 'flooder', `f${i + 1}`, order));
    const other = taking(turns, 'other', 'o1', order);
    const late = taking(turns, 'late', 'l1', order);
    let running = await flood[0]!;
    await tick();
    expect(order).toEqual(['f1']);
    // Each turn ends with its pass; the next caller in the line starts.
    const expected = ['f1', 'f2', 'o1', 'l1', 'f3', 'f4', 'f5'];
    const all = [...flood, other, late];
    for (let served = 1; served < expected.length; served++) {
      running();
      await tick();
      expect(order).toEqual(expected.slice(0, served + 1));
      running = await all[['f1', 'f2', 'f3', 'f4', 'f5', 'o1', 'l1'].indexOf(expected[served]!)]!;
    }
    running();
  });

  it("refuses at once a caller's work past MAX_WAITING_PER_CALLER, and only that caller's", async () => {
    const turns = fairTurns(busy);
    const order: string[] = [];
    const first = await taking(turns, 'flooder', 'f0', order);
    const waiting = Array.from({ length: MAX_WAITING_PER_CALLER }, (_, i) =>
      taking(turns, 'flooder', `f${i + 1}`, order),
    );
    await expect(turns.take('flooder', 60_000)).rejects.toBeInstanceOf(Busy);
    const other = taking(turns, 'other', 'o1', order);
    first();
    await tick();
    (await waiting[0]!)();
    await tick();
    // The other caller came after the flooder's 32, and is served after one of them.
    expect(order).toEqual(['f0', 'f1', 'o1']);
    (await other)();
    for (const turn of waiting.slice(1)) (await turn)();
    expect(order).toHaveLength(MAX_WAITING_PER_CALLER + 2);
  });

  it('refuses work whose wait runs out, and takes it out of the line (its caller too when it had no other)', async () => {
    const turns = fairTurns(busy);
    const order: string[] = [];
    const first = await taking(turns, 'a', 'a1', order);
    const expiring = turns.take('b', 10);
    const kept = taking(turns, 'c', 'c1', order);
    await expect(expiring).rejects.toBeInstanceOf(Busy);
    first();
    await tick();
    expect(order).toEqual(['a1', 'c1']);
    const last = await kept;
    last();
    // With the line empty, the next taker starts at once.
    const now = await turns.take('b', 10);
    now();
  });
});
