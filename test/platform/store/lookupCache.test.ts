// @store-independent
import { describe, expect, it } from 'vitest';
import { cachedLookups } from '../../../src/platform/store/lookupCache.js';

/** A store lookup that counts its reads; `owners` maps a key to its answer (undefined: unknown). */
function countingStore(owners: Record<string, number>) {
  const store = {
    reads: 0,
    fail: false,
    async read(key: string) {
      store.reads++;
      if (store.fail) throw new Error('store down');
      return owners[key];
    },
  };
  return store;
}

describe('cachedLookups', () => {
  it('reads the store once per key and period, known or unknown, and shares a read in flight', async () => {
    const store = countingStore({ a: 1 });
    const cache = cachedLookups(store.read, { ttlMs: 60_000, maxEntries: 10 });
    expect(await Promise.all([cache.lookup('a'), cache.lookup('a')])).toEqual([1, 1]);
    expect(await cache.lookup('a')).toBe(1);
    expect(await cache.lookup('unknown')).toBeUndefined();
    expect(await cache.lookup('unknown')).toBeUndefined();
    expect(store.reads).toBe(2);
  });

  it('answers a key it already knows synchronously (known or unknown), and nothing while the read is in flight or after clear', async () => {
    const store = countingStore({ a: 1 });
    const cache = cachedLookups(store.read, { ttlMs: 60_000, maxEntries: 10 });
    expect(cache.known('a')).toBeUndefined();
    const reading = cache.lookup('a');
    expect(cache.known('a')).toBeUndefined();
    await reading;
    expect(cache.known('a')).toEqual({ value: 1 });
    await cache.lookup('unknown');
    expect(cache.known('unknown')).toEqual({ value: undefined });
    cache.clear();
    expect(cache.known('a')).toBeUndefined();
    expect(store.reads).toBe(2);
  });

  it('resolves a key it knows to the value itself, and an unknown one to the one read', async () => {
    const store = countingStore({ a: 1 });
    const cache = cachedLookups(store.read, { ttlMs: 60_000, maxEntries: 10 });
    const first = cache.resolve('a');
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toBe(1);
    expect(cache.resolve('a')).toBe(1);
    expect(store.reads).toBe(1);
    const uncached = cachedLookups(store.read, { ttlMs: 0, maxEntries: 10 });
    expect(await uncached.resolve('a')).toBe(1);
    expect(uncached.resolve('a')).toBeInstanceOf(Promise);
  });

  it('asks again after the period, after clear, and after a failed read', async () => {
    const store = countingStore({ a: 1 });
    const cache = cachedLookups(store.read, { ttlMs: 30, maxEntries: 10 });
    await cache.lookup('a');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.known('a')).toBeUndefined();
    await cache.lookup('a');
    expect(store.reads).toBe(2);
    cache.clear();
    await cache.lookup('a');
    expect(store.reads).toBe(3);
    cache.clear();
    store.fail = true;
    await expect(cache.lookup('a')).rejects.toThrow('store down');
    expect(cache.known('a')).toBeUndefined();
    store.fail = false;
    expect(await cache.lookup('a')).toBe(1);
  });

  it('keeps at most maxEntries keys, the least recently used dropped first', async () => {
    const store = countingStore({ a: 1, b: 2, c: 3 });
    const cache = cachedLookups(store.read, { ttlMs: 60_000, maxEntries: 2 });
    await cache.lookup('a');
    await cache.lookup('b');
    await cache.lookup('a');
    await cache.lookup('c');
    expect(cache.known('a')).toEqual({ value: 1 });
    expect(cache.known('b')).toBeUndefined();
    expect(store.reads).toBe(3);
  });

  it('remembers a query by its keyOf, handing the store the query itself', async () => {
    const asked: { site: number; user: number }[] = [];
    const cache = cachedLookups(
      async (query: { site: number; user: number }) => {
        asked.push(query);
        return query.site * 10 + query.user;
      },
      { ttlMs: 60_000, maxEntries: 10, keyOf: (query) => `${query.site}:${query.user}` },
    );
    expect(await cache.lookup({ site: 1, user: 2 })).toBe(12);
    expect(await cache.lookup({ site: 1, user: 2 })).toBe(12);
    expect(cache.known({ site: 1, user: 2 })).toEqual({ value: 12 });
    expect(cache.known({ site: 2, user: 1 })).toBeUndefined();
    expect(await cache.lookup({ site: 2, user: 1 })).toBe(21);
    expect(asked).toEqual([
      { site: 1, user: 2 },
      { site: 2, user: 1 },
    ]);
  });

  it('reads every time with a period of 0, and knows nothing', async () => {
    const store = countingStore({ a: 1 });
    const cache = cachedLookups(store.read, { ttlMs: 0, maxEntries: 10 });
    await cache.lookup('a');
    await cache.lookup('a');
    expect(cache.known('a')).toBeUndefined();
    expect(store.reads).toBe(2);
  });
});

