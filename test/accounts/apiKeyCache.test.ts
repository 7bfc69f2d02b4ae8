// @store-independent
import { describe, expect, it } from 'vitest';
import { announcingKeyChanges, cachedActiveKeys } from '../../src/accounts/apiKeyCache.js';

/** A registry that counts its reads; `keys` maps a hash to its key id (of account `acct-<id>`). */
function countingRegistry(keys: Record<string, string>) {
  const registry = {
    reads: 0,
    fail: false,
    async findActiveKey(hash: string) {
      registry.reads++;
      if (registry.fail) throw new Error('store down');
      const keyId = keys[hash];
      return keyId === undefined ? undefined : { keyId, accountId: `acct-${keyId}`, inbox: `${keyId}@example.com` };
    },
  };
  return registry;
}

const KEY_1 = { keyId: 'key-1', accountId: 'acct-key-1', inbox: 'key-1@example.com' };

// The cache's behaviour (periods, shared reads, failures, bounds) is `cachedLookups`' (test/platform/store/lookupCache.test.ts).
describe('cachedActiveKeys', () => {
  it('reads the registry once per key and period, and then knows the key synchronously (valid or unknown) until cleared', async () => {
    const registry = countingRegistry({ h1: 'key-1' });
    const cache = cachedActiveKeys(registry, { ttlMs: 60_000, maxEntries: 10 });
    expect(cache.knownActiveKey('h1')).toBeUndefined();
    expect(await Promise.all([cache.findActiveKey('h1'), cache.findActiveKey('h1')])).toEqual([KEY_1, KEY_1]);
    expect(cache.knownActiveKey('h1')).toEqual({ value: KEY_1 });
    expect(await cache.findActiveKey('unknown')).toBeUndefined();
    expect(cache.knownActiveKey('unknown')).toEqual({ value: undefined });
    expect(registry.reads).toBe(2);
    cache.clear();
    expect(cache.knownActiveKey('h1')).toBeUndefined();
    expect(await cache.findActiveKey('h1')).toEqual(KEY_1);
    expect(registry.reads).toBe(3);
  });
});

describe('announcingKeyChanges', () => {
  it('announces after each write that ends keys, whether it succeeded or failed', async () => {
    let announced = 0;
    const store = announcingKeyChanges(
      {
        rotateKey: async () => undefined,
        revokeKey: async () => undefined,
        deleteApplication: async () => {
          throw new Error('store down');
        },
        other: () => 'kept',
      } as never as Parameters<typeof announcingKeyChanges>[0] & { other(): string },
      () => announced++,
    );
    await store.rotateKey('a', 'b', { hash: 'h', displayPrefix: 'p' });
    await store.revokeKey('a', 'b', 'c');
    await expect(store.deleteApplication('a', 'b')).rejects.toThrow('store down');
    expect(announced).toBe(3);
    expect(store.other()).toBe('kept');
  });
});
