import { LRUCache } from 'lru-cache';
import type { ActiveKey, ApiKeyRegistry } from './apiKeys.js';
import type { DeveloperApplications } from './applications.js';

/** The change-bus topic of API keys: published after a key is revoked, rotated away or deleted. */
export const API_KEYS_CHANGED = 'api-keys';

/** Resolves a key hash to its key and account, or undefined for an unknown or revoked key. */
export type ActiveKeyLookup = (keyHash: string) => Promise<ActiveKey | undefined>;

export interface ActiveKeyCache {
  findActiveKey: ActiveKeyLookup;
  /**
   * What `findActiveKey` would answer when the cache already holds the
   * answer (`{ key }`, undefined for an unknown or revoked key); undefined
   * when the store must be asked. Lets a known key be resolved without an
   * asynchronous step.
   */
  knownActiveKey(keyHash: string): { key: ActiveKey | undefined } | undefined;
  /** Forgets everything (on `API_KEYS_CHANGED`). */
  clear(): void;
}

/**
 * What this instance knows of API keys, kept `ttlMs` (`API_KEY_CACHE_MS`):
 * a keyed lookup then reads the store once per key and period, not on every
 * request. Unknown and revoked keys are remembered too (at most `maxEntries`
 * keys in all, least recently used dropped first), so a flood of made-up
 * keys costs one read each, once. A revocation made elsewhere takes effect
 * here within `ttlMs`; `clear` (the change bus) makes it sooner.
 * Concurrent lookups of one key share one read; a failed read is not kept.
 */
export function cachedActiveKeys(
  registry: Pick<ApiKeyRegistry, 'findActiveKey'>,
  options: { ttlMs: number; maxEntries: number },
): ActiveKeyCache {
  if (options.ttlMs <= 0) return { findActiveKey: (hash) => registry.findActiveKey(hash), knownActiveKey: () => undefined, clear: () => {} };
  // Each entry is the read (shared by concurrent lookups) and, once it has answered, its answer.
  const known = new LRUCache<string, { read: Promise<ActiveKey | undefined>; answer?: { key: ActiveKey | undefined } }>({
    max: options.maxEntries,
    ttl: options.ttlMs,
  });
  return {
    findActiveKey(keyHash) {
      let entry = known.get(keyHash);
      if (!entry) {
        const read = registry.findActiveKey(keyHash);
        const fresh: { read: Promise<ActiveKey | undefined>; answer?: { key: ActiveKey | undefined } } = { read };
        entry = fresh;
        known.set(keyHash, fresh);
        read.then(
          (key) => {
            fresh.answer = { key };
          },
          // A failed read is not kept: the next lookup asks the store again.
          () => {
            if (known.get(keyHash) === fresh) known.delete(keyHash);
          },
        );
      }
      return entry.read;
    },
    knownActiveKey: (keyHash) => known.get(keyHash)?.answer,
    clear: () => known.clear(),
  };
}

/** The writes of the applications store that end keys: a revocation, a rotation, a deletion. */
type KeyEndingWrites = Pick<DeveloperApplications, 'rotateKey' | 'revokeKey' | 'deleteApplication'>;

/**
 * The store, whose writes that end keys then `announce` the change
 * (`API_KEYS_CHANGED` on the change bus), so every key cache drops what it
 * knew: at once on this instance, within moments on the others.
 */
export function announcingKeyChanges<Store extends KeyEndingWrites>(store: Store, announce: () => void): Store {
  return {
    ...store,
    rotateKey: (...args) => store.rotateKey(...args).finally(announce),
    revokeKey: (...args) => store.revokeKey(...args).finally(announce),
    deleteApplication: (...args) => store.deleteApplication(...args).finally(announce),
  };
}