describe('cachedLookups and expired entries', () => {
  it('lets expired entries go as new keys are read, before the cache is full', async () => {
    const store = countingStore({});
    // Not 0: lru-cache takes a start time of 0 for an entry without a lifetime.
    let now = 1;
    const cache = cachedLookups(store.read, { ttlMs: 1000, maxEntries: 800, now: () => now });
    for (let i = 0; i < 100; i++) await cache.lookup(`old-${i}`);
    expect(cache.size()).toBe(100);
    now = 2001;
    // A hundred new keys (more than one purge's worth of reads): the expired hundred are gone, the new ones kept.
    for (let i = 0; i < 100; i++) await cache.lookup(`new-${i}`);
    expect(cache.size()).toBeLessThanOrEqual(100);
    expect(cache.known('new-99')).toEqual({ value: undefined });
    expect(cache.known('old-0')).toBeUndefined();
  });
});

describe('cachedLookups keeping repeated keys only', () => {
  it('keeps a key read again within one to two periods, sharing a first read in flight', async () => {
    const store = countingStore({ a: 1, b: 2 });
    let now = 1;
    const cache = cachedLookups(store.read, { ttlMs: 1000, maxEntries: 10, now: () => now, keepRepeatedOnly: true });
    expect(await Promise.all([cache.lookup('a'), cache.lookup('a')])).toEqual([1, 1]);
    expect(store.reads).toBe(1);
    expect(cache.known('a')).toBeUndefined();
    expect(cache.size()).toBe(0);
    await cache.lookup('a');
    expect(cache.known('a')).toEqual({ value: 1 });
    expect(store.reads).toBe(2);
    // Seen in the period before: kept on its next read.
    now = 1500;
    await cache.lookup('b');
    now = 2100;
    await cache.lookup('b');
    expect(cache.known('b')).toEqual({ value: 2 });
    // Not seen for two periods: read once more before it is kept.
    now = 10_000;
    await cache.lookup('b');
    expect(cache.known('b')).toBeUndefined();
  });

  it('remembers at most maxEntries keys read once per period', async () => {
    const store = countingStore({});
    const cache = cachedLookups(store.read, { ttlMs: 60_000, maxEntries: 4, keepRepeatedOnly: true });
    for (let i = 0; i < 12; i++) await cache.lookup(`once-${i}`);
    await cache.lookup('once-0');
    expect(cache.known('once-0')).toBeUndefined();
    await cache.lookup('once-11');
    expect(cache.known('once-11')).toEqual({ value: undefined });
  });
});

describe('cachedLookups keeping repeated keys only, under a change mark (SQLite)', () => {
  it('keeps a key read again however long after, while fewer than maxEntries other keys came between', async () => {
    const store = countingStore({ a: 1, b: 2 });
    let now = 0;
    const cache = cachedLookups(store.read, {
      ttlMs: 1000,
      maxEntries: 4,
      now: () => now,
      changeMark: () => 'unchanged',
      keepRepeatedOnly: true,
    });
    await cache.lookup('a');
    expect(cache.known('a')).toBeUndefined();
    // A minute later, many lifetimes: without a mark it would be read once more before it is kept.
    now = 60_000;
    await cache.lookup('a');
    expect(cache.known('a')).toEqual({ value: 1 });
    expect(store.reads).toBe(2);
    // Read once, then again after twelve keys each read once: let go, as a one-off key is.
    await cache.lookup('b');
    for (let i = 0; i < 12; i++) await cache.lookup(`once-${i}`);
    now = 120_000;
    await cache.lookup('b');
    expect(cache.known('b')).toBeUndefined();
    expect(cache.known('once-11')).toBeUndefined();
    expect(cache.known('a')).toEqual({ value: 1 });
  });
});

