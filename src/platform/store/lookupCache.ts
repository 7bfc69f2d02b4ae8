import { LRUCache } from 'lru-cache';
import type { ChangeMark } from './database.js';
import { growingToEntries } from './growingLru.js';

/** What an instance remembers of a store's answers by query (see `cachedLookups`). */
export interface LookupCache<Query, Value> {
  /** The store's answer to `query`: remembered, shared with a read in flight, or read now. */
  lookup(query: Query): Promise<Value>;
  /**
   * The answer when it is already remembered (`{ value }`), undefined when
   * the store must be asked: lets a caller go on without an asynchronous
   * step on the request path.
   */
  known(query: Query): { value: Value } | undefined;
  /**
   * The remembered answer itself (no asynchronous step on the request path),
   * else the lookup's promise: what a credential resolver hands the pipeline.
   */
  resolve(query: Query): Value | Promise<Value>;
  /** Forgets everything (a change announced on the change bus). */
  clear(): void;
  /** How many entries it holds, expired ones not yet dropped included. */
  size(): number;
}

/** An entry: the read (shared by concurrent lookups) and, once it has answered, its answer. */
interface Entry<Value> {
  read: Promise<Value>;
  answer?: { value: Value };
  /** With a change mark: when the read began, and the store's mark then. */
  at?: number;
  mark?: string | undefined;
}

/**
 * A store lookup (a credential's owner, say) remembered by this instance for
 * `ttlMs`, so a request path reads the store once per query and period, not
 * on every request. Queries are remembered by `keyOf(query)` (equal keys for
 * equal queries; without it, the query is its own key: a string, say).
 * Every answer is remembered, an "unknown" one too (at most `maxEntries` keys
 * in all, least recently used dropped first), so a flood of made-up keys
 * costs one read each, once. A change made elsewhere takes effect here
 * within `ttlMs`; `clear` makes it sooner. Concurrent lookups of one key
 * share one read; a failed read is not kept. With `ttlMs` 0 every lookup
 * reads the store. Expired entries are dropped every `maxEntries / 8` reads
 * (a walk of the cache, with no timer), so what a mix of many keys read
 * once is let go about when it expires, not kept until the cache is full.
 * With a change mark (`changeMark`), an entry outlives `ttlMs` while the
 * store is unchanged, so only `maxEntries` bounds what is kept.
 */
