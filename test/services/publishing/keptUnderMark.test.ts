// @store-independent
import { describe, expect, it } from 'vitest';
import { keptUnderMark } from '../../../src/services/publishing/keptUnderMark.js';

describe('keptUnderMark', () => {
  it('finds a value only under the mark it was kept under, frozen', () => {
    const kept = keptUnderMark<{ title: string }>(10)!;
    const value = kept.keep('1.0', 'post 7', { title: 'kept' });
    expect(kept.find('1.0', 'post 7')).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(kept.find('2.0', 'post 7')).toBeUndefined();
    expect(kept.find('1.0', 'post 8')).toBeUndefined();
  });

  it('keeps at most its bound, the least recently used going first, and nothing for 0', () => {
    const kept = keptUnderMark<{ n: number }>(2)!;
    kept.keep('m', 'a', { n: 1 });
    kept.keep('m', 'b', { n: 2 });
    kept.find('m', 'a');
    kept.keep('m', 'c', { n: 3 });
    expect(kept.find('m', 'b')).toBeUndefined();
    expect(kept.find('m', 'a')).toEqual({ n: 1 });
    expect(keptUnderMark(0)).toBeUndefined();
  });
});
