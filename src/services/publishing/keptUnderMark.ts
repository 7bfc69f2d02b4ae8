import { LRUCache } from 'lru-cache';
import { growingToEntries } from '../../platform/store/growingLru.js';
import { deepFreeze } from '../../platform/answers/frozen.js';

/**
 * What an instance read or made under a store's change mark (`ChangeMark`),
 * kept by the mark and a key of the caller's: found again only under the
 * same mark, so while the mark holds it is what a new read would give, and
 * once a write changes the mark it is never found again (and ages out, the
 * least recently used first). Values are frozen: every request that finds
 * one shares it.
 */
export interface KeptUnderMark<V> {
  find(mark: string, key: string): V | undefined;
  /** Keeps `value` (frozen) and hands it back. */
  keep(mark: string, key: string, value: V): V;
}

/** Kept values, at most `maxEntries`; undefined for 0, which keeps none. */
export function keptUnderMark<V extends object>(maxEntries: number): KeptUnderMark<V> | undefined {
  if (maxEntries <= 0) return undefined;
  const kept = new LRUCache<string, V>(growingToEntries(maxEntries));
  return {
    find: (mark, key) => kept.get(`${mark}\u0000${key}`),
    keep(mark, key, value) {
      kept.set(`${mark}\u0000${key}`, deepFreeze(value));
      return value;
    },
  };
}
