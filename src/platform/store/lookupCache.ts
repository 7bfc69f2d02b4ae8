import { LRUCache } from 'lru-cache';

/** What an instance remembers of a store's answers by key (see `cachedLookups`). */
export interface LookupCache<Key, Value> {
  /** The store's answer for `key`: remembered, shared with a read in flight, or read now. */
  lookup(key: Key): Promise<Value>;
  /**
   * The answer when it is already remembered (`{ value }`), undefined when
   * the store must be asked: lets a caller go on without an asynchronous
   * step on the request path.
   */
  known(key: Key): { value: Value } | undefined;
  /** Forgets everything (a change announced on the change bus). */
  clear(): void;
}

/** An entry: the read (shared by concurrent lookups) and, once it has answered, its answer. */
interface Entry<Value> {
  read: Promise<Value>;
  answer?: { value: Value };
}

/**
 * A store lookup (a credential's owner, say) remembered by this instance for
 * `ttlMs`, so a request path reads the store once per key and period, not on
 * every request. Every answer is remembered, an "unknown" one too (at most
 * `maxEntries` keys in all, least recently used dropped first), so a flood
 * of made-up keys costs one read each, once. A change made elsewhere takes
 * effect here within `ttlMs`; `clear` makes it sooner. Concurrent lookups of
 * one key share one read; a failed read is not kept. With `ttlMs` 0 every
 * lookup reads the store.
 */
export function cachedLookups<Key extends NonNullable<unknown>, Value>(
  read: (key: Key) => Promise<Value>,
  options: {
    ttlMs: number;
    maxEntries: number;
    /** Milliseconds clock (tests pass their own; every lookup then reads it). */
    now?: () => number;
  },
): LookupCache<Key, Value> {
  if (options.ttlMs <= 0) return { lookup: read, known: () => undefined, clear: () => {} };
  const clock = options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {};
  const remembered = new LRUCache<Key, Entry<Value>>({ max: options.maxEntries, ttl: options.ttlMs, ...clock });
  return {
    lookup(key) {
      const entry = remembered.get(key);
      if (entry) return entry.read;
      const fresh: Entry<Value> = { read: read(key) };
      remembered.set(key, fresh);
      fresh.read.then(
        (value) => {
          fresh.answer = { value };
        },
        // A failed read is not kept: the next lookup asks the store again.
        () => {
          if (remembered.get(key) === fresh) remembered.delete(key);
        },
      );
      return fresh.read;
    },
    known: (key) => remembered.get(key)?.answer,
    clear: () => remembered.clear(),
  };
}
