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
      return keyId === undefined ? undefined : { keyId, accountId: `acct-${keyId}` };
    },
  };
  return registry;
}

const KEY_1 = { keyId: 'key-1', accountId: 'acct-key-1' };

describe('cachedActiveKeys', () => {
  it('reads the store once per key and period, valid or unknown, and shares a read in flight', async () => {
    const registry = countingRegistry({ h1: 'key-1' });
    const cache = cachedActiveKeys(registry, { ttlMs: 60_000, maxEntries: 10 });
    expect(await Promise.all([cache.findActiveKey('h1'), cache.findActiveKey('h1')])).toEqual([KEY_1, KEY_1]);
    expect(await cache.findActiveKey('h1')).toEqual(KEY_1);
    expect(await cache.findActiveKey('unknown')).toBeUndefined();
    expect(await cache.findActiveKey('unknown')).toBeUndefined();
    expect(registry.reads).toBe(2);
  });

  it('answers a key it already knows synchronously (valid or unknown), and nothing while the read is in flight or after clear', async () => {
    const registry = countingRegistry({ h1: 'key-1' });
    const cache = cachedActiveKeys(registry, { ttlMs: 60_000, maxEntries: 10 });
    expect(cache.knownActiveKey('h1')).toBeUndefined();
    const reading = cache.findActiveKey('h1');
    expect(cache.knownActiveKey('h1')).toBeUndefined();
    await reading;
    expect(cache.knownActiveKey('h1')).toEqual({ key: KEY_1 });
    await cache.findActiveKey('unknown');
    expect(cache.knownActiveKey('unknown')).toEqual({ key: undefined });
    cache.clear();
    expect(cache.knownActiveKey('h1')).toBeUndefined();
    expect(registry.reads).toBe(2);
  });

  it('asks again after the period, after clear, and after a failed read', async () => {
    const registry = countingRegistry({ h1: 'key-1' });
    const cache = cachedActiveKeys(registry, { ttlMs: 30, maxEntries: 10 });
    await cache.findActiveKey('h1');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await cache.findActiveKey('h1');
    expect(registry.reads).toBe(2);
    cache.clear();
    await cache.findActiveKey('h1');
    expect(registry.reads).toBe(3);
    cache.clear();
    registry.fail = true;
    await expect(cache.findActiveKey('h1')).rejects.toThrow('store down');
    registry.fail = false;
    expect(await cache.findActiveKey('h1')).toEqual(KEY_1);
  });

  it('reads every time with a period of 0', async () => {
    const registry = countingRegistry({ h1: 'key-1' });
    const cache = cachedActiveKeys(registry, { ttlMs: 0, maxEntries: 10 });
    await cache.findActiveKey('h1');
    await cache.findActiveKey('h1');
    expect(registry.reads).toBe(2);
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