describe('cachedLookups under a change mark (SQLite)', () => {
  /** A store whose mark moves with each write, and a clock the test moves. */
  function marked() {
    const store = countingStore({ a: 1, b: 2 });
    const clock = { now: 0, writes: 0, busy: false };
    const cache = cachedLookups(store.read, {
      ttlMs: 1000,
      maxEntries: 10,
      now: () => clock.now,
      changeMark: () => (clock.busy ? undefined : String(clock.writes)),
    });
    return { store, clock, cache };
  }

  it('reuses an answer past its lifetime while nothing was written, synchronously too', async () => {
    const { store, clock, cache } = marked();
    expect(await cache.lookup('a')).toBe(1);
    clock.now = 60_000;
    expect(cache.known('a')).toEqual({ value: 1 });
    expect(await cache.lookup('a')).toBe(1);
    expect(store.reads).toBe(1);
  });

  it('reads again past the lifetime once a write moved the mark; within the lifetime, as without a mark', async () => {
    const { store, clock, cache } = marked();
    await cache.lookup('a');
    clock.writes++;
    clock.now = 999;
    expect(cache.known('a')).toEqual({ value: 1 });
    clock.now = 1000;
    expect(cache.known('a')).toBeUndefined();
    expect(await cache.lookup('a')).toBe(1);
    expect(store.reads).toBe(2);
    clock.now = 5000;
    expect(await cache.lookup('a')).toBe(1);
    expect(store.reads).toBe(2);
  });

  it('reuses nothing past the lifetime when the mark cannot be read (a busy store)', async () => {
    const { store, clock, cache } = marked();
    clock.busy = true;
    await cache.lookup('b');
    clock.busy = false;
    clock.now = 2000;
    expect(cache.known('b')).toBeUndefined();
    await cache.lookup('b');
    clock.busy = true;
    clock.now = 4000;
    expect(cache.known('b')).toBeUndefined();
    expect(store.reads).toBe(2);
  });
});

describe('cachedLookups reading the change mark', () => {
  it('reads the mark at most once a lifetime per entry: a good mark starts a new lifetime', async () => {
    const store = countingStore({ a: 1 });
    const clock = { now: 0, marks: 0, writes: 0 };
    const cache = cachedLookups(store.read, {
      ttlMs: 1000,
      maxEntries: 10,
      now: () => clock.now,
      changeMark: () => {
        clock.marks++;
        return String(clock.writes);
      },
    });
    await cache.lookup('a');
    const atRead = clock.marks;
    clock.now = 1500;
    for (let i = 0; i < 5; i++) expect(cache.known('a')).toEqual({ value: 1 });
    expect(clock.marks - atRead).toBe(1);
    // A write after that check shows once the new lifetime ends, not later.
    clock.writes++;
    clock.now = 2499;
    expect(cache.known('a')).toEqual({ value: 1 });
    clock.now = 2500;
    expect(cache.known('a')).toBeUndefined();
    expect(store.reads).toBe(1);
  });

  /** A cache of a mark the test counts and moves, over a store of `keys` keys. */
  function counted(keys: number) {
    const store = countingStore(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i])));
    const clock = { now: 0, marks: 0, writes: 0 };
    const cache = cachedLookups(store.read, {
      ttlMs: 1000,
      maxEntries: 1000,
      now: () => clock.now,
      changeMark: () => {
        clock.marks++;
        return String(clock.writes);
      },
    });
    return { store, clock, cache };
  }

  it('reads the mark once for every entry checked and every read begun within an eighth of a lifetime', async () => {
    const { store, clock, cache } = counted(101);
    for (let i = 0; i < 50; i++) await cache.lookup(`k${i}`);
    expect(clock.marks).toBe(1);
    // A mix: each of 50 entries past its lifetime, and 50 reads of keys not yet kept, in one eighth of a lifetime.
    clock.now = 1500;
    for (let i = 0; i < 50; i++) expect(cache.known(`k${i}`)).toEqual({ value: i });
    for (let i = 50; i < 100; i++) await cache.lookup(`k${i}`);
    expect(clock.marks).toBe(2);
    // An eighth of a lifetime later, the next read begun reads it again.
    clock.now = 1500 + 125;
    await cache.lookup('k100');
    expect(clock.marks).toBe(3);
    expect(store.reads).toBe(101);
  });

  it('starts the lifetime an earlier read of the mark gives when that mark was read: a write since shows within one', async () => {
    const { store, clock, cache } = counted(2);
    await cache.lookup('k0');
    await cache.lookup('k1');
    clock.now = 1000;
    expect(cache.known('k0')).toEqual({ value: 0 });
    // A write after the mark was read (at 1000): the mark kept does not show it yet.
    clock.now = 1050;
    clock.writes++;
    clock.now = 1100;
    expect(cache.known('k1')).toEqual({ value: 1 });
    // k1's new lifetime began at 1000, when the mark was read: it ends before 1050 + 1000, when the write must show.
    clock.now = 1999;
    expect(cache.known('k1')).toEqual({ value: 1 });
    clock.now = 2000;
    expect(cache.known('k1')).toBeUndefined();
    expect(cache.known('k0')).toBeUndefined();
    // A read begun under the mark kept from before a write is not reused past its lifetime.
    clock.now = 2010;
    clock.writes++;
    await cache.lookup('k0');
    clock.now = 3010;
    expect(cache.known('k0')).toBeUndefined();
    expect(store.reads).toBe(3);
  });
});
