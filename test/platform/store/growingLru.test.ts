// @store-independent
import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { growingToEntries } from '../../../src/platform/store/growingLru.js';

describe('growingToEntries', () => {
  it('keeps at most the given number of entries, the least recently used dropped first, with or without a ttl', () => {
    for (const ttl of [undefined, 60_000]) {
      const cache = new LRUCache<string, number>({ ...growingToEntries(3), ...(ttl ? { ttl } : {}) });
      for (const [index, key] of ['a', 'b', 'c'].entries()) cache.set(key, index);
      expect(cache.get('a')).toBe(0);
      cache.set('d', 3);
      expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
      cache.set('e', 4);
      cache.set('f', 5);
      expect(cache.size).toBe(3);
      expect(cache.has('a')).toBe(false);
    }
  });

  it('keeps one entry when bounded to one', () => {
    const cache = new LRUCache<string, number>(growingToEntries(1));
    cache.set('a', 1);
    cache.set('b', 2);
    expect([...cache.keys()]).toEqual(['b']);
  });
});
