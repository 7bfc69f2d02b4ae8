import { cachedLookups, type LookupCache } from '../platform/store/lookupCache.js';
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
   * answer (`{ value }`, undefined for an unknown or revoked key); undefined
   * when the store must be asked. Lets a known key be resolved without an
   * asynchronous step.
   */
  knownActiveKey: LookupCache<string, ActiveKey | undefined>['known'];
  /** Forgets everything (on `API_KEYS_CHANGED`). */
  clear(): void;
}

/**
 * What this instance knows of API keys, kept `ttlMs` (`API_KEY_CACHE_MS`;
 * see `cachedLookups`): a keyed lookup then reads the store once per key and
 * period, not on every request; unknown and revoked keys are remembered too.
 * A revocation made elsewhere takes effect here within `ttlMs`; `clear` (the
 * change bus) makes it sooner.
 */
export function cachedActiveKeys(
  registry: Pick<ApiKeyRegistry, 'findActiveKey'>,
  options: { ttlMs: number; maxEntries: number },
): ActiveKeyCache {
  const keys = cachedLookups((keyHash: string) => registry.findActiveKey(keyHash), options);
  return { findActiveKey: keys.lookup, knownActiveKey: keys.known, clear: keys.clear };
}

/** The writes of the applications store that end keys: a revocation, a rotation, a deletion (of an application, or of its account). */
type KeyEndingWrites = Pick<DeveloperApplications, 'rotateKey' | 'revokeKey' | 'deleteApplication'> & {
  deleteAccount(accountId: string): Promise<boolean>;
};

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
    deleteAccount: (...args) => store.deleteAccount(...args).finally(announce),
  };
}
