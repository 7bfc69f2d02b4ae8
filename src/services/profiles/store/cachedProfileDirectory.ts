import type { ProfileLookup } from '../domain/identifier.js';
import type { Profile } from '../domain/profile.js';
import type { ProfileDirectory } from './profilesStore.js';

export interface LookupCacheOptions {
  /** How long a looked-up profile (or its absence) is reused; 0 turns the cache off. */
  ttlMs: number;
  /** Most lookups kept; the oldest is dropped first. */
  maxEntries: number;
  /** Milliseconds clock (tests pass their own). */
  now?: () => number;
}

/**
 * A short-lived in-process cache in front of `findProfile`: a profile (or
 * the absence of one) found by the same identifier is reused for `ttlMs`,
 * so a burst of lookups costs one query. A change made by another process
 * shows within `ttlMs`; one made through this directory clears the cache at
 * once. API keys are never cached (revocations take effect at once).
 */
export function cachedProfileDirectory(directory: ProfileDirectory, options: LookupCacheOptions): ProfileDirectory {
  if (options.ttlMs <= 0) return directory;
  const now = options.now ?? Date.now;
  // Promises, so concurrent lookups of the same identifier share one query.
  // `settled` is the answer once the query has given it.
  const entries = new Map<string, { profile: Promise<Profile | undefined>; expiresAt: number; settled?: { profile: Profile | undefined } }>();
  return {
    knownProfile(lookup: ProfileLookup) {
      if (lookup.by === 'nothing') return { profile: undefined };
      const cached = entries.get(`${lookup.by}:${lookup.value}`);
      return cached && cached.expiresAt > now() ? cached.settled : undefined;
    },
    findProfile(lookup: ProfileLookup) {
      if (lookup.by === 'nothing') return Promise.resolve(undefined);
      const key = `${lookup.by}:${lookup.value}`;
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now()) return cached.profile;
      entries.delete(key);
      if (entries.size >= options.maxEntries) entries.delete(entries.keys().next().value!);
      const entry: { profile: Promise<Profile | undefined>; expiresAt: number; settled?: { profile: Profile | undefined } } = {
        profile: directory.findProfile(lookup),
        expiresAt: now() + options.ttlMs,
      };
      entries.set(key, entry);
      entry.profile.then(
        (profile) => {
          entry.settled = { profile };
        },
        // A failed lookup is not remembered: the next request asks the store again.
        () => {
          if (entries.get(key) === entry) entries.delete(key);
        },
      );
      return entry.profile;
    },
    async saveProfiles(profiles) {
      try {
        return await directory.saveProfiles(profiles);
      } finally {
        entries.clear();
      }
    },
    countProfiles: () => directory.countProfiles(),
    // Image bytes are not kept here: the avatar renderer keeps the sizes it drew.
    readAvatarImage: (digest) => directory.readAvatarImage(digest),
  };
}