export function cachedLookups<Query, Value>(
  read: (query: Query) => Promise<Value>,
  options: {
    ttlMs: number;
    maxEntries: number;
    /** The key a query is remembered by; the query itself when absent. */
    keyOf?: (query: Query) => string;
    /** Milliseconds clock (tests pass their own; every lookup then reads it). */
    now?: () => number;
    /**
     * Keep an answer only for a key read before within the last `ttlMs` to
     * `2 × ttlMs` (see `repeatedKeys`; with a change mark, among the last
     * `maxEntries` to `2 × maxEntries` keys read, at any age): a key read
     * once is read, shared by the lookups in flight with it, and let go.
     * Off when absent.
     */
    keepRepeatedOnly?: boolean;
    /**
     * The store's change mark (SQLite's; see `ChangeMark`): an answer older
     * than `ttlMs` is still good while the mark it was read under is
     * current, since nothing was written since. Without it, `ttlMs` bounds
     * every answer.
     */
    changeMark?: ChangeMark;
  },
): LookupCache<Query, Value> {
  if (options.ttlMs <= 0)
    return { lookup: read, known: () => undefined, resolve: read, clear: () => {}, size: () => 0 };
  const clock = options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {};
  const { changeMark } = options;
  const now = options.now ?? (() => performance.now());
  const remembered = new LRUCache<NonNullable<unknown>, Entry<Value>>({
    ...growingToEntries(options.maxEntries),
    // With a change mark, an entry's age is checked here (`current`); only the size bounds the cache.
    ...(changeMark ? {} : { ttl: options.ttlMs, ...clock }),
  });
  /**
   * The store's mark as read at most `ttlMs / 8` ago, and when: one read of the mark (a statement of its own) serves
   * every entry checked and every read begun in that time, not one per lookup. A mark read earlier errs only
   * towards reading again (a write since then leaves a newer mark than the one kept), and an entry it finds good
   * starts its new lifetime when the mark was read, not now: a change still shows within one lifetime.
   */
  let markRead: { at: number; mark: string | undefined } | undefined;
  const markReuseMs = options.ttlMs / 8;
  const markAsOf = (time: number) => {
    if (!markRead || time - markRead.at >= markReuseMs) markRead = { at: time, mark: changeMark!() };
    return markRead;
  };
  /**
   * The entry of `key` while it is good: within its lifetime, or read under the store's current mark (`markAsOf`),
   * which starts a new lifetime (nothing was written until the mark was read, so a change still shows within one).
   */
  const current = (key: NonNullable<unknown>): Entry<Value> | undefined => {
    const entry = remembered.get(key);
    if (!entry || !changeMark) return entry;
    const time = now();
    if (time - entry.at! < options.ttlMs) return entry;
    const read = markAsOf(time);
    if (entry.mark !== undefined && entry.mark === read.mark) {
      entry.at = read.at;
      return entry;
    }
    remembered.delete(key);
    return undefined;
  };
  const keyOf = options.keyOf ?? ((query: Query) => query as NonNullable<unknown>);
  const purgeEvery = Math.max(16, Math.ceil(options.maxEntries / 8));
  let reads = 0;
  // Under a change mark a kept answer outlives any period, so a key read again is one read again among the last
  // `maxEntries` to `2 × maxEntries` keys, however long that took: how often a key comes back, not how fast this
  // instance is asked, decides what is kept.
  const repeated = options.keepRepeatedOnly
    ? repeatedKeys(changeMark ? Number.POSITIVE_INFINITY : options.ttlMs, options.maxEntries, now)
    : undefined;
  const cache: LookupCache<Query, Value> = {
    lookup(query) {
      const key = keyOf(query);
      const entry = current(key);
      if (entry) return entry.read;
      if (++reads >= purgeEvery) {
        reads = 0;
        remembered.purgeStale();
      }
      // The mark before the read (`markAsOf`): a write during it or since leaves a newer one, and the answer is not
      // reused past its lifetime.
      let fresh: Entry<Value>;
      if (changeMark) {
        const time = now();
        fresh = { at: time, mark: markAsOf(time).mark, read: read(query) };
      } else fresh = { read: read(query) };
      remembered.set(key, fresh);
      const keep = repeated === undefined || repeated(key);
      fresh.read.then(
        (value) => {
          if (keep) fresh.answer = { value };
          else if (remembered.get(key) === fresh) remembered.delete(key);
        },
        // A failed read is not kept: the next lookup asks the store again.
        () => {
          if (remembered.get(key) === fresh) remembered.delete(key);
        },
      );
      return fresh.read;
    },
    known: (query) => current(keyOf(query))?.answer,
    resolve(query) {
      const known = cache.known(query);
      return known ? known.value : cache.lookup(query);
    },
    clear() {
      remembered.clear();
      markRead = undefined;
    },
    size: () => remembered.size,
  };
  return cache;
}

/**
 * Whether a key was seen before, within the last `ttlMs` to `2 × ttlMs`: two
 * sets of keys, the older one dropped each `ttlMs` (or when the newer one
 * holds `maxKeys`; only then with a `ttlMs` of infinity). What a lookup
 * cache keeps costs the collector (an answer kept for its lifetime outlives
 * the young generation and is copied into the old one); keeping only keys read again lets a mix of many keys each read
 * once go young, and costs such a key one more read of the store.
 */
function repeatedKeys(ttlMs: number, maxKeys: number, now: () => number): (key: NonNullable<unknown>) => boolean {
  let recent = new Set<NonNullable<unknown>>();
  let older = new Set<NonNullable<unknown>>();
  let since = now();
  return (key) => {
    const time = now();
    if (time - since >= ttlMs || recent.size >= maxKeys) {
      older = time - since >= 2 * ttlMs ? new Set() : recent;
      recent = new Set();
      since = time;
    }
    if (recent.has(key) || older.has(key)) return true;
    recent.add(key);
    return false;
  };
}
